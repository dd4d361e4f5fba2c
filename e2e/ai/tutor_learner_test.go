package ai_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/platform/auth"
)

// claimDelivery bounds the wait for the bank's question events to reach
// the library's claims under a loaded run.
const claimDelivery = 45 * time.Second

// filed files an MCQ in a category; the first option is wrong, the second
// right.
func filed(stem string, cat int64, options ...string) int64 {
	res := mod.Client(h).Post("/api/v1/questions/create", q{"question_text": stem, "question_type": "mcq",
		"options": options, "correct_answer": options[1], "explanation": "SECRET-EXPLANATION-" + stem,
		"question_category_id": cat})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// publishedQuiz puts the questions in a published quiz of the mode.
func publishedQuiz(mode string, ids ...int64) int64 {
	res := mod.Client(h).Post("/api/v1/questions/from-bank", q{"title": "Tutor knows " + mode, "question_ids": ids, "mode": mode})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	quiz := int64(res.Map()["id"].(float64))
	ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", quiz), nil)).To(HaveStatus(200))
	return quiz
}

// startAttempt starts a fresh attempt of the quiz in the mode.
func startAttempt(u *User, quiz int64, mode string) int64 {
	res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d&fresh=true&mode=%s", quiz, mode), nil)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return int64(res.Map()["id"].(float64))
}

// sit starts an attempt and submits the answers (question id: answer).
func sit(u *User, quiz int64, mode string, answers map[int64]string) int64 {
	attempt := startAttempt(u, quiz, mode)
	given := q{}
	for id, a := range answers {
		given[fmt.Sprint(id)] = a
	}
	ExpectWithOffset(1, u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", attempt), q{"answers": given})).
		To(HaveStatus(200))
	return attempt
}

// record is the learner's part of what the tutor was shown (sentToModel).
func record(sent string) string {
	i := strings.Index(sent, "The learner's own record")
	ExpectWithOffset(1, i).To(BeNumerically(">=", 0), "the tutor was told nothing of the learner:\n%s", sent)
	return sent[i:]
}

// learnerSpecs run inside the tutor's ordered container, with its model:
// the tutor knows the learner (issue 38, point 5).
func learnerSpecs() {
	Describe("knowing the learner", func() {
		It("tells the tutor what the learner chose and that it was wrong, their weakest category and the articles claiming the question, never another learner's", func() {
			word := MadeUpWord()
			cardio, renal, derm := newCategory("Cardiology "+word), newCategory("Renal "+word), newCategory("Derm "+word)
			asked := filed("Which "+word+" lesion gives an opening snap?", cardio, "Gamma", "Beta", "Alpha", "Delta")
			sibling := filed("Which "+word+" sign follows the snap?", cardio, "Rumble", "Click")
			kidney := filed("Which "+word+" cast is red?", renal, "Waxy", "Red cell")
			skin := filed("Which "+word+" rash is silvery?", derm, "Eczema", "Psoriasis")
			res := mod.Client(h).Post("/api/v1/articles/", q{"title": "Valves " + word, "status": "published",
				"claimed_category_ids": []int64{cardio},
				"sections":             []q{{"heading": "The snap", "markdown": "READING-" + word + ": the snap follows S2."}}})
			Expect(res).To(HaveStatus(201))
			Expect(mod.Client(h).Post("/api/v1/articles/", q{"title": "Draft valves " + word, "status": "draft",
				"claimed_category_ids": []int64{cardio},
				"sections":             []q{{"heading": "Unpublished", "markdown": "DRAFT-" + word}}})).To(HaveStatus(201))
			Eventually(func() int {
				refs, err := app.Lookup[*library.Module](h.App).ReadMore(ctxb, []int64{asked})
				Expect(err).NotTo(HaveOccurred())
				return len(refs[asked])
			}).WithTimeout(claimDelivery).Should(Equal(1), "the article claims the question")

			u, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
			withdrawn := filed("Which "+word+" bruit is withdrawn?", cardio, "Carotid", "Renal")
			gone := publishedQuiz("learning", withdrawn)
			sit(u, gone, "learning", map[int64]string{withdrawn: "Carotid"})
			Expect(mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=false", gone), nil)).To(HaveStatus(200))
			sit(u, publishedQuiz("learning", asked, sibling, kidney), "learning",
				map[int64]string{asked: "Gamma", sibling: "Rumble", kidney: "Red cell"})
			sit(other, publishedQuiz("learning", asked, skin, kidney), "learning",
				map[int64]string{asked: "Delta", skin: "Eczema", kidney: "Red cell"})

			Expect(chat(u, ask(asked))).To(HaveStatus(200))
			mine := record(sentToModel())
			Expect(mine).To(MatchRegexp(`Their latest answers to this question, newest first:\n- \d{4}-\d\d-\d\d, study attempt: ` +
				`chose "Gamma" — wrong; about \d+ s a question in that sitting\n`))
			Expect(mine).To(ContainSubstring(`- "Which ` + word + ` sign follows the snap?": `))
			Expect(mine).To(ContainSubstring(`chose "Rumble" — wrong`))
			Expect(mine).To(ContainSubstring("Their weakest categories: Cardiology " + word + " (0 of 3 right, 0%); Renal " + word + " (1 of 1 right, 100%)"))
			Expect(mine).To(ContainSubstring("### Valves " + word + ": The snap\nREADING-" + word + ": the snap follows S2."))
			Expect(mine).NotTo(ContainSubstring("DRAFT-"+word), "a draft is nobody's reading")
			Expect(mine).NotTo(ContainSubstring("Delta"), "another learner's choice")
			Expect(mine).NotTo(ContainSubstring("Derm "+word), "another learner's category")
			Expect(mine).NotTo(ContainSubstring("silvery"), "a question only another learner sat")
			Expect(mine).NotTo(Or(ContainSubstring("withdrawn"), ContainSubstring("Carotid")), "a question they sat but no longer reach")

			Expect(u.Client(h).Post("/api/v1/teach/chat/stream", ask(asked))).To(HaveStatus(200))
			Expect(record(sentToModel())).To(Equal(mine), "the stream's tutor is told the same")

			Expect(chat(other, ask(asked))).To(HaveStatus(200))
			theirs := record(sentToModel())
			Expect(theirs).To(ContainSubstring(`chose "Delta" — wrong`))
			Expect(theirs).To(ContainSubstring("Their weakest categories: Cardiology " + word + " (0 of 1 right, 0%); Derm " + word))
			Expect(theirs).NotTo(ContainSubstring("Gamma"))
			Expect(theirs).NotTo(ContainSubstring("Rumble"))
		})

		It("tells the tutor neither right nor wrong nor the explanation while the learner sits the question in a timed attempt", func() {
			word := MadeUpWord()
			cat := newCategory("Timed " + word)
			asked := filed("Which "+word+" murmur is timed?", cat, "Gamma", "Beta")
			u := h.NewUser(auth.RoleUser)
			study := sit(u, publishedQuiz("learning", asked), "learning", map[int64]string{asked: "Gamma"})
			timedQuiz := publishedQuiz("timed", asked)
			timed := startAttempt(u, timedQuiz, "timed")
			Expect(u.Client(h).Post("/api/v1/attempts/progress", q{"quiz_id": timedQuiz, "attempt_id": timed,
				"answers": q{fmt.Sprint(asked): "Gamma"}})).To(HaveStatus(200))

			for _, via := range []q{{}, {"attempt_id": study}} {
				Expect(chat(u, ask(asked, via))).To(HaveStatus(200))
				sent := sentToModel()
				Expect(sent).NotTo(ContainSubstring("SECRET-EXPLANATION"), "%v", via)
				Expect(sent).NotTo(ContainSubstring("Correct answer"), "%v", via)
				mine := record(sent)
				Expect(mine).To(ContainSubstring(`- in a timed attempt not yet submitted: chose "Gamma" (right or wrong: not shown to them yet)`))
				Expect(mine).To(MatchRegexp(`- \d{4}-\d\d-\d\d, study attempt: chose "Gamma" \(right or wrong: not shown to them yet\)`))
				Expect(mine).To(ContainSubstring("do not say or hint whether any answer is right"))
				Expect(mine).NotTo(Or(ContainSubstring("— wrong"), ContainSubstring("— right")), "%v", via)
			}

			Expect(u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", timed), q{"answers": q{}})).To(HaveStatus(200))
			Expect(chat(u, ask(asked, q{"attempt_id": study}))).To(HaveStatus(200))
			sent := sentToModel()
			Expect(sent).To(ContainSubstring("SECRET-EXPLANATION-Which " + word))
			Expect(record(sent)).To(ContainSubstring(`timed attempt: chose "Gamma" — wrong`), "submitted: the answer side is open")
		})
	})
}
