package identity_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/devidp"
	"github.com/roundsedu/rounds/platform/module"
)

// owner is a learner with something in every module that keeps a
// person's data, each piece marked with their own words.
type owner struct {
	*User
	mark    string
	refresh string
	attempt int64
}

// seedOwner signs a learner in (with a refresh token) and gives them data
// through the API: a submitted attempt, saved progress of another, a
// folder, a collection, a note, a favourite and settings.
func seedOwner(quiz int64, qs []int64) *owner {
	claims := person("owner")
	t := h.SignIn(idp, claims, true, "laptop")
	u := &owner{User: &User{ID: me(h, t.AccessToken).Id, Email: claims.Email, Token: t.AccessToken},
		mark: "mark-" + claims.Email, refresh: t.RefreshToken}
	c := u.Client(h)
	Expect(c.Put("/api/v1/auth/me/settings", map[string]any{"theme": u.mark})).To(HaveStatus(200))

	res := c.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)
	Expect(res).To(HaveStatus(200))
	u.attempt = res.ID()
	Expect(c.Post(fmt.Sprintf("/api/v1/attempts/%d/submit", u.attempt), map[string]any{
		"answers": map[string]string{fmt.Sprint(qs[0]): "Nitrate", fmt.Sprint(qs[1]): "I"}})).To(HaveStatus(200))
	res = c.Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz), nil)
	Expect(res).To(HaveStatus(200))
	Expect(c.Post("/api/v1/attempts/progress", map[string]any{"quiz_id": quiz, "attempt_id": res.ID(),
		"answers": map[string]string{fmt.Sprint(qs[0]): "Warfarin"}})).To(HaveStatus(200))

	folder := c.Post("/api/v1/folders", map[string]any{"name": "F " + u.mark}).ID()
	coll := c.Post("/api/v1/collections", map[string]any{"name": "C " + u.mark, "folder_id": folder}).ID()
	Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, qs[1]), nil)).To(HaveStatus(204))
	Expect(c.Put(fmt.Sprintf("/api/v1/notes/%d", qs[0]), map[string]any{"body": "note " + u.mark})).To(HaveStatus(200))
	Expect(c.Post("/api/v1/favorites", map[string]any{"question_id": qs[1]})).To(HaveStatus(201))
	Expect(c.Post("/api/v1/feedback", map[string]any{"kind": "question", "target_id": qs[0], "type": "typo",
		"text": "report " + u.mark})).To(HaveStatus(201))
	seedRows(u)
	return u
}

// seedRows stores what the learner would have through flows this suite
// does not drive (a flashcard review, a plan enrolment, a share link, a
// model call), straight in each module's tables.
func seedRows(u *owner) {
	conn := h.App.DB.Conn(ctxBG)
	var deck, card, plan int64
	Expect(conn.Raw(`INSERT INTO flashcards.decks (title, user_id) VALUES (?, ?) RETURNING id`,
		"Deck "+u.mark, u.ID).Scan(&deck).Error).To(Succeed())
	Expect(conn.Raw(`INSERT INTO flashcards.cards (deck_id, card_type, front, created_by) VALUES (?, 'basic', 'f', ?)
		RETURNING id`, deck, u.ID).Scan(&card).Error).To(Succeed())
	Expect(conn.Raw(`INSERT INTO plans.plans (title, kind, created_by) VALUES ('Plan', 'set', 0) RETURNING id`).
		Scan(&plan).Error).To(Succeed())
	for _, stmt := range []string{
		`INSERT INTO flashcards.card_states (user_id, card_id, deck_id, due, stability, difficulty, elapsed_days,
			scheduled_days, reps, lapses, state, last_review) VALUES (@u, @card, @deck, now(), 1, 5, 0, 1, 1, 0, 1, now())`,
		`INSERT INTO flashcards.review_logs (user_id, card_id, deck_id, rating, state, elapsed_days, scheduled_days,
			reviewed_at) VALUES (@u, @card, @deck, 3, 0, 0, 1, now())`,
		`INSERT INTO flashcards.learner_settings (user_id, desired_retention) VALUES (@u, 0.85)`,
		`INSERT INTO flashcards.deck_exams (user_id, deck_id, exam_date) VALUES (@u, @deck, '2030-01-02')`,
		`INSERT INTO plans.enrolments (plan_id, user_id) VALUES (@plan, @u)`,
		`INSERT INTO share.links (token_hash, kind, target_id, title, created_by, expires_at)
			VALUES (@mark, 'quiz', 1, 'Link', @u, now() + interval '1 day')`,
		`INSERT INTO ai.usage (user_id, task, model_id, prompt_tokens) VALUES (@u, 'teach', 'm', 12)`,
	} {
		Expect(conn.Exec(stmt, map[string]any{"u": u.ID, "card": card, "deck": deck, "plan": plan,
			"mark": u.mark}).Error).To(Succeed())
	}
}

// bankQuiz is a published two-question quiz made by a moderator.
func bankQuiz() (int64, []int64) {
	mod := h.NewUser(auth.RoleModerator).Client(h)
	var qs []int64
	for _, q := range []map[string]any{
		{"question_text": "First-line drug for stable angina?", "question_type": "mcq",
			"options": []string{"Nitrate", "Warfarin"}, "correct_answer": "Nitrate"},
		{"question_text": "Which lead looks at the inferior wall?", "question_type": "mcq",
			"options": []string{"I", "II"}, "correct_answer": "II"},
	} {
		res := mod.Post("/api/v1/questions/create", q)
		Expect(res).To(HaveStatus(201))
		qs = append(qs, res.ID())
	}
	res := mod.Post("/api/v1/questions/from-bank", map[string]any{"title": "Cardiology", "question_ids": qs})
	Expect(res).To(HaveStatus(201))
	quiz := res.ID()
	Expect(mod.Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz), nil)).To(HaveStatus(200))
	return quiz, qs
}

// unzipped reads an export: each file's bytes by name.
func unzipped(body []byte) map[string][]byte {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		data, err := io.ReadAll(rc)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		_ = rc.Close()
		out[f.Name] = data
	}
	return out
}

func decode[T any](data []byte) T {
	var v T
	ExpectWithOffset(1, json.Unmarshal(data, &v)).To(Succeed())
	return v
}

type rows = []map[string]any

// ownedRows counts the rows a person owns in each module's tables.
func ownedRows(userID int64) map[string]int64 {
	out := map[string]int64{}
	for table, col := range map[string]string{
		"identity.users": "id", "identity.sessions": "user_id",
		"attempts.attempts": "user_id", "attempts.saved_progress": "user_id", "attempts.review_schedule": "user_id",
		"attempts.folders": "user_id", "attempts.collections": "user_id", "attempts.notes": "user_id",
		"bank.favorites": "user_id", "bank.saved_tests": "user_id",
		"flashcards.card_states": "user_id", "flashcards.review_logs": "user_id",
		"flashcards.learner_settings": "user_id", "flashcards.deck_exams": "user_id",
		"plans.enrolments": "user_id", "plans.block_progress": "user_id", "plans.exam_results": "user_id",
		"feedback.reports": "reporter_id", "library.recent": "user_id", "share.links": "created_by",
		"ai.usage": "user_id",
	} {
		var n int64
		ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(
			fmt.Sprintf(`SELECT count(*) FROM %s WHERE %s = ?`, table, col), userID).Scan(&n).Error).To(Succeed())
		out[table] = n
	}
	return out
}

func allZero(m map[string]int64) bool {
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

var _ = Describe("A learner's own data", func() {
	var (
		quiz int64
		qs   []int64
	)
	BeforeEach(func() { quiz, qs = bankQuiz() })

	It("downloads as a zip of each module's files, holding theirs and nobody else's", func() {
		mine, theirs := seedOwner(quiz, qs), seedOwner(quiz, qs)
		res := mine.Client(h).Get("/api/v1/auth/me/export")
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Content-Type")).To(Equal("application/zip"))
		Expect(res.Header.Get("Content-Disposition")).To(ContainSubstring(fmt.Sprintf("rounds-export-%d.zip", mine.ID)))
		files := unzipped(res.Body)
		for name, data := range files {
			Expect(string(data)).NotTo(ContainSubstring(theirs.mark), name)
			Expect(string(data)).NotTo(ContainSubstring(theirs.Email), name)
		}

		account := decode[map[string]any](files["identity/account.json"])
		Expect(account["email"]).To(Equal(mine.Email))
		Expect(account["settings"]).To(HaveKeyWithValue("theme", mine.mark))
		sessions := decode[rows](files["identity/sessions.json"])
		Expect(sessions).To(ContainElement(HaveKeyWithValue("device", "laptop")))
		Expect(string(files["identity/sessions.json"])).NotTo(ContainSubstring(mine.refresh))

		attempts := decode[rows](files["attempts/attempts.json"])
		Expect(attempts).To(HaveLen(2))
		Expect(attempts[0]["id"]).To(BeEquivalentTo(mine.attempt))
		Expect(attempts[0]["score"]).To(BeEquivalentTo(1))
		answers := attempts[0]["answers"].([]any)
		Expect(answers).To(HaveLen(2))
		Expect(answers[0]).To(And(HaveKeyWithValue("question_text", "First-line drug for stable angina?"),
			HaveKeyWithValue("user_answer", "Nitrate"), HaveKeyWithValue("is_correct", true)))
		Expect(answers[1]).To(And(HaveKeyWithValue("user_answer", "I"), HaveKeyWithValue("is_correct", false)))
		progress := decode[rows](files["attempts/saved_progress.json"])
		Expect(progress).To(HaveLen(1))
		Expect(progress[0]["answers"]).To(HaveKeyWithValue(fmt.Sprint(qs[0]), "Warfarin"))
		Expect(decode[rows](files["attempts/reminders.json"])).To(ContainElement(HaveKeyWithValue("question_id", BeEquivalentTo(qs[1]))))
		Expect(decode[rows](files["attempts/folders.json"])).To(ConsistOf(HaveKeyWithValue("name", "F "+mine.mark)))
		colls := decode[rows](files["attempts/collections.json"])
		Expect(colls).To(ConsistOf(HaveKeyWithValue("name", "C "+mine.mark)))
		Expect(colls[0]["question_ids"]).To(ConsistOf(BeEquivalentTo(qs[1])))
		Expect(decode[rows](files["attempts/notes.json"])).To(ConsistOf(And(
			HaveKeyWithValue("question_id", BeEquivalentTo(qs[0])), HaveKeyWithValue("body", "note "+mine.mark))))

		Expect(decode[rows](files["bank/favorites.json"])).To(ConsistOf(HaveKeyWithValue("question_id", BeEquivalentTo(qs[1]))))
		Expect(decode[rows](files["bank/saved_tests.json"])).To(BeEmpty())

		Expect(decode[rows](files["flashcards/card_states.json"])).To(ConsistOf(HaveKeyWithValue("reps", BeEquivalentTo(1))))
		Expect(decode[rows](files["flashcards/reviews.json"])).To(ConsistOf(And(HaveKeyWithValue("rating", BeEquivalentTo(3)),
			HaveKeyWithValue("state", BeEquivalentTo(0)), HaveKeyWithValue("scheduled_days", BeEquivalentTo(1)))))
		Expect(decode[rows](files["flashcards/settings.json"])).To(ConsistOf(HaveKeyWithValue("desired_retention", 0.85)))
		Expect(decode[rows](files["flashcards/deck_exams.json"])).To(HaveLen(1))
		Expect(decode[rows](files["flashcards/decks.json"])).To(ConsistOf(HaveKeyWithValue("title", "Deck "+mine.mark)))
		Expect(decode[rows](files["plans/enrolments.json"])).To(ConsistOf(HaveKeyWithValue("title", "Plan")))
		Expect(decode[rows](files["feedback/reports.json"])).To(ConsistOf(And(HaveKeyWithValue("text", "report "+mine.mark),
			HaveKeyWithValue("status", "open"))))
		Expect(decode[rows](files["library/recent.json"])).To(BeEmpty())
		links := decode[rows](files["share/links.json"])
		Expect(links).To(ConsistOf(HaveKeyWithValue("title", "Link")))
		Expect(links[0]).NotTo(HaveKey("token_hash"))
		Expect(decode[rows](files["ai/usage.json"])).To(ConsistOf(HaveKeyWithValue("prompt_tokens", BeEquivalentTo(12))))
	})

	It("is refused to anyone signed out, and limited to five an hour", func() {
		Expect(h.Anon().Get("/api/v1/auth/me/export")).To(HaveError(401, "unauthenticated"))
		u := h.NewUser(auth.RoleUser)
		for range 5 {
			Expect(u.Client(h).Get("/api/v1/auth/me/export")).To(HaveStatus(200))
		}
		Expect(u.Client(h).Get("/api/v1/auth/me/export")).To(HaveError(429, "rate_limited"))
	})

	It("is deleted on request: confirmation needed, sessions end, every module forgets, others keep theirs", func() {
		gone, kept := seedOwner(quiz, qs), seedOwner(quiz, qs)
		keptBefore := ownedRows(kept.ID)
		Expect(allZero(ownedRows(gone.ID))).To(BeFalse())
		c := gone.Client(h)

		Expect(c.Do("DELETE", "/api/v1/auth/me", map[string]any{})).To(HaveError(422, "invalid_request"))
		Expect(c.Do("DELETE", "/api/v1/auth/me", map[string]any{"confirm": "yes"})).To(HaveError(422, "invalid_request"))
		Expect(c.Get("/api/v1/auth/me")).To(HaveStatus(200))

		Expect(c.Do("DELETE", "/api/v1/auth/me", map[string]any{"confirm": "Delete my account"})).To(HaveStatus(204))
		Expect(c.Get("/api/v1/auth/me")).To(HaveError(401, "unauthenticated"))
		Expect(c.Get("/api/v1/auth/me/export")).To(HaveError(401, "unauthenticated"))
		Expect(refresh(h, gone.refresh)).To(HaveError(401, "unauthenticated"))
		Eventually(func() bool { return deleted.has(gone.ID) }).WithTimeout(15 * time.Second).Should(BeTrue())
		Eventually(func() map[string]int64 { return ownedRows(gone.ID) }).WithTimeout(15 * time.Second).
			Should(Satisfy(allZero))
		Expect(ownedRows(kept.ID)).To(Equal(keptBefore))
	})

	It("forgets idempotently: every module's handler run twice removes the same and nothing more", func() {
		gone, kept := seedOwner(quiz, qs), seedOwner(quiz, qs)
		keptBefore := ownedRows(kept.ID)
		var offered []string
		for _, m := range h.App.Modules {
			if p, ok := m.(module.PersonalData); ok {
				offered = append(offered, p.Name())
				for range 2 {
					Expect(p.ForgetPersonalData(ctxBG, gone.ID)).To(Succeed(), p.Name())
				}
			}
		}
		Expect(offered).To(ContainElements("attempts", "bank", "flashcards", "plans", "feedback", "library",
			"share", "ai"))
		after := ownedRows(gone.ID)
		delete(after, "identity.users")
		delete(after, "identity.sessions")
		Expect(allZero(after)).To(BeTrue(), fmt.Sprint(after))
		Expect(ownedRows(kept.ID)).To(Equal(keptBefore))
	})

	It("is not deletable by the last administrator", func() {
		// A fresh app, with its own provider (a provider serves one app's
		// callback), whose bootstrap administrator is its only one.
		p, err := harness.StartIdP()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Stop)
		x, err := harness.Start(harness.WithSSO(p), harness.WithConfig(func(c *config.Config) {
			c.Set("identity.bootstrap_admin_email", "only-admin@solo.test")
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(x.Stop)
		admin := x.SignIn(p, devidp.Claims{Email: "only-admin@solo.test", EmailVerified: verified(true), Name: "Solo"},
			false, "")
		Expect(me(x, admin.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))
		Expect(admin.Client(x).Do("DELETE", "/api/v1/auth/me", map[string]any{"confirm": "delete my account"})).
			To(HaveError(409, "conflict"))
		Expect(me(x, admin.AccessToken).Role).To(Equal(contract.UserResponseRoleAdmin))
	})
})
