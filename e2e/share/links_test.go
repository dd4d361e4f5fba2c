package share_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// quiz files two questions and makes a quiz of them in the given mode,
// published or not; it returns the quiz id.
func quiz(title, mode string, published bool) int64 {
	var ids []int64
	for i, text := range []string{"Which nerve supplies the deltoid?", "Which artery runs with it?"} {
		res := mod.Client(h).Post("/api/v1/questions/create", map[string]any{"question_text": fmt.Sprintf("%s %s", title, text),
			"question_type": "mcq", "options": []string{"Axillary", "Radial"}, "correct_answer": []string{"Axillary", "Radial"}[i],
			"explanation": "Hidden reasoning " + title})
		ExpectWithOffset(1, res).To(HaveStatus(201))
		ids = append(ids, int64(res.Map()["id"].(float64)))
	}
	res := mod.Client(h).Post("/api/v1/questions/from-bank", map[string]any{"title": title, "question_ids": ids, "mode": mode})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	id := int64(res.Map()["id"].(float64))
	if published {
		ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", id), nil)).To(HaveStatus(200))
	}
	return id
}

func share(u *User, body map[string]any) *Response {
	return u.Client(h).Post("/api/v1/share/links", body)
}

func open(token string) *Response { return h.Anon().Get("/api/v1/share/open/" + token) }

type link struct {
	TokenHash   []byte
	ExpiresAt   string
	RevokedAt   *string
	RevokedBy   *int64
	Views       int64
	CreatedBy   int64
	WithAnswers bool
}

func stored(id float64) link {
	var l link
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT token_hash, expires_at::text, revoked_at::text, revoked_by, views, created_by, with_answers
		FROM share.links WHERE id = ?`, int64(id)).Scan(&l).Error).To(Succeed())
	return l
}

var _ = Describe("Share links", func() {
	It("open a published quiz to anyone holding the token, answers hidden, and count the views", func() {
		z := quiz("Shoulder", "timed", true)
		ada := h.NewUser(auth.RoleUser)
		res := share(ada, map[string]any{"kind": "quiz", "target_id": z})
		Expect(res).To(HaveStatus(201))
		made := res.Map()
		token := made["token"].(string)
		Expect(token).To(HaveLen(26), "128 random bits")
		Expect(made).To(And(HaveKeyWithValue("title", "Shoulder"), HaveKeyWithValue("status", "active"),
			HaveKeyWithValue("with_answers", false)))
		l := stored(made["id"].(float64))
		Expect(l.CreatedBy).To(Equal(ada.ID))
		Expect(l.TokenHash).NotTo(ContainSubstring(token), "only the token's hash is stored")

		seen := open(token)
		Expect(seen).To(HaveStatus(200))
		Expect(seen.Header.Get("Cache-Control")).To(Equal("private, no-store"))
		content := seen.Map()["content"].(map[string]any)
		Expect(content).To(HaveKeyWithValue("title", "Shoulder"))
		qs := content["questions"].([]any)
		Expect(qs).To(HaveLen(2))
		for _, q := range qs {
			Expect(q).To(HaveKeyWithValue("options", ConsistOf("Axillary", "Radial")))
			Expect(q).NotTo(HaveKey("correct_answer"))
			Expect(q).NotTo(HaveKey("explanation"))
		}
		Expect(seen.Body).NotTo(ContainSubstring("Hidden reasoning"))
		Expect(stored(made["id"].(float64)).Views).To(Equal(int64(1)))

		mine := ada.Client(h).Get("/api/v1/share/links")
		Expect(mine).To(HaveStatus(200))
		Expect(mine.List()).To(ConsistOf(And(HaveKeyWithValue("views", float64(1)), Not(HaveKey("token")))))
	})

	It("shows answers only when the sharer chose them and may hand them out", func() {
		learning, timed := quiz("Study wrist", "learning", true), quiz("Timed wrist", "timed", true)
		bo := h.NewUser(auth.RoleUser)
		Expect(share(bo, map[string]any{"kind": "quiz", "target_id": timed, "with_answers": true})).
			To(HaveError(403, "forbidden"))
		res := share(bo, map[string]any{"kind": "quiz", "target_id": learning, "with_answers": true})
		Expect(res).To(HaveStatus(201))
		seen := open(res.Map()["token"].(string))
		Expect(seen).To(HaveStatus(200))
		Expect(seen.Map()["content"].(map[string]any)["questions"]).To(ContainElement(And(
			HaveKeyWithValue("correct_answer", "Axillary"), HaveKeyWithValue("explanation", "Hidden reasoning Study wrist"))))

		res = share(mod, map[string]any{"kind": "quiz", "target_id": timed, "with_answers": true})
		Expect(res).To(HaveStatus(201), "a moderator may share a timed quiz's answers")
		Expect(open(res.Map()["token"].(string)).Body).To(ContainSubstring("Hidden reasoning Timed wrist"))
	})

	It("refuses what cannot be shared and stores nothing", func() {
		u := h.NewUser(auth.RoleUser)
		hidden := quiz("Unpublished", "timed", false)
		Expect(share(u, map[string]any{"kind": "quiz", "target_id": hidden})).To(HaveError(404, "not_found"),
			"a learner cannot see an unpublished quiz")
		Expect(share(mod, map[string]any{"kind": "quiz", "target_id": hidden})).To(HaveError(409, "conflict"))
		res := share(u, map[string]any{"kind": "poem", "target_id": 1})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("quiz"))
		z := quiz("Days", "timed", true)
		Expect(share(u, map[string]any{"kind": "quiz", "target_id": z, "expires_in_days": 91})).
			To(HaveError(422, "invalid_request"))
		Expect(h.Anon().Post("/api/v1/share/links", map[string]any{"kind": "quiz", "target_id": z})).
			To(HaveError(401, "unauthenticated"))
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM share.links WHERE created_by = ?`, u.ID).Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
		Expect(open("NOSUCHTOKENAAAAAAAAAAAAAAA")).To(HaveError(404, "not_found"))
	})

	It("stops opening once revoked, by its maker or a moderator, and not by anyone else", func() {
		z := quiz("Revoked", "timed", true)
		ada, eve := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		mk := func() (float64, string) {
			res := share(ada, map[string]any{"kind": "quiz", "target_id": z})
			Expect(res).To(HaveStatus(201))
			return res.Map()["id"].(float64), res.Map()["token"].(string)
		}
		id, token := mk()
		Expect(eve.Client(h).Delete(fmt.Sprintf("/api/v1/share/links/%d", int64(id)))).To(HaveError(404, "not_found"))
		Expect(stored(id).RevokedAt).To(BeNil())
		Expect(ada.Client(h).Delete(fmt.Sprintf("/api/v1/share/links/%d", int64(id)))).To(HaveStatus(204))
		Expect(*stored(id).RevokedBy).To(Equal(ada.ID))
		Expect(open(token)).To(And(HaveStatus(410), WithTransform(func(r *Response) string { return string(r.Body) }, ContainSubstring("revoked"))))
		Expect(ada.Client(h).Delete(fmt.Sprintf("/api/v1/share/links/%d", int64(id)))).To(HaveStatus(204), "revoking twice is fine")

		id, token = mk()
		Expect(mod.Client(h).Delete(fmt.Sprintf("/api/v1/share/links/%d", int64(id)))).To(HaveStatus(204))
		Expect(open(token)).To(And(HaveStatus(410), WithTransform(func(r *Response) string { return string(r.Body) }, ContainSubstring("revoked"))))
		Expect(ada.Client(h).Get("/api/v1/share/links").List()).To(HaveEach(HaveKeyWithValue("status", "revoked")))
	})

	It("stops opening once expired, or once the quiz is unpublished", func() {
		z := quiz("Expiring", "timed", true)
		u := h.NewUser(auth.RoleUser)
		res := share(u, map[string]any{"kind": "quiz", "target_id": z, "expires_in_days": 1})
		Expect(res).To(HaveStatus(201))
		id, token := res.Map()["id"].(float64), res.Map()["token"].(string)
		Expect(open(token)).To(HaveStatus(200))
		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE share.links SET expires_at = now() - interval '1 second' WHERE id = ?`,
			int64(id)).Error).To(Succeed())
		gone := open(token)
		Expect(gone).To(HaveStatus(410))
		Expect(gone.Body).To(ContainSubstring("expired"))
		Expect(u.Client(h).Get("/api/v1/share/links").List()).To(ConsistOf(HaveKeyWithValue("status", "expired")))

		res = share(u, map[string]any{"kind": "quiz", "target_id": z})
		token = res.Map()["token"].(string)
		Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=false", z), nil)).To(HaveStatus(200))
		gone = open(token)
		Expect(gone).To(HaveStatus(410))
		Expect(gone.Body).To(ContainSubstring("no longer published"))
	})

	It("limits how many links a learner makes in an hour, and not a moderator", func() {
		z := quiz("Limits", "timed", true)
		u := h.NewUser(auth.RoleUser)
		for range 4 {
			Expect(share(u, map[string]any{"kind": "quiz", "target_id": z})).To(HaveStatus(201))
		}
		res := share(u, map[string]any{"kind": "quiz", "target_id": z})
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		for range 5 {
			Expect(share(mod, map[string]any{"kind": "quiz", "target_id": z})).To(HaveStatus(201))
		}
	})
})
