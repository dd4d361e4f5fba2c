// Package harness boots the real service in-process for end-to-end suites:
// a fresh database cloned from a migrated template, the whole app (every
// role) on a random loopback port, and helpers that drive the HTTP API as a
// client would.
package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/platform/config"
)

// Harness is one running app and its database.
type Harness struct {
	App     *app.App
	Config  *config.Config
	DBURL   string
	BaseURL string
	HTTP    *http.Client
	// Log is what the app logged, with CaptureLog; nil without.
	Log     *LogBuffer
	dataDir string
	idp     *IdP
	ownIdP  bool // started by Start, stopped by Stop
	rootState
	contractCheck
}

// Option adjusts the harness before the app starts.
type Option func(*setup)

type setup struct {
	configure   []func(*config.Config)
	beforeStart []func(*app.App)
	role        app.Role
	idp         *IdP
	noSSO       bool
	captureLog  bool
}

// WithConfig changes the configuration before the app is built.
func WithConfig(fn func(*config.Config)) Option {
	return func(s *setup) { s.configure = append(s.configure, fn) }
}

// BeforeStart runs after the app is built and before it starts (register
// test subscribers, jobs or routes here).
func BeforeStart(fn func(*app.App)) Option {
	return func(s *setup) { s.beforeStart = append(s.beforeStart, fn) }
}

// WithoutSSO starts the app with no identity provider configured (single
// sign-on off); nobody can sign in to it.
func WithoutSSO() Option { return func(s *setup) { s.noSSO = true } }

// WithRole runs a single role instead of all.
func WithRole(r app.Role) Option { return func(s *setup) { s.role = r } }

// TestConfig is the default configuration with fast polling, loopback
// listeners and throwaway secrets.
func TestConfig(dbURL, dataDir string) (*config.Config, error) {
	cfg, err := config.Read()
	if err != nil {
		return nil, err
	}
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	cfg.Auth.TokenSecret = hex.EncodeToString(secret)
	cfg.Database.URL = dbURL
	cfg.Database.MaxOpenConns = 10
	cfg.Database.MaxIdleConns = 5
	cfg.HTTP.Addr = "127.0.0.1:0"
	cfg.HTTP.ShutdownTimeout = 5 * time.Second
	cfg.Metrics.Addr = "127.0.0.1:0"
	cfg.Log.Level = "error"
	cfg.Storage.URL = "file://" + filepath.Join(dataDir, "uploads")
	// Temporary copies of uploaded PDFs go with the rest of the run's files.
	cfg.Set("drafts.spool_dir", filepath.Join(dataDir, "spool"))
	cfg.Events.PollInterval = 50 * time.Millisecond
	cfg.Events.RetryInterval = 20 * time.Millisecond
	cfg.Events.MaxRetries = 2
	cfg.Jobs.PollInterval = 100 * time.Millisecond
	// A dead worker's job is taken up once its kind's time limit passed:
	// the tests' own kinds have short ones.
	cfg.Jobs.RescueAfter = time.Second
	cfg.Scheduler.LeaderCheck = 100 * time.Millisecond
	cfg.Auth.RoleCacheTTL = 0
	cfg.Set("identity.bootstrap_admin_email", RootEmail)
	return cfg, config.Validate(cfg)
}

// Start clones a database and boots the app on it. When it fails, it
// leaves nothing behind (provider, database, files).
func Start(opts ...Option) (_ *Harness, err error) {
	s := &setup{role: app.RoleAll}
	for _, o := range opts {
		o(s)
	}
	ctx := context.Background()
	var undo []func() error
	defer func() {
		if err != nil {
			for i := len(undo) - 1; i >= 0; i-- {
				_ = undo[i]()
			}
		}
	}()
	ownIdP := s.idp == nil && !s.noSSO
	if ownIdP {
		// Every harness signs people in through a real provider.
		idp, err := StartIdP()
		if err != nil {
			return nil, err
		}
		undo = append(undo, idp.Stop)
		s.idp = idp
		s.configure = append([]func(*config.Config){withSSO(idp)}, s.configure...)
	}
	dbURL, err := CloneDatabase(ctx)
	if err != nil {
		return nil, err
	}
	undo = append(undo, func() error { return DropDatabase(context.Background(), dbURL) })
	dataDir, err := newDataDir()
	if err != nil {
		return nil, err
	}
	undo = append(undo, func() error { return releaseDataDir(dataDir) })
	cfg, err := TestConfig(dbURL, dataDir)
	if err != nil {
		return nil, err
	}
	for _, fn := range s.configure {
		fn(cfg)
	}
	if err := config.Validate(cfg); err != nil {
		return nil, err
	}
	sink, level, captured := logSink(), slog.LevelWarn, (*LogBuffer)(nil)
	if s.captureLog {
		captured = &LogBuffer{}
		sink, level = io.MultiWriter(sink, captured), slog.LevelInfo
	}
	log := slog.New(slog.NewJSONHandler(sink, &slog.HandlerOptions{Level: level}))
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	undo = append(undo, a.Stop)
	for _, fn := range s.beforeStart {
		fn(a)
	}
	if err := a.Start(ctx, s.role); err != nil {
		return nil, err
	}
	h := &Harness{App: a, Config: cfg, DBURL: dbURL, dataDir: dataDir, idp: s.idp, ownIdP: ownIdP, Log: captured,
		rootState: rootState{rootEmail: cfg.Get("identity.bootstrap_admin_email").(string)},
		// Its own transport, so Stop can close this app's idle connections
		// and no other harness's.
		HTTP: &http.Client{Timeout: 30 * time.Second, Transport: http.DefaultTransport.(*http.Transport).Clone(),
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if a.HTTPAddr() != "" {
		h.BaseURL = "http://" + a.HTTPAddr()
	}
	return h, nil
}

// logSink keeps the app quiet unless ROUNDS_TEST_LOG=1.
func logSink() io.Writer {
	if os.Getenv("ROUNDS_TEST_LOG") != "" {
		return os.Stderr
	}
	return io.Discard
}

// Stop shuts the app down, drops its database and removes its files. It
// also reports every answer its clients saw that the answering operation
// does not declare (contract.go).
func (h *Harness) Stop() error {
	// The client's idle connections go first: one its transport dialled but
	// never used (it lost a race to a connection that came free) is, to the
	// server, a new connection that Shutdown waits 5 s for, as long as the
	// harness's whole shutdown deadline.
	h.HTTP.CloseIdleConnections()
	err := errors.Join(h.App.Stop(), h.contractErr())
	if h.ownIdP {
		err = errors.Join(err, h.idp.Stop())
	}
	if derr := DropDatabase(context.Background(), h.DBURL); derr != nil && err == nil {
		err = derr
	}
	return errors.Join(err, releaseDataDir(h.dataDir))
}
