// Package app is the attempts module's service logic: starting and resuming
// attempts, saved progress with its device lock, scoring and submission
// (explicit or when a timed attempt's time runs out), the reading side and
// the learner's dashboard, the reminder schedule, and the learner's own
// folders, collections and notes. Every write is one transaction; failures
// the caller can act on are *apperr.Error.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Bank is the port attempts needs from the question bank (bank.Facade
// satisfies it): the quiz as it is now for a new attempt, where questions
// are filed (per-category performance) and how many quizzes a caller sees.
type Bank interface {
	QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*bank.QuizSnapshot, error)
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]bank.Filing, error)
	CountQuizzes(ctx context.Context, p auth.Principal) (int, error)
}

// Users is the port attempts needs from identity (identity.Facade satisfies
// it): a learner's durable reminders_disabled.
type Users interface {
	User(ctx context.Context, userID int64) (identity.UserInfo, error)
}

// Documents is the port to drafts (drafts.Facade satisfies it): the
// document count on a moderator's dashboard.
type Documents interface {
	CountDocuments(ctx context.Context) (int, error)
}

// Completions announces a completed attempt inside its transaction.
type Completions interface {
	AttemptCompleted(ctx context.Context, c Completion) error
}

// Completion is what an AttemptCompleted event carries.
type Completion struct {
	AttemptID, UserID, QuizID int64
	Mode                      string
	Score, TotalQuestions     int
	Percentage                float64
	CompletedAt               time.Time
	AutoSubmitted             bool
}

// Policy is the saved-progress and timer policy (config section attempts).
type Policy struct {
	ProgressTTL time.Duration // saved progress expires this long after its last save
	DeviceLock  time.Duration // another device waits this long after the holder's last save
	TimerGrace  time.Duration // a timed attempt still takes a submit or save this long after its deadline
}

// Deps is what the service is built from.
type Deps struct {
	DB          *db.DB
	Log         *slog.Logger
	Bank        Bank
	Users       Users
	Completions Completions
	Policy      Policy
}

// Service holds the module's use cases.
type Service struct {
	db          *db.DB
	store       *store.Store
	log         *slog.Logger
	bank        Bank
	users       Users
	completions Completions
	policy      Policy
	documents   Documents // nil: the dashboard leaves documents out
	now         func() time.Time
}

// New builds the service.
func New(d Deps) *Service {
	return &Service{db: d.DB, store: store.New(d.DB), log: d.Log, bank: d.Bank, users: d.Users,
		completions: d.Completions, policy: d.Policy, now: func() time.Time { return time.Now().UTC() }}
}

// SetDocuments wires drafts' document count (nil: the dashboard leaves
// documents out). It is called while wiring, before the service serves.
func (s *Service) SetDocuments(d Documents) { s.documents = d }
