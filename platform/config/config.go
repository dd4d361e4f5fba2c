// Package config loads the service configuration: the embedded
// config/default.yaml, then any files named on the command line or in
// ROUNDS_CONFIG, then environment variables (ROUNDS_<SECTION>_<KEY>, and plain
// DATABASE_URL). The result is validated once at start; a bad value stops the
// process with a message naming the key.
//
// Each section is its own struct so the composition root can hand a module
// only the section it owns.
package config

import "time"

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
	OIDC      OIDC      `mapstructure:"oidc"`
	DevIdP    DevIdP    `mapstructure:"devidp"`
	Identity  Identity  `mapstructure:"identity"`
	Bank      Bank      `mapstructure:"bank"`
	Attempts  Attempts  `mapstructure:"attempts"`
	Drafts    Drafts    `mapstructure:"drafts"`
	Search    Search    `mapstructure:"search"`
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
	ShutdownTimeout   time.Duration `mapstructure:"shutdown_timeout" validate:"gt=0"`
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
	MaxOpenConns    int           `mapstructure:"max_open_conns" validate:"gte=1"`
	MaxIdleConns    int           `mapstructure:"max_idle_conns" validate:"gte=0,ltefield=MaxOpenConns"`
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

// Jobs tunes the on-demand task runner.
type Jobs struct {
	Concurrency  int           `mapstructure:"concurrency" validate:"gte=1"`
	PollInterval time.Duration `mapstructure:"poll_interval" validate:"gt=0"`
	Lease        time.Duration `mapstructure:"lease" validate:"gte=1s"`
	MaxAttempts  int           `mapstructure:"max_attempts" validate:"gte=1"`
	MaxPending   int           `mapstructure:"max_pending" validate:"gte=0"`
}

// Scheduler runs the periodic jobs on one leader.
type Scheduler struct {
	LeaderCheck time.Duration `mapstructure:"leader_check" validate:"gt=0"`
}

// Storage is where uploaded files live.
type Storage struct {
	URL string `mapstructure:"url" validate:"required" secret:"url"`
}

// OIDC is the external identity provider, the only way in.
type OIDC struct {
	Issuer          string   `mapstructure:"issuer" validate:"omitempty,url"`
	ClientID        string   `mapstructure:"client_id" validate:"required_with=Issuer"`
	ClientSecret    string   `mapstructure:"client_secret" secret:"true"`
	RedirectURL     string   `mapstructure:"redirect_url" validate:"omitempty,url"`
	Scopes          []string `mapstructure:"scopes"`
	RoleClaim       string   `mapstructure:"role_claim"`
	AdminGroups     []string `mapstructure:"admin_groups"`
	ModeratorGroups []string `mapstructure:"moderator_groups"`
	ClientURL       string   `mapstructure:"client_url" validate:"required_with=Issuer,omitempty,url"`
}

// DevIdP is the built-in development OpenID provider. Never on unless set.
type DevIdP struct {
	Enabled   bool   `mapstructure:"enabled"`
	Addr      string `mapstructure:"addr" validate:"required_if=Enabled true"`
	Profiling bool   `mapstructure:"profiling"`
	Issuer    string `mapstructure:"issuer" validate:"required_if=Enabled true,omitempty,url"`
}

// Identity holds account policy.
type Identity struct {
	BootstrapAdminEmail string        `mapstructure:"bootstrap_admin_email" validate:"omitempty,email"`
	CodeTTL             time.Duration `mapstructure:"code_ttl" validate:"gt=0"`
	RefreshTTL          time.Duration `mapstructure:"refresh_ttl" validate:"gt=0"`
	RefreshMaxPerHour   int           `mapstructure:"refresh_max_per_hour" validate:"gte=1"`
}

// Bank holds question-bank tuning.
type Bank struct {
	SeedDemo bool `mapstructure:"seed_demo"`
}

// Attempts holds saved-progress policy.
type Attempts struct {
	ProgressTTL   time.Duration `mapstructure:"progress_ttl" validate:"gt=0"`
	DeviceLock    time.Duration `mapstructure:"device_lock" validate:"gt=0"`
	SweepInterval time.Duration `mapstructure:"sweep_interval" validate:"gt=0"`
	TimerGrace    time.Duration `mapstructure:"timer_grace" validate:"gte=0"`
}

// Drafts holds document upload policy.
type Drafts struct {
	MaxUploadSize int64         `mapstructure:"max_upload_size" validate:"gt=0"`
	StuckAfter    time.Duration `mapstructure:"stuck_after" validate:"gt=0"`
}

// Search holds the embedding and rerank endpoints.
type Search struct {
	EmbeddingDims  int           `mapstructure:"embedding_dims" validate:"gte=1,lte=2000"`
	EmbeddingURL   string        `mapstructure:"embedding_url" validate:"omitempty,url"`
	EmbeddingKey   string        `mapstructure:"embedding_key" secret:"true"`
	EmbeddingModel string        `mapstructure:"embedding_model" validate:"required_with=EmbeddingURL"`
	RerankURL      string        `mapstructure:"rerank_url" validate:"omitempty,url"`
	RerankKey      string        `mapstructure:"rerank_key" secret:"true"`
	RerankTimeout  time.Duration `mapstructure:"rerank_timeout" validate:"gt=0"`
	// Embedding work off the request path.
	EmbeddingTimeout time.Duration `mapstructure:"embedding_timeout" validate:"gt=0"`
	EmbeddingBatch   int           `mapstructure:"embedding_batch" validate:"gte=1,lte=2048"`
	RetryInterval    time.Duration `mapstructure:"retry_interval" validate:"gt=0"`
	RetryMaxPerRun   int           `mapstructure:"retry_max_per_run" validate:"gte=1"`
	// Ranking.
	HNSWEfSearch        int     `mapstructure:"hnsw_ef_search" validate:"gte=60,lte=1000"`
	HybridMinSimilarity float64 `mapstructure:"hybrid_min_similarity" validate:"gte=0,lte=1"`
}
