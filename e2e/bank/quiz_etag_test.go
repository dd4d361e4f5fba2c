package bank_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// GET /quizzes/{id} answers an ETag naming its bytes: a client that sends
// it back in If-None-Match gets 304 and no body while the bytes it holds
// are still what the read answers, and the full answer once anything it
// shows changed (issue 37, point 5).
var _ = Describe("Re-reading a quiz with its ETag", func() {
	It("answers 304 without a body only while the copy held is current, per answer side and caller", func() {
		a, b := create(mcq(unique("Tagged one"))), create(mcq(unique("Tagged two")))
		z := quiz(unique("Tagged quiz"), []int64{a, b})
		publish(z)
		learner, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		read := func(u *User, query string, ifNoneMatch string) *Response {
			c := u.Client(h)
			if ifNoneMatch != "" {
				c = c.With("If-None-Match", ifNoneMatch)
			}
			return c.Get(path("/quizzes/%d%s", z, query))
		}
		// full reads the whole answer and its tag, checking it is one.
		full := func(u *User, query, ifNoneMatch string) (quizDetail, string) {
			res := read(u, query, ifNoneMatch)
			ExpectWithOffset(1, res).To(HaveStatus(200))
			ExpectWithOffset(1, res.Header.Get("Cache-Control")).To(Equal("private, no-cache"))
			tag := res.Header.Get("ETag")
			ExpectWithOffset(1, tag).To(MatchRegexp(`^"[0-9a-f]+"$`))
			var d quizDetail
			res.JSON(&d)
			return d, tag
		}
		notModified := func(u *User, query, ifNoneMatch, tag string) {
			res := read(u, query, ifNoneMatch)
			ExpectWithOffset(1, res).To(HaveStatus(304))
			ExpectWithOffset(1, res.Body).To(BeEmpty())
			ExpectWithOffset(1, res.Header.Get("ETag")).To(Equal(tag))
		}

		timed, tag := full(learner, "", "")
		Expect(timed.AnswersShown).To(BeFalse())
		Expect(questionIDs(timed)).To(Equal([]int64{a, b}))
		notModified(learner, "", tag, tag)
		notModified(learner, "", "W/"+tag, tag)
		notModified(learner, "", `"0", `+tag, tag)
		notModified(learner, "", "*", tag)
		// The tag names the bytes, not the caller: another learner reading
		// the same bytes holds the same copy.
		_, same := full(other, "", "")
		Expect(same).To(Equal(tag))
		notModified(other, "", tag, tag)

		// The answer side is other bytes: the redacted copy's tag never
		// stands for it.
		study, studyTag := full(learner, "?study=true", tag)
		Expect(study.AnswersShown).To(BeTrue())
		Expect(study.Questions[0]["correct_answer"]).NotTo(BeNil())
		Expect(studyTag).NotTo(Equal(tag))
		notModified(learner, "?study=true", studyTag, studyTag)
		again, _ := full(learner, "", studyTag)
		Expect(again.AnswersShown).To(BeFalse())
		Expect(again.Questions[0]["correct_answer"]).To(BeNil())

		// A question edited: the held copy is stale, the whole new one comes.
		Expect(mod.Client(h).Patch(path("/questions/%d", a), q{"question_text": "Tagged, edited"})).To(HaveStatus(200))
		edited, editedTag := full(learner, "", tag)
		Expect(edited.Questions[0]["question_text"]).To(Equal("Tagged, edited"))
		Expect(editedTag).NotTo(Equal(tag))
		notModified(learner, "", editedTag, editedTag)
		// The quiz's own fields (not its questions) renamed: stale too.
		Expect(mod.Client(h).Patch(path("/quizzes/%d", z), q{"title": "Tagged, renamed"})).To(HaveStatus(200))
		renamed, renamedTag := full(learner, "", editedTag)
		Expect(renamed.Title).To(Equal("Tagged, renamed"))
		Expect(renamedTag).NotTo(Equal(editedTag))

		// A quiz the caller may no longer open is not found, whatever copy
		// they hold: no 304 tells them it is still there.
		Expect(mod.Client(h).Patch(fmt.Sprintf("%s/quizzes/%d/publish?published=false", api, z), nil)).To(HaveStatus(200))
		Expect(read(learner, "", renamedTag)).To(HaveError(404, "not_found"))
		Expect(read(learner, "", "*")).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).With("If-None-Match", renamedTag).Get(path("/quizzes/%d", z+1_000_000))).
			To(HaveError(404, "not_found"))
	})
})
