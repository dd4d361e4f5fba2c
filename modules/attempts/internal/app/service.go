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
	"github.com/roundsedu/rounds/platform/combine"
	"github.com/roundsedu/rounds/platform/db"
)

// Bank is the port attempts needs from the question bank (bank.Facade
// satisfies it): the quiz as it is now for a new attempt, where questions
// are filed (per-category performance), whether a caller reaches the
// questions they name (notes, collections) and how many quizzes a caller
// sees.
type Bank interface {
	QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*bank.QuizSnapshot, error)
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]bank.Filing, error)
	RequireQuestions(ctx context.Context, p auth.Principal, ids ...int64) error
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

// Config is the attempts section: saved-progress and timer policy.
type Config struct {
	// Saved progress expires this long after its last save.
	ProgressTTL time.Duration `mapstructure:"progress_ttl" validate:"gt=0"`
	// Another device waits this long after the holder's last save.
	DeviceLock time.Duration `mapstructure:"device_lock" validate:"gt=0"`
	// How often the scheduler leader runs attempts_maintenance.
	SweepInterval time.Duration `mapstructure:"sweep_interval" validate:"gt=0"`
	// A timed attempt still takes a submit or save this long after its deadline.
	TimerGrace time.Duration `mapstructure:"timer_grace" validate:"gte=0"`
}

// Ports are the facades attempts asks, filled by the app once every module
// is built.
type Ports struct {
	Bank      Bank
	Users     Users
	Documents Documents
}

// Deps is what the service is built from.
type Deps struct {
	DB          *db.DB
	Log         *slog.Logger
	Ports       *Ports
	Completions Completions
	Policy      Config
}

// Service holds the module's use cases.
type Service struct {
	db          *db.DB
	store       *store.Store
	log         *slog.Logger
	ports       *Ports
	completions Completions
	policy      Config
	now         func() time.Time
	saves       *combine.Combiner[*store.FitSave, int64]
	questions   *attemptQuestions
	sittings    *sittings
}

// New builds the service.
func New(d Deps) *Service {
	s := &Service{db: d.DB, store: store.New(d.DB), log: d.Log, ports: d.Ports,
		completions: d.Completions, policy: d.Policy, now: func() time.Time { return time.Now().UTC() },
		questions: newAttemptQuestions(), sittings: newSittings()}
	s.saves = s.newSaves()
	return s
}
