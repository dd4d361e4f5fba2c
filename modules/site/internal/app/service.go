// Package app is the site module's service logic: the contact form (a
// captcha when configured, a per-address limit, stored in one transaction
// with the job that mails it to the admin) and the landing page's live
// counts, gathered from every module that offers some.
package app

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/roundsedu/rounds/modules/site/internal/store"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// Config is the site section.
type Config struct {
	AdminEmail       string        `mapstructure:"admin_email" validate:"omitempty,email"`
	MailFrom         string        `mapstructure:"mail_from" validate:"required"`
	SMTPURL          string        `mapstructure:"smtp_url" validate:"omitempty,url" secret:"url"`
	CaptchaVerifyURL string        `mapstructure:"captcha_verify_url" validate:"omitempty,url"`
	CaptchaSecret    string        `mapstructure:"captcha_secret" secret:"true"`
	CaptchaTimeout   time.Duration `mapstructure:"captcha_timeout" validate:"gt=0"`
	ContactPerHour   int           `mapstructure:"contact_per_hour" validate:"gte=1"`
	StatsTTL         time.Duration `mapstructure:"stats_ttl" validate:"gte=0"`
}

// Counter is what a module offers the landing page: live counts of public
// things by name (questions, quizzes, articles, decks, learners).
type Counter interface {
	PublicCounts(ctx context.Context) (map[string]int64, error)
}

// Ports are what the site asks of other modules, filled once every module
// is built.
type Ports struct {
	Counters []Counter
}

// Deps are what the service is built from.
type Deps struct {
	DB      *db.DB
	Queue   *jobs.Queue
	Limiter *ratelimit.Limiter
	Log     *slog.Logger
	Config  Config
	Ports   *Ports
}

// Service holds the site's rules.
type Service struct {
	db      *db.DB
	store   *store.Store
	queue   *jobs.Queue
	limiter *ratelimit.Limiter
	log     *slog.Logger
	cfg     Config
	ports   *Ports
	captcha *http.Client

	statsMu sync.Mutex
	stats   map[string]int64
	statsAt time.Time
}

// New builds the service.
func New(d Deps) *Service {
	return &Service{db: d.DB, store: store.New(d.DB), queue: d.Queue, limiter: d.Limiter, log: d.Log,
		cfg: d.Config, ports: d.Ports, captcha: &http.Client{Timeout: d.Config.CaptchaTimeout}}
}
