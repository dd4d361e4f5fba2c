package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/modules/feedback"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/modules/share"
	"github.com/roundsedu/rounds/modules/site"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/module"
)

// Everything the bank offers other modules, by the module that asks: each
// port it answers, in one or two lines handing over to the service
// (internal/app), where every rule lives. The DTOs are in facade.go, their
// converters in convert.go. A port declared in another module's public
// package is checked here at compile time; one declared in its internal/
// (plans', ai's, media's, library's) is named in the group's comment.

// Facade (facade.go): attempts, plans, interchange, drafts, analytics, library, flashcards, ai.
var _ Facade = (*Module)(nil)

// QuizForSitting implements Facade.
func (m *Module) QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*QuizSnapshot, error) {
	d, err := m.svc.QuizForSitting(ctx, p, quizID)
	return converted(d, facadeErr(err), toQuizSnapshot)
}

// QuestionFilings implements Facade.
func (m *Module) QuestionFilings(ctx context.Context, ids []int64) (map[int64]Filing, error) {
	return m.svc.QuestionFilings(ctx, ids)
}

// CreateQuestions implements Facade.
func (m *Module) CreateQuestions(ctx context.Context, by int64, qs []NewQuestion) ([]int64, error) {
	return m.svc.CreateQuestions(ctx, by, toNewQuestions(qs))
}

// CheckCategory implements Facade.
func (m *Module) CheckCategory(ctx context.Context, field string, id int64) error {
	return m.svc.CheckCategory(ctx, field, id)
}

// CountQuizzes implements Facade.
func (m *Module) CountQuizzes(ctx context.Context, p auth.Principal) (int, error) {
	return m.svc.CountQuizzes(ctx, p)
}

// RequireQuestions implements Facade.
func (m *Module) RequireQuestions(ctx context.Context, p auth.Principal, ids ...int64) error {
	return m.svc.RequireReach(ctx, p, ids...)
}

// CanEditQuestion implements Facade.
func (m *Module) CanEditQuestion(ctx context.Context, p auth.Principal, questionID int64) (bool, error) {
	ok, err := m.svc.CanEditQuestion(ctx, p, questionID)
	return ok, facadeErr(err)
}

// GrantCovers implements Facade.
func (m *Module) GrantCovers(ctx context.Context, g identity.Grant, questionID int64) (bool, error) {
	ok, err := m.svc.GrantCovers(ctx, g, questionID)
	return ok, facadeErr(err)
}

// CategoryWithin implements Facade.
func (m *Module) CategoryWithin(ctx context.Context, id, root int64) (bool, error) {
	return m.svc.CategoryWithin(ctx, id, root)
}

// plans (plans/internal/app.Bank, .SavedTests): blueprint domains and saved tests for blocks and exams.

// DomainQuestions lists the ids of the live questions p reaches under the
// category branch of categoryID (when set) carrying every tag in tagIDs,
// newest first (app.Service.DomainQuestions).
func (m *Module) DomainQuestions(ctx context.Context, p auth.Principal, categoryID *int64, tagIDs []int64) ([]int64, error) {
	return m.svc.DomainQuestions(ctx, p, categoryID, tagIDs)
}

// BuildSavedTest files a learner's saved test, an unpublished quiz owned by
// p of those questionIDs p reaches, in order, in mode (ModeTimed or
// ModeLearning) with timeLimitMinutes (0: none); only p (and moderators)
// sit it. A 409 *apperr.Error when none is open to p (app.Service.BuildSavedTest).
func (m *Module) BuildSavedTest(ctx context.Context, p auth.Principal, title, mode string, timeLimitMinutes int,
	questionIDs []int64) (int64, error) {
	z, err := m.svc.BuildSavedTest(ctx, p, app.SavedTest{Title: title, Mode: mode, TimeLimitMinutes: timeLimitMinutes, QuestionIDs: questionIDs})
	return converted(z, err, quizID)
}

// ai (ai/internal/app.Bank, .Questions; library/internal/app.Questions reads RatedQuestions too): the tutor and difficulty rating.

// TutorQuestion reads a question for the tutor with the caller's
// redaction, attemptID as for the detail route; a question the caller does
// not reach (nor sat in that attempt, answers open) is the 404 of a
// missing one (app.Service.ReachedDetail).
func (m *Module) TutorQuestion(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*TutorQuestion, error) {
	q, err := m.svc.ReachedDetail(ctx, p, id, attemptID)
	return converted(q, err, toTutorQuestion)
}

// QuestionStems gives the text of the questions among ids that p reaches;
// the others are left out, as missing ones are.
func (m *Module) QuestionStems(ctx context.Context, p auth.Principal, ids []int64) (map[int64]string, error) {
	return m.svc.ReachedStems(ctx, p, ids)
}

// RatedQuestions reads up to limit live questions, by id: those among ids,
// or when categoryID is set those filed in its branch (422 for a category
// that does not exist). The service's own work (generation jobs) reads
// them: callers check who asked.
func (m *Module) RatedQuestions(ctx context.Context, ids []int64, categoryID *int64, limit int) ([]RatedQuestion, error) {
	rows, err := m.svc.RatedQuestions(ctx, ids, categoryID, limit)
	return converted(rows, err, toRatedQuestions)
}

// SetDifficulty rates questions (id → one of Difficulties) in one
// transaction, skipping those binned meanwhile, and counts those rated.
func (m *Module) SetDifficulty(ctx context.Context, levels map[int64]string) (int64, error) {
	return m.svc.SetDifficulty(ctx, levels)
}

// media (media/internal/app.QuestionImages): who sees a stored question image.

// SeesQuestionImage tells media whether p may see a stored file as a
// question image outside an attempt: a live question's stem image by
// anyone signed in, an answer-side image by the question's editors.
func (m *Module) SeesQuestionImage(ctx context.Context, p auth.Principal, key string) (bool, error) {
	return m.svc.SeesQuestionImage(ctx, p, key)
}

// search (search.Reach; library/internal/app.Questions asks Reachable too): which found questions a caller may see and edit.
var _ search.Reach = (*Module)(nil)

// Kinds implements search.Reach: the bank owns the question kind.
func (m *Module) Kinds() []search.Kind { return []search.Kind{search.KindQuestion} }

// Reachable implements search.Reach with the bank's reach policy
// (app.Service.ReachIndexed).
func (m *Module) Reachable(ctx context.Context, p auth.Principal, _ search.Kind, ids []int64) (visible, editable map[int64]bool, err error) {
	return m.svc.ReachIndexed(ctx, p, ids)
}

// share (share.Target): links to published quizzes.
var _ share.Target = (*Module)(nil)

// ShareKinds implements share.Target: quizzes may be shared.
func (m *Module) ShareKinds() []string { return []string{"quiz"} }

// ShareTarget implements share.Target (app.Service.ShareableQuiz says who
// may share what).
func (m *Module) ShareTarget(ctx context.Context, p auth.Principal, _ string, id int64, withAnswers bool) (string, error) {
	return m.svc.ShareableQuiz(ctx, p, id, withAnswers)
}

// SharedView implements share.Target: an app.SharedQuiz while the quiz is
// published (app.Service.SharedQuizView says what a visitor reads).
func (m *Module) SharedView(ctx context.Context, _ string, id int64, withAnswers bool) (any, error) {
	return m.svc.SharedQuizView(ctx, id, withAnswers)
}

// feedback (feedback.Target): reports on questions.
var _ feedback.Target = (*Module)(nil)

// FeedbackKinds implements feedback.Target: questions may be reported.
func (m *Module) FeedbackKinds() []string { return []string{"question"} }

// FeedbackTarget implements feedback.Target (app.Service.ReportTitle).
func (m *Module) FeedbackTarget(ctx context.Context, p auth.Principal, _ string, id int64) (string, error) {
	return m.svc.ReportTitle(ctx, p, id)
}

// site (site.Counter): the landing page's numbers.
var _ site.Counter = (*Module)(nil)

// PublicCounts implements site.Counter: live questions and published quizzes.
func (m *Module) PublicCounts(ctx context.Context) (map[string]int64, error) {
	return m.svc.PublicCounts(ctx)
}

// identity (module.PersonalData): a learner's export and erasure.
var _ module.PersonalData = (*Module)(nil)

// ExportPersonalData implements module.PersonalData: the learner's
// favourites and saved tests (questions and quizzes have no owners).
func (m *Module) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return m.svc.ExportPersonalData(ctx, userID, x)
}

// ForgetPersonalData implements module.PersonalData.
func (m *Module) ForgetPersonalData(ctx context.Context, userID int64) error {
	return m.svc.ForgetPersonalData(ctx, userID)
}
