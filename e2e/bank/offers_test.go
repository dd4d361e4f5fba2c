package bank_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// The ports other modules declare and the bank answers (offers.go), driven
// on the running app the way search, plans, share and feedback call them.
var _ = Describe("The bank's offers", func() {
	var m *bank.Module
	learner := auth.Principal{UserID: 454545, Role: auth.RoleUser}
	moderator := auth.Principal{UserID: 464646, Role: auth.RoleModerator}

	BeforeEach(func() { m = app.Lookup[*bank.Module](h.App) })

	It("tells search which found questions a caller sees and edits: moderators all, learners what a published quiz opens", func() {
		hidden := create(mcq(unique("Offers hidden")))
		open := createOpen(mcq(unique("Offers open")))
		visible, editable, err := m.Reachable(ctxBG, moderator, search.KindQuestion, []int64{hidden, open})
		Expect(err).NotTo(HaveOccurred())
		Expect(visible).To(Equal(map[int64]bool{hidden: true, open: true}))
		Expect(editable).To(Equal(map[int64]bool{hidden: true, open: true}))

		visible, editable, err = m.Reachable(ctxBG, learner, search.KindQuestion, []int64{hidden, open})
		Expect(err).NotTo(HaveOccurred())
		Expect(visible).To(Equal(map[int64]bool{hidden: false, open: true}))
		Expect(editable).To(Equal(map[int64]bool{hidden: false, open: false}))
	})

	It("draws a blueprint domain by category branch and tags, from the caller's bank listing", func() {
		root := category(unique("Domain root"), nil, nil)
		leaf := category(unique("Domain leaf"), &root, nil)
		inLeaf := createOpen(mcq(unique("Domain leaf q"), q{"question_category_id": leaf}))
		inRoot := createOpen(mcq(unique("Domain root q"), q{"question_category_id": root}))
		unpublished := create(mcq(unique("Domain hidden q"), q{"question_category_id": leaf}))
		elsewhere := create(mcq(unique("Domain elsewhere q")))
		name := unique("Domain tag ")
		t := tag(inLeaf, "disease", name)
		Expect(tag(elsewhere, "disease", name)).To(Equal(t))

		got, err := m.DomainQuestions(ctxBG, moderator, &root, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]int64{unpublished, inRoot, inLeaf}), "the whole branch, newest first")
		holder := grantHolder("category", leaf)
		got, err = m.DomainQuestions(ctxBG, auth.Principal{UserID: holder.ID, Role: auth.RoleUser}, &root, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]int64{unpublished, inLeaf}), "a grant holder's listing: the granted leaf only")
		got, err = m.DomainQuestions(ctxBG, learner, &root, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(BeEmpty(), "a learner without grants lists nothing")
		got, err = m.DomainQuestions(ctxBG, moderator, nil, []int64{t})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]int64{elsewhere, inLeaf}))
		got, err = m.DomainQuestions(ctxBG, moderator, &leaf, []int64{t})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]int64{inLeaf}), "branch and tag together")
	})

	It("lets share hand out a published quiz, its answers only for study mode or from a moderator, and shows a visitor the redacted quiz", func() {
		a := create(mcq(unique("Share a")))
		timed := quiz(unique("Share timed"), []int64{a})
		_, err := m.ShareTarget(ctxBG, moderator, "quiz", timed, false)
		Expect(apperr.Is(err, apperr.Conflict)).To(BeTrue(), "unpublished: %v", err)
		_, err = m.ShareTarget(ctxBG, learner, "quiz", timed, false)
		Expect(apperr.Is(err, apperr.NotFound)).To(BeTrue(), "a learner does not see it: %v", err)
		_, err = m.SharedView(ctxBG, "quiz", timed, false)
		Expect(err).To(HaveField("Status", http.StatusGone), "not published")

		publish(timed)
		title, err := m.ShareTarget(ctxBG, learner, "quiz", timed, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(title).To(HavePrefix("Share timed"))
		_, err = m.ShareTarget(ctxBG, learner, "quiz", timed, true)
		Expect(apperr.Is(err, apperr.Forbidden)).To(BeTrue(), "a timed quiz's key: %v", err)
		_, err = m.ShareTarget(ctxBG, moderator, "quiz", timed, true)
		Expect(err).NotTo(HaveOccurred())
		study := quiz(unique("Share study"), []int64{a}, q{"mode": "learning"})
		publish(study)
		_, err = m.ShareTarget(ctxBG, learner, "quiz", study, true)
		Expect(err).NotTo(HaveOccurred())

		view, err := m.SharedView(ctxBG, "quiz", timed, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(view).To(HaveField("Questions", ConsistOf(And(HaveField("ID", a), HaveField("Options", HaveLen(4)),
			HaveField("CorrectAnswer", ""), HaveField("Explanation", "")))))
		view, err = m.SharedView(ctxBG, "quiz", timed, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(view).To(HaveField("Questions", ConsistOf(And(HaveField("CorrectAnswer", "Bravo"),
			HaveField("Explanation", "Bravo is right because of the rule.")))))
	})

	It("titles a report with the stem of a question the reporter reaches, and answers any other as missing", func() {
		text := unique("Reported stem")
		open := createOpen(mcq(text))
		hidden := create(mcq(unique("Reported hidden")))
		title, err := m.FeedbackTarget(ctxBG, learner, "question", open)
		Expect(err).NotTo(HaveOccurred())
		Expect(title).To(Equal(text))
		_, err = m.FeedbackTarget(ctxBG, learner, "question", hidden)
		Expect(apperr.Is(err, apperr.NotFound)).To(BeTrue(), "unreached: %v", err)
		title, err = m.FeedbackTarget(ctxBG, moderator, "question", hidden)
		Expect(err).NotTo(HaveOccurred())
		Expect(title).To(HavePrefix("Reported hidden"))
	})
})
