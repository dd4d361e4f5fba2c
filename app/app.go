// Package app is the composition root: it builds the platform, hands each
// module the platform pieces and the config section it owns, wires the
// modules' facades into each other's ports, and runs the parts of the
// service that the process role asks for.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"riverqueue.com/riverui"

	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/buildinfo"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/devidp"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/metrics"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/scheduler"
	"github.com/roundsedu/rounds/platform/settings"
	"github.com/roundsedu/rounds/platform/storage"
	"github.com/roundsedu/rounds/platform/telemetry"
	"github.com/roundsedu/rounds/web"
)

// Role is the part of the service a process runs.
type Role string

// Process roles.
const (
	RoleServe     Role = "serve"     // HTTP API
	RoleWorker    Role = "worker"    // event subscribers and background jobs; scale freely
	RoleScheduler Role = "scheduler" // scheduled jobs; exactly one leads
	RoleAll       Role = "all"       // everything: the default for one machine
)

func (r Role) runs(part Role) bool { return r == RoleAll || r == part }

// Platform is what modules are built from.
type Platform struct {
	Config    *config.Config
	Log       *slog.Logger
	DB        *db.DB
	Metrics   *metrics.Registry
	Bus       *events.Bus
	Queue     *jobs.Queue
	Runner    *jobs.Runner
	Scheduler *scheduler.Scheduler
	Storage   *storage.Store
	Limiter   *ratelimit.Limiter
	Settings  *settings.Registry
	Signer    *auth.Signer
	HTTP      *httpapi.Server
}

// App is a built service, ready to run in a role.
type App struct {
	Platform
	Modules []module.Module

	cancel   context.CancelFunc
	wg       sync.WaitGroup
	errMu    sync.Mutex
	runErr   error
	httpSrv  *http.Server
	httpAddr string
	metrAddr string
	devIdP   *devidp.Provider // only when devidp.enabled
	jobsUI   *riverui.Handler
	tracing  func(context.Context) error
}

// NewLogger builds the process logger from config.
func NewLogger(cfg config.Log) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Format == "text" {
		return slog.New(slog.NewTextHandler(os.Stdout, opts))
	}
	return slog.New(slog.NewJSONHandler(os.Stdout, opts))
}

// New opens the database (migrating first when configured), builds the
// platform and every module of Modules, wires the ports between modules,
// and registers their routes, subscribers, jobs and schedules. Nothing runs
// until Start.
func New(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	d, err := db.Open(ctx, cfg.Database, log)
	if err != nil {
		return nil, err
	}
	if cfg.Database.MigrateOnStart {
		if err := db.Migrate(ctx, d, migrations.FS, log); err != nil {
			d.Close()
			return nil, err
		}
	}
	store, err := storage.Open(ctx, cfg.Storage.URL)
	if err != nil {
		d.Close()
		return nil, err
	}
	queue, err := jobs.NewQueue(d, cfg.Jobs, log)
	if err != nil {
		d.Close()
		return nil, err
	}
	m := metrics.New()
	runner := jobs.NewRunner(queue, cfg.Database, log, m)
	a := &App{Platform: Platform{
		Config: cfg, Log: log, DB: d, Metrics: m,
		Bus:       events.New(d, cfg.Events, log, m),
		Queue:     queue,
		Runner:    runner,
		Scheduler: scheduler.New(d, cfg.Scheduler, log, m, runner),
		Storage:   store,
		Limiter:   ratelimit.New(d),
		Settings:  settings.New(d),
		Signer:    auth.NewSigner(cfg.Auth.TokenSecret, cfg.Service.Name),
	}}
	m.Register(collectors.NewDBStatsCollector(d.StdPool(), "rounds"), a.Queue.Backlog(), a.Bus.Lag())
	m.Register(d.ReplicaMetrics()...)
	if err := a.build(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// build makes the HTTP edge and the modules and hands each platform part
// what the modules bring.
func (a *App) build(ctx context.Context) error {
	p := &a.Platform
	// The media cookie carries its own token (issuer <name>_media): it opens
	// /uploads only and is refused as a bearer token everywhere else. Both
	// verifiers read the caller's current role through identity.
	cookie := httpapi.MediaCookieName(p.Config.Service.Name)
	mediaSigner := auth.NewSigner(p.Config.Auth.TokenSecret, cookie)
	accounts := &directory{}
	verifier := auth.NewVerifier(p.Signer, accounts, p.Config.Auth.RoleCacheTTL)
	mediaVerifier := auth.NewVerifier(mediaSigner, accounts, p.Config.Auth.RoleCacheTTL)
	var err error
	p.HTTP, err = httpapi.New(httpapi.Options{Log: p.Log, Metrics: p.Metrics, Verifier: verifier,
		MediaCookie: cookie, MediaVerifier: mediaVerifier, TrustedProxies: p.Config.HTTP.TrustedProxies,
		DB: p.DB, WrittenCookie: httpapi.WrittenCookieName(p.Config.Service.Name), ReadMaxLag: p.Config.Database.ReadMaxLag,
		SecureCookies: strings.HasPrefix(strings.ToLower(p.Config.Service.PublicURL), "https://"),
		UploadTimeout: p.Config.HTTP.UploadTimeout})
	if err != nil {
		return err
	}
	router := p.HTTP.Router()
	httpapi.RegisterHealth(router, p.DB.Ping, buildinfo.String())
	p.Settings.Routes(router)
	p.Bus.Routes(router) // GET /admin/outbox
	// The operators' view of the jobs: River's UI, for admins.
	if a.jobsUI, err = p.Queue.UI(httpapi.JobsUIPath); err != nil {
		return err
	}
	p.HTTP.MountPage(httpapi.JobsUIPath, auth.Admin, a.jobsUI)

	kit := &module.Kit{Config: p.Config, Log: p.Log, DB: p.DB, Bus: p.Bus, Queue: p.Queue, Storage: p.Storage,
		Limiter: p.Limiter, Settings: p.Settings, Signer: p.Signer, MediaSigner: mediaSigner,
		Verifiers: []*auth.Verifier{verifier, mediaVerifier}}
	module.Need(kit, "identity", &accounts.Directory)
	mods, err := kit.Build(ctx, Modules, Pairs...)
	if err != nil {
		return err
	}
	a.Modules = mods
	if a.tracing, err = telemetry.Setup(ctx, p.Config, buildinfo.String()); err != nil {
		return err
	}
	if err := p.Config.Check(); err != nil {
		return err
	}
	for _, m := range mods {
		if r, ok := m.(module.Router); ok {
			r.Routes(router)
		}
		if u, ok := m.(interface{ Uploads(*httpapi.Server) }); ok {
			u.Uploads(p.HTTP) // GET /uploads, outside /api
		}
		if s, ok := m.(module.Subscriber); ok {
			s.Subscribe(p.Bus)
		}
		if j, ok := m.(module.JobHandler); ok {
			j.Jobs(p.Runner)
		}
		if s, ok := m.(module.Scheduled); ok {
			s.Schedule(p.Scheduler)
		}
	}
	if p.Config.DevIdP.Enabled {
		if a.devIdP, err = newDevIdP(p.Config.DevIdP, Lookup[*identity.Module](a), p.Log); err != nil {
			return err
		}
		p.HTTP.Engine().GET("/", gin.WrapH(devidp.LandingPage()))
	}
	scheduleMaintenance(p)
	return nil
}

// directory is the accounts the verifiers read roles from; identity fills it
// when the modules are wired.
type directory struct{ auth.Directory }

// Lookup returns the built module of type T; a module missing from Modules
// is a programming error and panics (operator commands and tests use it).
func Lookup[T module.Module](a *App) T {
	m, ok := module.Lookup[T](a.Modules)
	if !ok {
		panic(fmt.Sprintf("app: no module of type %T", m))
	}
	return m
}

// Start runs the parts of the role in the background and returns once the
// listeners are bound.
func (a *App) Start(ctx context.Context, role Role) error {
	for _, m := range a.Modules {
		if s, ok := m.(module.Starter); ok {
			if err := s.Start(ctx); err != nil {
				return fmt.Errorf("start %s: %w", m.Name(), err)
			}
		}
	}
	ctx, a.cancel = context.WithCancel(ctx)
	grace := a.Config.HTTP.ShutdownTimeout
	if role.runs(RoleServe) {
		if err := a.jobsUI.Start(ctx); err != nil {
			a.cancel()
			return fmt.Errorf("jobs UI: %w", err)
		}
		if err := a.startHTTP(ctx); err != nil {
			a.cancel()
			return err
		}
		if a.DB.HasReplica() {
			a.goRun("replica", func() error { return a.DB.WatchReplica(ctx, a.Log) })
		}
		for _, m := range a.Modules {
			if b, ok := m.(module.Background); ok {
				a.goRun(m.Name(), func() error { return b.Background(ctx) })
			}
		}
	}
	if a.devIdP != nil && role.runs(RoleServe) {
		ln, err := net.Listen("tcp", a.Config.DevIdP.Addr)
		if err != nil {
			a.cancel()
			return fmt.Errorf("devidp listener %s: %w", a.Config.DevIdP.Addr, err)
		}
		a.goRun("devidp", func() error { return a.devIdP.Serve(ctx, ln) })
	}
	if a.Config.Metrics.Enabled {
		ln, err := net.Listen("tcp", a.Config.Metrics.Addr)
		if err != nil {
			a.cancel()
			return fmt.Errorf("metrics listener: %w", err)
		}
		a.metrAddr = ln.Addr().String()
		a.goRun("metrics", func() error { return a.Metrics.Serve(ctx, ln, a.Config.Metrics.Profiling) })
	}
	if role.runs(RoleWorker) {
		a.goRun("events", func() error { return a.Bus.Run(ctx) })
		a.goRun("jobs", func() error { return a.Runner.Run(ctx, grace) })
	}
	if role.runs(RoleScheduler) {
		a.goRun("scheduler", func() error { return a.Scheduler.Run(ctx, grace) })
	}
	a.Log.Info("rounds started", "role", role, "version", buildinfo.String(),
		"http", a.httpAddr, "metrics", a.metrAddr)
	return nil
}

func (a *App) startHTTP(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.Config.HTTP.Addr)
	if err != nil {
		return fmt.Errorf("http listener %s: %w", a.Config.HTTP.Addr, err)
	}
	a.httpAddr = ln.Addr().String()
	a.httpSrv = &http.Server{
		Handler:           web.Serve(a.HTTP.Handler()), // the browser client owns paths outside /api and /uploads
		ReadHeaderTimeout: a.Config.HTTP.ReadHeaderTimeout,
		ReadTimeout:       a.Config.HTTP.ReadTimeout, // uploads extend theirs (httpapi.Options.UploadTimeout)
		IdleTimeout:       a.Config.HTTP.IdleTimeout,
		// No WriteTimeout: it counts from the request's headers and would
		// cut downloads, exports and the tutor's stream mid-way.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	a.goRun("http", func() error {
		if err := a.httpSrv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	// Stop accepting and let in-flight requests finish when ctx ends.
	a.goRun("http-shutdown", func() error {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), a.Config.HTTP.ShutdownTimeout)
		defer cancel()
		return a.httpSrv.Shutdown(sctx)
	})
	return nil
}

func (a *App) goRun(name string, fn func() error) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if err := fn(); err != nil {
			a.Log.Error("component stopped with an error", "component", name, "error", err)
			a.errMu.Lock()
			a.runErr = errors.Join(a.runErr, fmt.Errorf("%s: %w", name, err))
			a.errMu.Unlock()
			a.cancel()
		}
	}()
}

// HTTPAddr is the bound API address (useful with port 0).
func (a *App) HTTPAddr() string { return a.httpAddr }

// MetricsAddr is the bound metrics address.
func (a *App) MetricsAddr() string { return a.metrAddr }

// Stop shuts down gracefully: HTTP stops accepting and finishes in-flight
// requests, workers finish in-flight handlers and jobs, the scheduler waits
// for running jobs and releases leadership. Then the pool closes.
func (a *App) Stop() error {
	if a.cancel != nil {
		a.cancel()
	}
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(a.Config.HTTP.ShutdownTimeout + 5*time.Second):
		a.Log.Warn("shutdown timed out; exiting with work in flight")
	}
	a.Close()
	a.errMu.Lock()
	defer a.errMu.Unlock()
	return a.runErr
}

// Done is closed when every component has stopped.
func (a *App) Done() <-chan struct{} {
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	return done
}

// Close releases the pool and the bucket without waiting for anything.
func (a *App) Close() {
	if a.tracing != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = a.tracing(ctx) // flushes the last spans
		cancel()
	}
	if a.Storage != nil {
		_ = a.Storage.Close()
	}
	if a.DB != nil {
		_ = a.DB.Close()
	}
}
