// Package app is the drafts module's service logic: uploading and
// processing documents, sections, extraction jobs, batches and the review of
// drafts up to their acceptance into the bank. Every write is one
// transaction; failures the caller can act on are *apperr.Error.
package app

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/modules/drafts/internal/builtin"
	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
	"github.com/roundsedu/rounds/modules/drafts/internal/store"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/storage"
)

// Job kinds this module runs.
const (
	KindProcessPDF  = "process_pdf"
	KindExtractQuiz = "extract_quiz"
)

// Bank is the port drafts needs from the question bank: accepted drafts
// become questions inside the caller's transaction, and categories are
// checked before a batch or draft is filed.
type Bank interface {
	CreateQuestions(ctx context.Context, by int64, qs []bank.NewQuestion) ([]int64, error)
	CheckCategory(ctx context.Context, field string, id int64) error
}

// Ports are the facades drafts asks, filled by the app once every module
// is built.
type Ports struct {
	Bank Bank
	// Models are the model-backed extractors (the AI module).
	Models extraction.Models
}

// Config is the drafts section: document upload policy and the bounds on
// reading a PDF.
type Config struct {
	MaxUploadSize    int64         `mapstructure:"max_upload_size" validate:"gt=0"`
	StuckAfter       time.Duration `mapstructure:"stuck_after" validate:"gt=0"`
	InspectTimeout   time.Duration `mapstructure:"inspect_timeout" validate:"gt=0"`
	PageTimeout      time.Duration `mapstructure:"page_timeout" validate:"gt=0"`
	MaxStreamBytes   int64         `mapstructure:"max_stream_bytes" validate:"gt=0"`
	MaxDocumentBytes int64         `mapstructure:"max_document_bytes" validate:"gt=0"`
	ReaderMemory     int64         `mapstructure:"reader_memory" validate:"gt=0"`
	ReaderCPU        time.Duration `mapstructure:"reader_cpu" validate:"gt=0"`
	OCRTimeout       time.Duration `mapstructure:"ocr_timeout" validate:"gt=0"`
	OCRLanguage      string        `mapstructure:"ocr_language" validate:"required"`
	// SpoolDir holds temporary copies of PDFs; empty is rounds-spool in
	// the system's temporary directory.
	SpoolDir string `mapstructure:"spool_dir"`
}

// readerLimits are the bounds of one reader child.
func (c Config) readerLimits() reader.Limits {
	return reader.Limits{
		Inflate:        pdfdoc.Limits{MaxStreamBytes: c.MaxStreamBytes, MaxDocumentBytes: c.MaxDocumentBytes},
		InspectTimeout: c.InspectTimeout, PageTimeout: c.PageTimeout,
		OCRTimeout: c.OCRTimeout, OCRLanguage: c.OCRLanguage,
		Memory: c.ReaderMemory, CPU: c.ReaderCPU,
	}
}

// Deps is what the service is built from.
type Deps struct {
	DB      *db.DB
	Storage *storage.Store
	Queue   *jobs.Queue
	Ports   *Ports
	Config  Config
	Log     *slog.Logger
}

// Service holds the module's use cases.
type Service struct {
	db      *db.DB
	store   *store.Store
	storage *storage.Store
	queue   *jobs.Queue
	ports   *Ports
	cfg     Config
	log     *slog.Logger
	builtin extraction.Extractor
	models  atomic.Pointer[modelsBox]
	tmp     *spool
	reader  *reader.Runner
}

type modelsBox struct{ m extraction.Models }

// New builds the service, sweeping temporary files a previous process
// left behind.
func New(d Deps) (*Service, error) {
	sp, swept, err := newSpool(d.Config.SpoolDir)
	if err != nil {
		return nil, err
	}
	if swept > 0 {
		d.Log.Info("drafts: removed temporary files left by a stopped process", "files", swept)
	}
	rd, err := reader.NewRunner(sp.dir, d.Config.readerLimits())
	if err != nil {
		return nil, err
	}
	return &Service{db: d.DB, store: store.New(d.DB), storage: d.Storage, queue: d.Queue,
		ports: d.Ports, cfg: d.Config, log: d.Log, builtin: builtin.Extractor{}, tmp: sp, reader: rd}, nil
}

// SetModels puts other model-backed extractors in place of the AI
// module's (tests stand in for a paid model this way); nil goes back to
// the AI module's.
func (s *Service) SetModels(m extraction.Models) {
	if m == nil {
		s.models.Store(nil)
		return
	}
	s.models.Store(&modelsBox{m: m})
}

func (s *Service) modelPort() extraction.Models {
	if b := s.models.Load(); b != nil {
		return b.m
	}
	return s.ports.Models
}

// extractTimeout bounds one extraction: the slowest model reads a long
// section in several calls of up to ai.extraction_timeout.
const extractTimeout = 30 * time.Minute

// Register declares the module's job kinds. Both are what a moderator
// waits on, so they go before bulk work. A document whose processing
// stops its worker repeatedly is failed (abandonProcessPDF); processing
// may run as long as a document may stay processing (drafts.stuck_after).
func (s *Service) Register(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[processPayload]{Handle: s.handleProcessPDF, Abandoned: s.abandonProcessPDF,
		Priority: jobs.Urgent, Timeout: s.cfg.StuckAfter})
	jobs.Register(r, jobs.Kind[extractPayload]{Handle: s.handleExtractQuiz, Priority: jobs.Urgent,
		Timeout: extractTimeout})
}
