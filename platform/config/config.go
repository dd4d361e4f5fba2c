// Package config loads the service configuration: the embedded
// config/default.yaml, then any files named on the command line or in
// ROUNDS_CONFIG, then environment variables (ROUNDS_<SECTION>_<KEY>, and plain
// DATABASE_URL). The result is validated once at start; a bad value stops the
// process with a message naming the key.
//
// The platform's sections are the fields of Config. A module owns its own
// sections: it ships their defaults (a documented YAML file in its folder)
// and decodes them with Section, so its keys, defaults and validation live
// with the module while files and environment variables override them the
// same way as the platform's.
package config

import (
	"time"

	"github.com/spf13/viper"
)

// Config is the whole effective configuration.
type Config struct {
	Service   Service   `mapstructure:"service"`
	HTTP      HTTP      `mapstructure:"http"`
	Metrics   Metrics   `mapstructure:"metrics"`
	Log       Log       `mapstructure:"log"`
	Database  Database  `mapstructure:"database"`
	Auth      Auth      `mapstructure:"auth"`
	Events    Events    `mapstructure:"events"`
	Jobs      Jobs      `mapstructure:"jobs"`
	Scheduler Scheduler `mapstructure:"scheduler"`
	Storage   Storage   `mapstructure:"storage"`
	DevIdP    DevIdP    `mapstructure:"devidp"`

	// Modules holds the top-level sections the platform does not own, as
	// read from files; each module decodes its own (Section), and Check
	// refuses any section nobody claimed (a typo).
	Modules map[string]any `mapstructure:",remain"`

	src      *viper.Viper
	sections map[string]any // decoded module sections, for Redacted and Check
}

// Service names the deployment.
type Service struct {
	Name      string `mapstructure:"name" validate:"required,alphanum"`
	PublicURL string `mapstructure:"public_url" validate:"required,url"`
}

// HTTP is the public API listener.
type HTTP struct {
	Addr              string        `mapstructure:"addr" validate:"required"`
	ReadHeaderTimeout time.Duration `mapstructure:"read_header_timeout" validate:"gt=0"`
	ReadTimeout       time.Duration `mapstructure:"read_timeout" validate:"gtefield=ReadHeaderTimeout"`
	UploadTimeout     time.Duration `mapstructure:"upload_timeout" validate:"gtefield=ReadTimeout"`
	IdleTimeout       time.Duration `mapstructure:"idle_timeout" validate:"gt=0"`
	ShutdownTimeout   time.Duration `mapstructure:"shutdown_timeout" validate:"gt=0"`
	TrustedProxies    []string      `mapstructure:"trusted_proxies" validate:"dive,cidr|ip"`
}

// Metrics is the Prometheus listener, kept apart from the public one.
type Metrics struct {
	Enabled   bool   `mapstructure:"enabled"`
	Addr      string `mapstructure:"addr" validate:"required_if=Enabled true"`
	Profiling bool   `mapstructure:"profiling"`
}

// Log controls the structured log on stdout.
type Log struct {
	Level  string `mapstructure:"level" validate:"oneof=debug info warn error"`
	Format string `mapstructure:"format" validate:"oneof=json text"`
}

// Database is the Postgres connection and pool.
type Database struct {
	URL             string        `mapstructure:"url" validate:"required,startswith=postgres" secret:"url"`
	ReadURL         string        `mapstructure:"read_url" validate:"omitempty,startswith=postgres" secret:"url"`
	ReadMaxLag      time.Duration `mapstructure:"read_max_lag" validate:"gt=0"`
	ReadCheck       time.Duration `mapstructure:"read_check" validate:"gt=0"`
	MaxOpenConns    int           `mapstructure:"max_open_conns" validate:"gte=0"`
	MaxIdleConns    int           `mapstructure:"max_idle_conns" validate:"gte=0"`
	ConnMaxLifetime time.Duration `mapstructure:"conn_max_lifetime" validate:"gte=0"`
	MigrateOnStart  bool          `mapstructure:"migrate_on_start"`
	SlowQuery       time.Duration `mapstructure:"slow_query" validate:"gte=0"`
}

// Auth signs and verifies access tokens.
type Auth struct {
	TokenSecret  string        `mapstructure:"token_secret" validate:"min=32" secret:"true"`
	RoleCacheTTL time.Duration `mapstructure:"role_cache_ttl" validate:"gte=0"`
}

// Events tunes the Postgres-backed event bus.
type Events struct {
	PollInterval    time.Duration `mapstructure:"poll_interval" validate:"gt=0"`
	MaxRetries      int           `mapstructure:"max_retries" validate:"gte=0"`
	RetryInterval   time.Duration `mapstructure:"retry_interval" validate:"gt=0"`
	HandlerDeadline time.Duration `mapstructure:"handler_deadline" validate:"gt=0"`
}

// Jobs tunes the on-demand jobs (River) and the workers that run them.
type Jobs struct {
	Concurrency   int           `mapstructure:"concurrency" validate:"gte=1"`
	PollInterval  time.Duration `mapstructure:"poll_interval" validate:"gt=0"`
	FetchCooldown time.Duration `mapstructure:"fetch_cooldown" validate:"gte=1ms"`
	RescueAfter   time.Duration `mapstructure:"rescue_after" validate:"gte=1s"`
	MaxAttempts   int           `mapstructure:"max_attempts" validate:"gte=1"`
	MaxPending    int           `mapstructure:"max_pending" validate:"gte=0"`
	Retention     time.Duration `mapstructure:"retention" validate:"gte=1h"`
	PollOnly      bool          `mapstructure:"poll_only"`
}

// Scheduler runs the periodic jobs on one leader.
type Scheduler struct {
	LeaderCheck time.Duration `mapstructure:"leader_check" validate:"gt=0"`
}

// Storage is where uploaded files live.
type Storage struct {
	URL string `mapstructure:"url" validate:"required" secret:"url"`
}

// DevIdP is the built-in development OpenID provider. Never on unless set,
// and then only on a loopback address unless AllowPublic says otherwise
// (Validate).
type DevIdP struct {
	Enabled     bool   `mapstructure:"enabled"`
	Addr        string `mapstructure:"addr" validate:"required_if=Enabled true"`
	AllowPublic bool   `mapstructure:"allow_public"`
	Profiling   bool   `mapstructure:"profiling"`
	Issuer      string `mapstructure:"issuer" validate:"required_if=Enabled true,omitempty,url"`
}
