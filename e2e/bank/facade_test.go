package bank_test

import (
	"context"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// The facade is what attempts and drafts call; these specs drive it on the
// running app, the way those modules will.
var _ = Describe("The bank facade", func() {
	var f bank.Facade
	learner := auth.Principal{UserID: 424242, Role: auth.RoleUser}
	moderator := auth.Principal{UserID: 434343, Role: auth.RoleModerator}

	BeforeEach(func() { f = app.Lookup[*bank.Module](h.App) })

	It("hands out a quiz to sit with every live question and its answer side", func() {
		cat := category(unique("Facade cat"), nil, nil)
		a := create(mcq(unique("Sit a"), q{"question_category_id": cat}))
		b := create(q{"question_text": unique("Sit b"), "question_type": "fill_in", "correct_answer": "x|y"})
		gone := create(mcq(unique("Sit gone")))
		z := quiz(unique("Sit quiz"), []int64{a, gone, b}, q{"time_limit_minutes": 10})
		Expect(mod.Client(h).Delete(path("/questions/%d", gone))).To(HaveStatus(204))

		_, err := f.QuizForSitting(ctxBG, learner, z)
		Expect(errors.Is(err, bank.ErrNotFound)).To(BeTrue(), "unpublished quizzes are not sat by learners")
		s, err := f.QuizForSitting(ctxBG, moderator, z)
		Expect(err).NotTo(HaveOccurred())
		publish(z)
		s, err = f.QuizForSitting(ctxBG, learner, z)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Mode).To(Equal(bank.ModeTimed))
		Expect(*s.TimeLimitMinutes).To(Equal(10))
		Expect(s.IsPublished).To(BeTrue())
		Expect(s.Questions).To(HaveLen(2))
		Expect(s.Questions[0].ID).To(Equal(a))
		Expect(s.Questions[0].CorrectAnswer).To(Equal("Bravo"))
		Expect(s.Questions[0].Explanation).NotTo(BeEmpty())
		Expect(s.Questions[0].OptionExplanations).To(HaveLen(4))
		Expect(*s.Questions[0].CategoryID).To(Equal(cat))
		Expect(s.Questions[0].Version).To(Equal(1))
		Expect(s.Questions[1].Type).To(Equal(bank.TypeFillIn))
		Expect(s.Questions[1].CorrectAnswer).To(Equal("x|y"))

		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		_, err = f.QuizForSitting(ctxBG, moderator, z)
		Expect(errors.Is(err, bank.ErrNotFound)).To(BeTrue())
	})

	It("files questions inside the caller's transaction, all or nothing", func() {
		cat := category(unique("Drafted"), nil, nil)
		var ids []int64
		err := h.App.DB.Tx(ctxBG, func(ctx context.Context) error {
			var err error
			ids, err = f.CreateQuestions(ctx, mod.ID, []bank.NewQuestion{
				{Type: bank.TypeMCQ, Text: unique("Drafted one"), Options: []string{"a", "b"}, CorrectAnswer: "b", CategoryID: &cat},
				{Type: bank.TypeFillIn, Text: unique("Drafted two"), CorrectAnswer: "c"},
			})
			return err
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(ids).To(HaveLen(2))
		filings, err := f.QuestionFilings(ctxBG, append(ids, 987654321))
		Expect(err).NotTo(HaveOccurred())
		Expect(filings).To(HaveLen(2))
		Expect(*filings[ids[0]].CategoryID).To(Equal(cat))
		Expect(filings[ids[1]].CategoryID).To(BeNil())

		before := list(mod, "limit=1").Total
		err = h.App.DB.Tx(ctxBG, func(ctx context.Context) error {
			_, err := f.CreateQuestions(ctx, mod.ID, []bank.NewQuestion{
				{Type: bank.TypeMCQ, Text: "fine", Options: []string{"a", "b"}, CorrectAnswer: "a"},
				{Type: bank.TypeMCQ, Text: "bad", Options: []string{"a", "b"}, CorrectAnswer: "z"},
			})
			return err
		})
		ae, ok := apperr.As(err)
		Expect(ok).To(BeTrue())
		Expect(ae.Code).To(Equal(apperr.Invalid))
		Expect(ae.Fields[0].Field).To(Equal("questions[1].correct_answer"))
		var refusal *bank.RefusedQuestions
		Expect(errors.As(err, &refusal)).To(BeTrue(), "drafts finds which draft broke which rule")
		Expect(refusal.Refusals).To(Equal([]bank.QuestionRefusal{{Item: 1, Field: "correct_answer", Rule: ae.Fields[0].Message}}))
		Expect(list(mod, "limit=1").Total).To(Equal(before))
	})

	It("answers category existence, quiz counts, editing rights and grant coverage", func() {
		root := category(unique("Cover root"), nil, nil)
		leaf := category(unique("Cover leaf"), &root, nil)
		other := category(unique("Cover other"), nil, nil)
		inLeaf := create(mcq(unique("Covered"), q{"question_category_id": leaf}))
		unfiled := create(mcq(unique("Unfiled")))
		z := quiz(unique("Cover quiz"), []int64{unfiled})

		Expect(f.CheckCategory(ctxBG, "body.category_id", leaf)).To(Succeed())
		missing := f.CheckCategory(ctxBG, "body.category_id", 987654)
		ae, isAppErr := apperr.As(missing)
		Expect(isAppErr).To(BeTrue(), "a missing category is the caller's 422: %v", missing)
		Expect(ae.Code).To(Equal(apperr.Invalid))
		Expect(ae.Error()).To(ContainSubstring("987654"))

		all, _ := f.CountQuizzes(ctxBG, moderator)
		published, _ := f.CountQuizzes(ctxBG, learner)
		Expect(all).To(BeNumerically(">", published))

		covers := func(kind identity.GrantKind, target, question int64) bool {
			ok, err := f.GrantCovers(ctxBG, identity.Grant{Kind: kind, TargetID: target}, question)
			Expect(err).NotTo(HaveOccurred())
			return ok
		}
		Expect(covers(identity.GrantCategory, root, inLeaf)).To(BeTrue())
		Expect(covers(identity.GrantCategory, leaf, inLeaf)).To(BeTrue())
		Expect(covers(identity.GrantCategory, other, inLeaf)).To(BeFalse())
		Expect(covers(identity.GrantCategory, root, unfiled)).To(BeFalse())
		Expect(covers(identity.GrantQuiz, z, unfiled)).To(BeTrue())
		Expect(covers(identity.GrantQuiz, z, inLeaf)).To(BeFalse())
		Expect(covers(identity.GrantArticle, root, inLeaf)).To(BeFalse())
		_, err := f.GrantCovers(ctxBG, identity.Grant{Kind: identity.GrantCategory, TargetID: root}, 987654321)
		Expect(errors.Is(err, bank.ErrNotFound)).To(BeTrue())

		within, _ := f.CategoryWithin(ctxBG, leaf, root)
		Expect(within).To(BeTrue())
		within, _ = f.CategoryWithin(ctxBG, root, leaf)
		Expect(within).To(BeFalse())

		holder := grantHolder("category", root)
		canEdit, err := f.CanEditQuestion(ctxBG, auth.Principal{UserID: holder.ID, Role: auth.RoleUser}, inLeaf)
		Expect(err).NotTo(HaveOccurred())
		Expect(canEdit).To(BeTrue())
		canEdit, _ = f.CanEditQuestion(ctxBG, learner, inLeaf)
		Expect(canEdit).To(BeFalse())
		canEdit, _ = f.CanEditQuestion(ctxBG, moderator, unfiled)
		Expect(canEdit).To(BeTrue())
		_, err = f.CanEditQuestion(ctxBG, moderator, 987654321)
		Expect(errors.Is(err, bank.ErrNotFound)).To(BeTrue())
	})
})
