// Package app is the share module's logic: a signed-in person makes an
// unguessable, expiring, revocable link to a published thing, and anyone
// holding the link reads that thing without signing in.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/share/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// Config is the share section.
type Config struct {
	DefaultDays    int `mapstructure:"default_days" validate:"gte=1,ltefield=MaxDays"`
	MaxDays        int `mapstructure:"max_days" validate:"gte=1,lte=3650"`
	LinksPerHour   int `mapstructure:"links_per_hour" validate:"gte=1"`
	OpensPerMinute int `mapstructure:"opens_per_minute" validate:"gte=1"`
}

// Target is what a module implements to let its things be shared.
type Target interface {
	// ShareKinds names the kinds of thing the module lets people share.
	ShareKinds() []string
	// ShareTarget checks p may share the thing (an *apperr.Error saying why
	// not: 404 when p cannot read it, 409 when it is not in a shareable
	// state, 403 for answers p may not hand out) and gives its title.
	ShareTarget(ctx context.Context, p auth.Principal, kind string, id int64, withAnswers bool) (title string, err error)
	// SharedView is what an anonymous visitor reads, if the thing is still
	// shareable (an *apperr.Error 410 otherwise). It is serialised as is.
	SharedView(ctx context.Context, kind string, id int64, withAnswers bool) (any, error)
}

// Targets are the modules offering things to share, by kind.
type Targets = module.Kinds[Target]

// Link is a stored link as its maker reads it (never with its token).
type Link = store.Link

// Service holds the sharing rules.
type Service struct {
	db      *db.DB
	store   *store.Store
	limiter *ratelimit.Limiter
	targets *Targets
	cfg     Config
	now     func() time.Time
}

// New builds the service.
func New(d *db.DB, limiter *ratelimit.Limiter, targets *Targets, cfg Config) *Service {
	return &Service{db: d, store: store.New(d), limiter: limiter, targets: targets, cfg: cfg, now: time.Now}
}

// NewLink is what a sharer asks for.
type NewLink struct {
	Kind        string
	TargetID    int64
	WithAnswers bool
	Days        int // 0: the default
}

// Create makes a link and returns it with its token, which is shown this
// once (only its hash is kept).
func (s *Service) Create(ctx context.Context, p auth.Principal, in NewLink) (*Link, string, error) {
	t, err := s.targets.Find("kind", in.Kind)
	if err != nil {
		return nil, "", err
	}
	days := in.Days
	if days == 0 {
		days = s.cfg.DefaultDays
	}
	if days < 1 || days > s.cfg.MaxDays {
		return nil, "", apperr.Invalidf("expires_in_days", "expires_in_days must be between 1 and %d", s.cfg.MaxDays)
	}
	if !p.IsModerator() {
		limit := ratelimit.Limit{Name: "share.create", Max: s.cfg.LinksPerHour, Window: time.Hour}
		if err := s.limiter.Allow(ctx, limit, "user:"+strconv.FormatInt(p.UserID, 10)); err != nil {
			return nil, "", err
		}
	}
	title, err := t.ShareTarget(ctx, p, in.Kind, in.TargetID, in.WithAnswers)
	if err != nil {
		return nil, "", err
	}
	token := rand.Text() // 26 base32 characters, 128 random bits
	l := &Link{TokenHash: hash(token), Kind: in.Kind, TargetID: in.TargetID, Title: title,
		WithAnswers: in.WithAnswers, CreatedBy: p.UserID, ExpiresAt: s.now().Add(time.Duration(days) * 24 * time.Hour)}
	if err := s.db.Tx(ctx, func(ctx context.Context) error { return s.store.Insert(ctx, l) }); err != nil {
		return nil, "", err
	}
	return l, token, nil
}

// Mine lists the caller's links, newest first.
func (s *Service) Mine(ctx context.Context, p auth.Principal, limit, offset int) ([]Link, int64, error) {
	return s.store.ByCreator(ctx, p.UserID, limit, offset)
}

// Revoke ends a link: its maker's, or anyone's for a moderator. Someone
// else's link answers 404, as a missing one does. Revoking twice is fine.
func (s *Service) Revoke(ctx context.Context, p auth.Principal, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		l, err := s.store.Locked(ctx, id)
		if db.IsNotFound(err) || err == nil && l.CreatedBy != p.UserID && !p.IsModerator() {
			return apperr.NotFoundf("share link %d not found", id)
		}
		if err != nil || l.RevokedAt != nil {
			return err
		}
		return s.store.Revoke(ctx, id, p.UserID)
	})
}

// Opened is what a link shows: the link and its target's view.
type Opened struct {
	Link *Link
	View any
}

// Open reads what a token shows. Unknown tokens are 404; revoked and
// expired links, and targets no longer shareable, are 410. Anonymous opens
// are limited per client address.
func (s *Service) Open(ctx context.Context, token, client string) (*Opened, error) {
	limit := ratelimit.Limit{Name: "share.open", Max: s.cfg.OpensPerMinute, Window: time.Minute}
	if err := s.limiter.Allow(ctx, limit, client); err != nil {
		return nil, err
	}
	l, err := s.store.ByToken(ctx, hash(token))
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("no share link has this token")
	}
	if err != nil {
		return nil, err
	}
	switch {
	case l.RevokedAt != nil:
		return nil, apperr.Gone("this share link was revoked")
	case !s.now().Before(l.ExpiresAt):
		return nil, apperr.Gone("this share link expired on " + l.ExpiresAt.UTC().Format("2 January 2006"))
	}
	t, err := s.targets.Find("kind", l.Kind)
	if err != nil {
		return nil, apperr.Gone("what this link shared can no longer be shown")
	}
	view, err := t.SharedView(ctx, l.Kind, l.TargetID, l.WithAnswers)
	if err != nil {
		return nil, err
	}
	if err := s.store.Viewed(ctx, l.ID); err != nil {
		return nil, err
	}
	return &Opened{Link: l, View: view}, nil
}

// Status says whether a link still opens.
func (s *Service) Status(l *Link) string {
	switch {
	case l.RevokedAt != nil:
		return "revoked"
	case !s.now().Before(l.ExpiresAt):
		return "expired"
	}
	return "active"
}

// hash is what is stored of a token; tokens are long random strings, so a
// plain SHA-256 (no salt, no stretching) cannot be reversed.
func hash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}
