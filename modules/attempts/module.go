// Package attempts is where learners sit quizzes: attempts in timed or study
// (learning) mode that record each question as it was sat, saved progress
// (autosave across devices with a device lock), scoring and submission
// (explicit, or automatic when a timed attempt's time runs out, on read and
// by a scheduled sweep), history and the learner's dashboard, the reminder
// schedule of missed questions, and the learner's own folders, collections
// and notes. The bank asks it through Facade whether an attempt opens a
// question's answer side.
package attempts

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	attempthttp "github.com/roundsedu/rounds/modules/attempts/internal/http"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// Bank is the port attempts needs from the question bank (bank.Facade
// satisfies it): the quiz as it is now for a new attempt, where questions
// are filed (per-category performance) and how many quizzes a caller sees.
type Bank = app.Bank

// Users is the port to identity (identity.Facade satisfies it): a learner's
// durable reminders_disabled.
type Users = app.Users

// Documents is the port to drafts (drafts.Facade satisfies it): the
// document count on a moderator's dashboard.
type Documents = app.Documents

// Config is the attempts section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the attempts bounded context.
type Module struct {
	svc *app.Service
	cfg Config
}

var _ Facade = (*Module)(nil)

// New builds the module; it sits quizzes from the bank, reads learners'
// reminder preference from identity and counts documents through drafts
// for moderators' dashboards.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "attempts", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "bank", &ports.Bank)
	module.Need(k, "identity", &ports.Users)
	module.Need(k, "drafts", &ports.Documents)
	svc := app.New(app.Deps{DB: k.DB, Log: k.Log, Ports: ports, Completions: publisher{bus: k.Bus}, Policy: cfg})
	return &Module{svc: svc, cfg: cfg}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "attempts" }

// Routes registers the attempts, progress, dashboard, reminder, folder,
// collection and note operations.
func (m *Module) Routes(r *httpapi.Router) { attempthttp.Register(r, m.svc) }

// Schedule registers attempts_maintenance on the scheduler leader: the
// sweep that auto-submits timed attempts whose time ran out and removes
// expired saved progress, every attempts.sweep_interval.
func (m *Module) Schedule(s *scheduler.Scheduler) {
	s.Every(app.TaskMaintenance, m.cfg.SweepInterval, m.svc.Maintain)
}

// publisher turns completions into the public event, in the caller's
// transaction.
type publisher struct{ bus events.Publisher }

func (p publisher) AttemptCompleted(ctx context.Context, c app.Completion) error {
	return events.Publish(ctx, p.bus, TopicAttemptCompleted, AttemptCompleted{AttemptID: c.AttemptID, UserID: c.UserID,
		QuizID: c.QuizID, Mode: c.Mode, Score: c.Score, TotalQuestions: c.TotalQuestions,
		Percentage: c.Percentage, CompletedAt: c.CompletedAt, AutoSubmitted: c.AutoSubmitted})
}
