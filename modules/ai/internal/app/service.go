// Package app is the AI module's logic: which model performs which task
// (admins), the tutor beside a question, speech, and the usage that quotas
// and the admin's view read. Every model call goes through the gateway,
// never inside a database transaction.
package app

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/settings"
)

// Config is the ai section.
type Config struct {
	BaseURL                  string        `mapstructure:"base_url"`
	APIKey                   string        `mapstructure:"api_key"`
	KeyEncryptionKey         string        `mapstructure:"key_encryption_key"`
	PreviousKeyEncryptionKey string        `mapstructure:"previous_key_encryption_key"`
	Timeout                  time.Duration `mapstructure:"timeout" validate:"gt=0"`
	Retries                  int           `mapstructure:"retries" validate:"gte=0,lte=5"`
	DefaultModel             string        `mapstructure:"default_model"`
	Voices                   []string      `mapstructure:"voices" validate:"min=1"`
	TutorPer10Minutes        int           `mapstructure:"tutor_per_10_minutes" validate:"gte=1"`
	SpeechPerHour            int           `mapstructure:"speech_per_hour" validate:"gte=1"`
	AIModePer10Minutes       int           `mapstructure:"ai_mode_per_10_minutes" validate:"gte=1"`
	ExtractionTimeout        time.Duration `mapstructure:"extraction_timeout" validate:"gt=0"`
	EmbeddingTimeout         time.Duration `mapstructure:"embedding_timeout" validate:"gt=0"`
	RerankTimeout            time.Duration `mapstructure:"rerank_timeout" validate:"gt=0"`
	STTPerHour               int           `mapstructure:"stt_per_hour" validate:"gte=1"`
}

// Tasks are the eight things a model can be configured for.
var Tasks = []string{"teach", "extraction", "article", "flashcard", "keyword", "tool", "tts", "stt"}

// Bank is what the tutor asks the bank (implemented by bank.Module).
type Bank interface {
	TutorQuestion(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*bank.TutorQuestion, error)
	QuestionStems(ctx context.Context, p auth.Principal, ids []int64) (map[int64]string, error)
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]bank.Filing, error)
}

// Library is what AI Mode and the tutor ask the library (implemented by
// library.Module): search finds article sections, a learner is sent to the
// article; the tutor reads the published articles claiming a question.
type Library interface {
	ArticlesOfSections(ctx context.Context, sectionIDs []int64) (map[int64]int64, error)
	ClaimingSections(ctx context.Context, questionID int64, articles, perArticle, chars int) ([]library.ClaimedSection, error)
}

// Ports are filled once every module is built.
type Ports struct {
	Bank     Bank
	Search   search.Facade
	Library  Library
	Attempts Attempts
}

// Setting keys an admin changes at run time: calls per person per UTC day,
// 0 for no quota.
const (
	SettingTutorQuota  = "tutor_daily_quota"
	SettingSpeechQuota = "speech_daily_quota"
)

// Service holds the AI rules.
type Service struct {
	db       *db.DB
	store    *store.Store
	limiter  *ratelimit.Limiter
	settings *settings.Registry
	gw       *gateway.Gateway
	cfg      Config
	ports    *Ports
	log      *slog.Logger
	sealers  []cipher.AEAD // the current key first, then the previous one
	now      func() time.Time
}

// New builds the service; a malformed encryption key stops the boot.
func New(d *db.DB, limiter *ratelimit.Limiter, reg *settings.Registry, gw *gateway.Gateway, ports *Ports,
	cfg Config, log *slog.Logger) (*Service, error) {
	s := &Service{db: d, store: store.New(d), limiter: limiter, settings: reg, gw: gw, cfg: cfg, ports: ports,
		log: log, now: time.Now}
	for _, k := range []string{cfg.KeyEncryptionKey, cfg.PreviousKeyEncryptionKey} {
		if k == "" {
			continue
		}
		aead, err := sealer(k)
		if err != nil {
			return nil, fmt.Errorf("ai: key_encryption_key: %w", err)
		}
		s.sealers = append(s.sealers, aead)
	}
	if cfg.KeyEncryptionKey == "" && cfg.PreviousKeyEncryptionKey != "" {
		return nil, errors.New("ai: previous_key_encryption_key is set without key_encryption_key")
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || u.Hostname() == "" {
			return nil, fmt.Errorf("ai: base_url %q is not a URL", cfg.BaseURL)
		}
		if err := gateway.CheckHost(u.Hostname()); err != nil {
			return nil, fmt.Errorf("ai: base_url: %w", err)
		}
	}
	for _, q := range quotas {
		reg.Register(settings.Setting{Key: q.key, Label: q.label, Default: 0, Whole: &settings.Range{Min: 0, Max: 1_000_000},
			Help: "How many " + q.calls + " one person may make per UTC day (administrators and unthrottled people are exempt). 0 means no daily limit; the per-minute rate limit still applies."})
	}
	return s, nil
}

// quotas are the daily quota keys with their labels and what they count.
var quotas = []struct{ key, label, calls string }{
	{SettingTutorQuota, "Tutor questions a day", "questions to the tutor"},
	{SettingSpeechQuota, "Read-aloud requests a day", "read-aloud (text to speech) requests"},
	{SettingAIModeQuota, "AI Mode questions a day", "AI Mode questions"},
	{SettingSTTQuota, "Transcriptions a day", "transcriptions (speech to text)"},
}

func sealer(b64 string) (cipher.AEAD, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) != 32 {
		return nil, errors.New("must be 32 bytes in base64 (openssl rand -base64 32)")
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// seal encrypts an api key with the current key (nonce first).
func (s *Service) seal(plain string) ([]byte, error) {
	if len(s.sealers) == 0 {
		return nil, apperr.Invalidf("api_key", "api keys cannot be stored until ai.key_encryption_key is configured")
	}
	aead := s.sealers[0]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, []byte(plain), nil), nil
}

// open decrypts a sealed api key with the current key, else the previous
// one (rotation: configure the new key, move the old one to previous).
func (s *Service) open(sealed []byte) (string, error) {
	for _, aead := range s.sealers {
		n := aead.NonceSize()
		if len(sealed) < n {
			break
		}
		if plain, err := aead.Open(nil, sealed[:n], sealed[n:], nil); err == nil {
			return string(plain), nil
		}
	}
	return "", errors.New("ai: a stored api key opens with neither the current nor the previous key_encryption_key")
}

// target is where a call for row m goes: the proxy, m's own key or the
// proxy's.
func (s *Service) target(m *store.Model) (gateway.Target, error) {
	t := gateway.Target{BaseURL: s.cfg.BaseURL, APIKey: s.cfg.APIKey, Model: m.ModelID}
	if m.APIKey != nil {
		key, err := s.open(m.APIKey)
		if err != nil {
			return t, err
		}
		t.APIKey = key
	}
	return t, nil
}

// limit applies a per-person rate and the daily quota of a task; admins
// and unthrottled people are exempt from both.
func (s *Service) limit(ctx context.Context, p auth.Principal, task string, rate ratelimit.Limit, quotaKey string) error {
	if p.IsAdmin() || p.Unthrottled {
		return nil
	}
	if err := s.limiter.Allow(ctx, rate, fmt.Sprintf("user:%d", p.UserID)); err != nil {
		return err
	}
	var quota float64
	if err := s.settings.Get(ctx, quotaKey, &quota); err != nil {
		return err
	}
	if quota == 0 {
		return nil
	}
	now := s.now().UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	used, err := s.store.CallsSince(ctx, p.UserID, task, midnight)
	if err != nil {
		return err
	}
	if used >= int64(quota) {
		return &apperr.Error{Code: apperr.RateLimited, RetryAfter: midnight.Add(24 * time.Hour).Sub(now),
			Message: fmt.Sprintf("today's %s quota of %d is used up; it renews at midnight UTC", task, int64(quota))}
	}
	return nil
}

// record stores one call's usage in its own transaction (the call is made).
func (s *Service) record(ctx context.Context, p auth.Principal, task, model string, prompt, completion int64) {
	s.recordFor(ctx, p.UserID, task, model, prompt, completion)
}

// recordFor is record for a user id; 0 is the service's own work (jobs).
func (s *Service) recordFor(ctx context.Context, userID int64, task, model string, prompt, completion int64) {
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		return s.store.Record(ctx, &store.Usage{UserID: userID, Task: task, ModelID: model,
			PromptTokens: prompt, CompletionTokens: completion})
	})
	if err != nil {
		s.log.WarnContext(ctx, "ai: usage not recorded", "error", err, "task", task)
	}
}
