// Package drafts turns uploaded PDFs into reviewed bank questions:
// documents (upload, process_pdf, page text), sections (page ranges),
// extraction jobs (extract_quiz, with the built-in extractor or a model
// extractor plugged in through the extraction package), batches and drafts
// (edit, accept, reject, reopen, delete). Nothing enters the bank until a
// draft is accepted, through the bank facade, in the same transaction as the
// drafts' status change.
package drafts

import (
	"context"
	_ "embed"
	"time"

	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	drafthttp "github.com/roundsedu/rounds/modules/drafts/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/module"
)

// Bank is the port drafts needs from the question bank (bank.Facade
// satisfies it): accepted drafts become questions inside the caller's
// transaction, and categories are checked before a batch or draft is filed.
type Bank = app.Bank

// Config is the drafts section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the drafts bounded context.
type Module struct {
	svc *app.Service
	cfg Config
}

var _ Facade = (*Module)(nil)

// New builds the module; it files accepted drafts through the bank and
// reads with the AI module's extraction models when one is chosen.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "drafts", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "bank", &ports.Bank)
	module.Need(k, "ai", &ports.Models)
	svc, err := app.New(app.Deps{DB: k.DB, Storage: k.Storage, Queue: k.Queue, Ports: ports, Config: cfg, Log: k.Log})
	if err != nil {
		return nil, err
	}
	return &Module{cfg: cfg, svc: svc}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "drafts" }

// Routes registers the documents, drafts and extraction-job operations.
func (m *Module) Routes(r *httpapi.Router) { drafthttp.Register(r, m.svc, m.cfg.MaxUploadSize) }

// Jobs registers process_pdf and extract_quiz.
func (m *Module) Jobs(r *jobs.Runner) { m.svc.Register(r) }

// SetModels puts other model-backed extractors in place of the AI module's
// (the e2e suite's stand-ins). With no extraction model configured, and for
// the model choice "builtin", the built-in extractor serves.
func (m *Module) SetModels(models extraction.Models) { m.svc.SetModels(models) }

// RepairStuckDocuments moves documents processing for longer than
// drafts.stuck_after to ready so they can be reprocessed, returning their
// ids (the `rounds repair-stuck-documents` command).
func (m *Module) RepairStuckDocuments(ctx context.Context) ([]int64, error) {
	return m.svc.RepairStuckDocuments(ctx)
}

// StuckAfter is how long a document may process before the repair command
// takes it (drafts.stuck_after).
func (m *Module) StuckAfter() time.Duration { return m.cfg.StuckAfter }

// CountDocuments counts every uploaded document.
func (m *Module) CountDocuments(ctx context.Context) (int, error) { return m.svc.CountDocuments(ctx) }
