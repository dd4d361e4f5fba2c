package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// ErrNotFound is returned by the facade for a quiz or question the caller
// cannot see (missing, trashed, or not visible to them). It is the
// platform's one not-found sentinel (db.ErrNotFound), so callers may test
// either and the error table maps it once.
var ErrNotFound = db.ErrNotFound

// Question types.
const (
	TypeMCQ    = "mcq"
	TypeFillIn = "fill_in"
)

// Quiz modes.
const (
	ModeTimed    = "timed"
	ModeLearning = "learning"
)

// QuestionSnapshot is a question as it is now, answer side included, for a
// module that must keep it as it was (an attempt records what was sat).
type QuestionSnapshot struct {
	ID                   int64
	Type                 string // TypeMCQ or TypeFillIn
	Text                 string
	Options              []string
	CorrectAnswer        string // for fill-in, accepted alternatives are separated by "|"
	Explanation          string
	OptionExplanations   []string
	KeyPoints            []string
	AttendingTip         string
	ExplanationImagePath string
	ImagePath            string
	CategoryID           *int64
	CategoryName         string
	Version              int
}

// QuizSnapshot is a quiz with its questions in order.
type QuizSnapshot struct {
	ID               int64
	Title            string
	Mode             string // ModeTimed or ModeLearning
	TimeLimitMinutes *int
	IsPublished      bool
	// SavedTest: a learner's saved test (a block, an exam paper, their own
	// test), which is sat in the mode it was built in, never in another.
	SavedTest bool
	Questions []QuestionSnapshot
	// ContentVersion names the questions' content: two snapshots of one
	// quiz with the same version hold the same questions, field for field.
	ContentVersion int64
}

// NewQuestion is a question another module files into the bank (accepted
// drafts).
type NewQuestion struct {
	Type          string // TypeMCQ or TypeFillIn
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	CategoryID    *int64
	// Storage keys of the question's picture and its explanation's.
	ImagePath, ExplanationImagePath string
}

// QuestionRefusal is one reason the bank refused a question another module
// asked it to file: which question (its index in the request), which of
// its fields ("options[1]", "question_category_id"), and the rule that
// field broke.
type QuestionRefusal = app.QuestionRefusal

// RefusedQuestions is CreateQuestions' error when questions break the
// bank's rules; nothing was filed. Find it with errors.As. It wraps the
// bank's own 422 (fields named "questions[i].field"), so a caller that
// answers it as it is still can.
type RefusedQuestions = app.RefusedQuestions

// Filing is where a question is filed (the service's own type: the facade
// adds nothing to it).
type Filing = app.Filing

// Difficulties are the levels a question may be rated.
var Difficulties = app.Difficulties

// RatedQuestion is a live question as a model reads it to write from it
// or to rate how hard it is; Difficulty is nil until rated.
type RatedQuestion struct {
	ID            int64
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	Difficulty    *string
}

// TutorQuestion is a question as the AI tutor may discuss it with the
// caller: the answer side is filled in only when the caller may see it
// (AnswersShown: an editor, or inside the caller's own attempt that shows
// answers), exactly as the question detail redacts it.
type TutorQuestion struct {
	ID            int64
	Text          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	AnswersShown  bool
	CategoryID    *int64 // where it is filed (nil: unfiled)
	CategoryName  string
}

// Facade is what other modules may ask the bank (offers.go answers it,
// with every other port the bank answers).
type Facade interface {
	// QuizForSitting returns the quiz if p may sit it (published, or p is a
	// moderator), with every live question as it is now. ErrNotFound otherwise.
	// Outside a transaction it may come from memory (a quiz row heard to
	// change is read again), and the questions' slices are shared with
	// it: read them only.
	QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*QuizSnapshot, error)
	// QuestionFilings tells where each of the questions is filed (missing ids
	// are left out).
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]Filing, error)
	// CreateQuestions files new questions into the bank inside the
	// transaction on ctx and returns their ids in order. Questions that
	// break the bank's rules are a *RefusedQuestions (which question, which
	// field, which rule), wrapping the bank's *apperr.Error.
	CreateQuestions(ctx context.Context, by int64, qs []NewQuestion) ([]int64, error)
	// CheckCategory refuses (422 naming field) a question category that
	// does not exist.
	CheckCategory(ctx context.Context, field string, id int64) error
	// CountQuizzes counts the quizzes p can see (dashboard).
	CountQuizzes(ctx context.Context, p auth.Principal) (int, error)
	// RequireQuestions is the bank's reach policy for a module that takes
	// question ids from a caller: nil when p reaches every one of ids, else
	// the 404 *apperr.Error "question not found", word for word what a
	// missing id gets. Moderators reach every live question; anyone else
	// what their grants cover and the questions of live published quizzes;
	// a favourite or a saved test reaches nothing (docs/decisions/bank.md).
	RequireQuestions(ctx context.Context, p auth.Principal, ids ...int64) error
	// CanEditQuestion reports whether p may edit a live question
	// (moderator, or a grant covering it). ErrNotFound for a missing or
	// trashed question.
	CanEditQuestion(ctx context.Context, p auth.Principal, questionID int64) (bool, error)
	// GrantCovers answers "does grant g cover question q": a category grant
	// covers its branch of the tree, a quiz grant every question linked to
	// that live quiz, other kinds no question. ErrNotFound for a missing
	// question.
	GrantCovers(ctx context.Context, g identity.Grant, questionID int64) (bool, error)
	// CategoryWithin reports whether question category id is root or lies
	// below it (for other grants evaluated against the tree).
	CategoryWithin(ctx context.Context, id, root int64) (bool, error)
}

// GrantSource is the port bank needs from identity: the editorial grants a
// user holds (identity.Facade satisfies it).
type GrantSource = app.Grants

// AttemptAccess is the port bank needs from attempts (wired by app/): the
// answer side of a question opens inside the caller's own authorised attempt
// (study mode at once, timed mode after submission), and a quiz's review
// opens to a learner with a completed attempt.
type AttemptAccess = app.AttemptAccess

// ArticleRef is an article a question's "read more" links to.
type ArticleRef = app.ArticleRef

// Reading is what the library implements so question details and quiz
// reviews carry "read more" articles.
type Reading = app.Reading
