package attempts_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
)

// storedFlags reads the flags of an attempt's saved progress as stored
// (nil when the row holds none).
func storedFlags(attemptID int64) []int64 {
	var text *string
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT flagged::text FROM attempts.saved_progress WHERE attempt_id = ?`,
		attemptID).Scan(&text).Error).To(Succeed())
	if text == nil {
		return nil
	}
	var ids []int64
	ExpectWithOffset(1, json.Unmarshal([]byte(*text), &ids)).To(Succeed())
	return ids
}

// flagsRead lists the flags of a read progress.
func flagsRead(c *Client, quizID int64) []int64 {
	res := c.Get(progressPath(quizID))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var p struct {
		Flagged []int64 `json:"flagged"`
	}
	res.JSON(&p)
	return p.Flagged
}

// reviewFlags is what the attempt's review says of each question, in the
// order sat.
func reviewFlags(u *User, attemptID int64) []bool {
	var out []bool
	for _, a := range getDetail(u, attemptID).Answers {
		out = append(out, a.Flagged)
	}
	return out
}

var _ = Describe("Flags in the saved progress", func() {
	var (
		quiz          int64
		ids           []int64
		u             *User
		a             attempt
		laptop, phone *Client
	)
	BeforeEach(func() {
		quiz, ids = cardioQuiz(quizOpts{limit: 45})
		u = learner()
		a = start(u, quiz, "")
		laptop = u.Client(h).With("x-quiz-session", "laptop")
		phone = u.Client(h).With("x-quiz-session", "phone")
	})

	It("follow the learner to another device, and a save without them keeps them", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"},
			map[string]any{"flagged": []int64{ids[2], ids[0], ids[2]}, "revision": 1}))).To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[0], ids[2]}), "ascending, each once")

		By("the phone waits for the laptop's lock, then resumes the same attempt with its flags")
		Expect(phone.Get(progressPath(quiz))).To(HaveError(409, "conflict"))
		ageLastSave(u, quiz, 31)
		Expect(start(u, quiz, "")).To(HaveField("ID", a.ID))
		p := readProgress(phone, quiz)
		Expect(p.Answers).To(Equal(map[string]string{fmt.Sprint(ids[0]): "Nitrate"}))
		Expect(flagsRead(phone, quiz)).To(Equal([]int64{ids[0], ids[2]}))

		By("the phone's save without flags (an older client) keeps them; [] clears them")
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Warfarin"}, nil))).
			To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[0], ids[2]}))
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[1]}}))).To(HaveStatus(200))
		Expect(flagsRead(phone, quiz)).To(Equal([]int64{ids[1]}))
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{}}))).To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(Equal([]int64{}))
		Expect(flagsRead(phone, quiz)).To(Equal([]int64{}))
	})

	It("reads as an empty list when no save sent any", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"}, nil))).
			To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(BeNil())
		Expect(bodyText(laptop.Get(progressPath(quiz)))).To(ContainSubstring(`"flagged":[]`))
	})

	It("are stored by the step-by-step save too", func() {
		// A key in another spelling of a question id skips the combined
		// statement: the slow path must store the flags the same way.
		Expect(laptop.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{"0" + fmt.Sprint(ids[1]): "MS"}, "flagged": []int64{ids[1]}})).To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[1]}))
		Expect(laptop.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": a.ID,
			"answers": map[string]string{"0" + fmt.Sprint(ids[1]): "MS"}})).To(HaveStatus(200))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[1]}), "kept when the save sends none")
	})

	It("are never cleared by a stale save or by another device holding no lock", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[1]}, "revision": 200}))).To(HaveStatus(200))

		By("an older save of the same device (replayed late from a queue) changes nothing")
		res := laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{}, "revision": 100}))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("stale", true))
		Expect(res.Map()).To(HaveKeyWithValue("saved", false))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[1]}))

		By("another device within the lock is refused and changes nothing")
		Expect(phone.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{}, "revision": 999}))).To(HaveError(409, "conflict"))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[1]}))
		Expect(flagsRead(laptop, quiz)).To(Equal([]int64{ids[1]}))
	})

	It("refuse a question outside the attempt, too many, or no id, and change nothing", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[0]}}))).To(HaveStatus(200))
		other := openQuestion(mcq("A question of another quiz?", "Yes", "Yes", "No"))
		refused := map[string]any{
			"a question of another quiz":  []int64{ids[1], other},
			"a question the bank lacks":   []int64{999999999},
			"no question id":              []int64{0},
			"a negative id":               []int64{-ids[1]},
			"more than 1,000 flags":       make([]int64, 1001),
			"a string where an id goes":   []string{fmt.Sprint(ids[1])},
			"an object where a list goes": map[string]bool{fmt.Sprint(ids[1]): true},
		}
		for what, flagged := range refused {
			res := laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[1]: "MS"},
				map[string]any{"flagged": flagged}))
			Expect(res).To(HaveError(422, "invalid_request"), what)
			Expect(bodyText(res)).To(ContainSubstring("flagged"), what)
			Expect(storedFlags(a.ID)).To(Equal([]int64{ids[0]}), what)
			Expect(readProgress(laptop, quiz).Answers).To(BeEmpty(), what)
		}
		res := laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[1], other}}))
		Expect(res.Map()["error"].(map[string]any)["message"]).
			To(Equal("flagged names questions that are not in this attempt"))

		By("another learner cannot flag on this attempt: it is not theirs")
		Expect(learner().Client(h).Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[1]}}))).To(HaveError(404, "not_found"))
		Expect(storedFlags(a.ID)).To(Equal([]int64{ids[0]}))
	})

	It("are kept at submission and shown in the review; flags in the submit body still win", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "Nitrate"},
			map[string]any{"flagged": []int64{ids[1], ids[2]}}))).To(HaveStatus(200))
		d := submit(u, a.ID, map[int64]string{ids[1]: "MS"})
		Expect(d.Answers).To(HaveLen(3))
		Expect([]bool{d.Answers[0].Flagged, d.Answers[1].Flagged, d.Answers[2].Flagged}).To(Equal([]bool{false, true, true}))
		Expect(reviewFlags(u, a.ID)).To(Equal([]bool{false, true, true}))
		var stored []bool
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT flagged FROM attempts.answers WHERE attempt_id = ? ORDER BY position`,
			a.ID).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(Equal([]bool{false, true, true}))
		Expect(*d.Score).To(Equal(2), "the saved answer and the given one are scored")

		By("a submit body's flags win over the saved ones")
		b := start(u, quiz, "&fresh=true")
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, b.ID, nil,
			map[string]any{"flagged": []int64{ids[1], ids[2]}}))).To(HaveStatus(200))
		Expect(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", b.ID),
			map[string]any{"flagged": []int64{ids[0]}})).To(HaveStatus(200))
		Expect(reviewFlags(u, b.ID)).To(Equal([]bool{true, false, false}))
	})

	It("are kept when the time runs out and the attempt is auto-submitted", func() {
		Expect(laptop.Post("/api/v1/attempts/progress", save(quiz, a.ID, nil,
			map[string]any{"flagged": []int64{ids[2]}}))).To(HaveStatus(200))
		exec(`UPDATE attempts.attempts SET deadline_at = now() - interval '1 minute' WHERE id = ?`, a.ID)
		res := laptop.Get(progressPath(quiz))
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("X-Attempts-Auto-Submitted")).To(Equal(fmt.Sprint(a.ID)))
		d := getDetail(u, a.ID)
		Expect(d.AutoSubmitted).To(BeTrue())
		Expect(reviewFlags(u, a.ID)).To(Equal([]bool{false, false, true}))
	})
})
