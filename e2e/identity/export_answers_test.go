package identity_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
)

// Issue 33: the personal-data export is no way round the attempt's own
// redaction.
var _ = Describe("The personal-data export during a running attempt", func() {
	It("shows each attempt's answer side exactly as GET /attempts/{id} does: nothing of a running timed one", func() {
		mod := h.NewUser(auth.RoleModerator)
		keys := []AnswerKey{h.NewAnswerKey(mod, nil), h.NewAnswerKey(mod, nil)}
		res := mod.Client(h).Post("/api/v1/questions/from-bank", map[string]any{"title": "Exported while sat",
			"question_ids": []int64{keys[0].ID, keys[1].ID}, "mode": "timed", "time_limit_minutes": 30})
		Expect(res).To(HaveStatus(201))
		quiz := res.ID()
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz), nil)).To(HaveStatus(200))

		u := h.NewUser(auth.RoleUser)
		c := u.Client(h)
		startAs := func(mode string) int64 {
			res := c.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d&mode=%s", quiz, mode), nil)
			ExpectWithOffset(1, res).To(HaveStatus(200))
			return res.ID()
		}
		timed, study := startAs("timed"), startAs("learning")
		Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": timed,
			"answers": map[string]string{fmt.Sprint(keys[0].ID): keys[0].Answer}})).To(HaveStatus(200))

		// side is what a body shows of one question's answer side in an attempt.
		type side struct{ CorrectAnswer, IsCorrect any }
		fromAPI := func(attempt int64) []side {
			res := c.Get(fmt.Sprintf("/api/v1/attempts/%d", attempt))
			ExpectWithOffset(1, res).To(HaveStatus(200))
			d := Body[contract.AttemptDetail](res)
			ExpectWithOffset(1, d.Answers).NotTo(BeNil())
			out := make([]side, len(*d.Answers))
			for i, a := range *d.Answers {
				out[i] = side{orNil(a.CorrectAnswer), orNil(a.IsCorrect)}
			}
			return out
		}
		// The export's attempt rows (a file of the archive, outside the
		// contract): the answer side as it is, null or not.
		type exportedAttempt struct {
			ID      int64 `json:"id"`
			Answers []struct {
				CorrectAnswer any `json:"correct_answer"`
				IsCorrect     any `json:"is_correct"`
			} `json:"answers"`
		}
		fromExport := func() (map[int64][]side, *Response) {
			res := c.Get("/api/v1/auth/me/export")
			ExpectWithOffset(1, res).To(HaveStatus(200))
			out := map[int64][]side{}
			for _, a := range decode[[]exportedAttempt](unzipped(res.Body)["attempts/attempts.json"]) {
				for _, ans := range a.Answers {
					out[a.ID] = append(out[a.ID], side{ans.CorrectAnswer, ans.IsCorrect})
				}
			}
			return out, res
		}

		exported, raw := fromExport()
		Expect(exported[timed]).To(Equal([]side{{nil, nil}, {nil, nil}}), "a running timed attempt's key stays out")
		Expect(exported[timed]).To(Equal(fromAPI(timed)))
		Expect(exported[study]).To(Equal(fromAPI(study)), "a study attempt shows its answers at once, as the API does")
		Expect(exported[study]).To(Equal([]side{{keys[0].Answer, nil}, {keys[1].Answer, nil}}))
		Expect(raw).To(ShowNoneOf(append(keys[0].Secrets, keys[1].Secrets...)))

		Expect(c.Post(fmt.Sprintf("/api/v1/attempts/%d/submit", timed), nil)).To(HaveStatus(200))
		exported, _ = fromExport()
		Expect(exported[timed]).To(Equal(fromAPI(timed)))
		Expect(exported[timed]).To(Equal([]side{{keys[0].Answer, true}, {keys[1].Answer, false}}))
	})
})

// orNil is what p points to, or an untyped nil: a JSON null as an `any`
// decodes.
func orNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
