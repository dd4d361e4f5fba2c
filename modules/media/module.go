// Package media is the service's stored images and clips: assets with
// their editorial facts, figures uploaded or drawn from a diagram spec and
// placed in articles through the library, the bin and its daily purge, and
// GET /uploads, which authorises every file before serving it or its WebP
// thumbnail. It asks the library (figure writes), attempts (the
// answer-side rule), the bank (question images) and flashcards (card
// pictures), and gives flashcards its pictures.
package media

import (
	"context"
	_ "embed"
	"time"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	mediahttp "github.com/roundsedu/rounds/modules/media/internal/http"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/scheduler"
)

// Config is the media section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the media bounded context.
type Module struct {
	svc *app.Service
	cfg Config
}

// New builds the module.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "media", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "library", &ports.Library)
	module.Need(k, "attempts", &ports.Attempts)
	module.Need(k, "bank", &ports.Questions)
	module.NeedAll(k, &ports.Cards)
	return &Module{svc: app.New(k.DB, k.Storage, ports, cfg, k.Log), cfg: cfg}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "media" }

// Routes registers the figure and media operations.
func (m *Module) Routes(r *httpapi.Router) { mediahttp.Register(r, m.svc, m.cfg.MaxClipBytes) }

// Uploads registers GET /uploads/{path} outside /api (the app calls it
// with the HTTP server, whose guard reads a bearer token or the media
// cookie).
func (m *Module) Uploads(s *httpapi.Server) {
	mediahttp.Uploads(s.Engine(), s.MediaGuard(auth.User), m.svc, m.svc.Log())
}

// Schedule queues purge_trashed_media daily from the scheduler leader (a
// worker deletes the bytes).
func (m *Module) Schedule(s *scheduler.Scheduler) {
	s.DailyQueued(app.TaskPurge, m.cfg.PurgeHour, 0, func(ctx context.Context) error { return m.PurgeTrashed(ctx, time.Now()) })
}

// PurgeTrashed runs the purge once as of now (operators and tests, which
// pass their own clock).
func (m *Module) PurgeTrashed(ctx context.Context, now time.Time) error {
	_, err := m.svc.Purge(ctx, now)
	return err
}
