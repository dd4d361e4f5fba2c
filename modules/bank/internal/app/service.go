// Package app is the bank's service layer: every rule about questions,
// quizzes, categories, tags, favourites, versions and the trash, each write
// in one transaction that also publishes the question's change.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/modules/bank/tagging"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Grants is the port to identity: the editorial grants a user holds
// (bank.GrantSource).
type Grants interface {
	Grants(ctx context.Context, userID int64) ([]identity.Grant, error)
}

// AttemptAccess is the port to attempts (bank.AttemptAccess): whether an
// attempt of the user authorises a question's answer side, whether the
// user has completed an attempt of a quiz, and how they last met questions.
type AttemptAccess interface {
	AuthorizesAnswers(ctx context.Context, userID, attemptID, questionID int64) (bool, error)
	HasCompletedAttempt(ctx context.Context, userID, quizID int64) (bool, error)
	LastAnswers(ctx context.Context, userID int64, ids []int64) (met, flagged map[int64]bool, err error)
}

// Change is what happened to a question, for the event the module
// publishes inside the write transaction.
type Change struct {
	Kind        string // created, updated, deleted, restored, purged
	ID          int64
	Live        bool
	Text        string
	Options     []string
	Explanation string
	CategoryID  *int64
	Version     int
	At          time.Time
}

// The kinds of change.
const (
	ChangeCreated  = "created"
	ChangeUpdated  = "updated"
	ChangeDeleted  = "deleted"
	ChangeRestored = "restored"
	ChangePurged   = "purged"
)

// Changes publishes question changes inside the transaction on ctx.
type Changes interface {
	QuestionChanged(ctx context.Context, c Change) error
}

// Ports are the facades the bank asks, filled by the app once every module
// is built (attempts is built after the bank and asks it in turn).
type Ports struct {
	Grants   Grants
	Search   search.Facade // nil only in tests: semantic and hybrid fall back to keyword
	Attempts AttemptAccess
	Reading  []Reading      // the library, when the service has one
	Keywords tagging.Models // the AI module: the keyword model tag classification asks
}

// Deps is what the service is built from.
type Deps struct {
	DB      *db.DB
	Queue   *jobs.Queue // tag classification runs as a job
	Log     *slog.Logger
	Changes Changes
	Ports   *Ports
}

// Service holds the bank's rules.
type Service struct {
	db      *db.DB
	queue   *jobs.Queue
	store   *store.Store
	log     *slog.Logger
	changes Changes
	ports   *Ports
	// quizRows keeps the rows quiz reads open with (quizrows.go).
	quizRows *quizRows
	// sittings keeps the questions quizzes are sat with (sittings.go).
	sittings *sittings
}

// New builds the service.
func New(d Deps) *Service {
	return &Service{db: d.DB, queue: d.Queue, store: store.New(d.DB), log: d.Log, changes: d.Changes, ports: d.Ports,
		quizRows: newQuizRows(), sittings: newSittings()}
}

// write runs fn in one transaction and then forgets the quiz rows this
// process keeps, so that it reads its own writes at once (other processes
// hear of them from the bank's triggers).
func (s *Service) write(ctx context.Context, fn func(ctx context.Context) error) error {
	err := s.db.Tx(ctx, fn)
	if err == nil {
		s.quizRows.forgetAll()
	}
	return err
}

// publish emits a change for q.
func (s *Service) publish(ctx context.Context, kind string, q *store.Question) error {
	c := Change{Kind: kind, ID: q.ID, Live: q.DeletedAt == nil && kind != ChangePurged, Version: q.Version,
		At: time.Now().UTC()}
	if kind != ChangePurged {
		c.Text, c.Options, c.Explanation, c.CategoryID = q.QuestionText, q.Options, q.Explanation, q.QuestionCategoryID
	} else {
		c.Version++
	}
	return s.changes.QuestionChanged(ctx, c)
}
