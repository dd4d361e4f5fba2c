// Package app is the feedback module's logic: a learner reports a problem
// with something they read (a question now; an article or a card once
// their modules offer them), moderators work through the queue and
// resolve each report with a note, and the reporter sees the outcome.
package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/feedback/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/module"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/text"
)

// Filter picks the reports of the moderators' queue.
type Filter = store.Filter

// Config is the feedback section.
type Config struct {
	ReportsPerHour int `mapstructure:"reports_per_hour" validate:"gte=1"`
}

// Target is what a module implements to let learners report problems with
// its things: the kinds it owns, and a check that the caller may read the
// one they report (an *apperr.Error 404 when not), giving its title.
type Target interface {
	FeedbackKinds() []string
	FeedbackTarget(ctx context.Context, p auth.Principal, kind string, id int64) (title string, err error)
}

// Targets are the modules offering things to report, by kind.
type Targets = module.Kinds[Target]

// Types are the kinds of problem a report names.
var Types = []string{"wrong_answer", "unclear", "typo", "outdated", "broken_media", "other"}

// Report is a stored report: the row as moderators and reporters read it.
type Report = store.Report

// Service holds the feedback rules.
type Service struct {
	db      *db.DB
	store   *store.Store
	limiter *ratelimit.Limiter
	cfg     Config
	targets *Targets
}

// New builds the service.
func New(d *db.DB, limiter *ratelimit.Limiter, targets *Targets, cfg Config) *Service {
	return &Service{db: d, store: store.New(d), limiter: limiter, targets: targets, cfg: cfg}
}

// NewReport is what a learner reports.
type NewReport struct {
	Kind     string
	TargetID int64
	Type     string
	Text     string
}

// File stores a report on something the caller may read. One open report
// per person per target: a second is refused (409) until the first is
// resolved. Learners are limited to reports_per_hour.
func (s *Service) File(ctx context.Context, p auth.Principal, in NewReport) (*Report, error) {
	body := strings.TrimSpace(in.Text)
	if body == "" {
		return nil, apperr.Invalidf("text", "say what is wrong: text must not be blank")
	}
	t, err := s.targets.Find("kind", in.Kind)
	if err != nil {
		return nil, err
	}
	if !p.IsModerator() {
		limit := ratelimit.Limit{Name: "feedback.report", Max: s.cfg.ReportsPerHour, Window: time.Hour}
		if err := s.limiter.Allow(ctx, limit, "user:"+itoa(p.UserID)); err != nil {
			return nil, err
		}
	}
	title, err := t.FeedbackTarget(ctx, p, in.Kind, in.TargetID)
	if err != nil {
		return nil, err
	}
	r := &Report{Kind: in.Kind, TargetID: in.TargetID, Title: text.Clip(title, 200), ReporterID: p.UserID, Type: in.Type, Text: body}
	err = s.db.Tx(ctx, func(ctx context.Context) error { return s.store.Insert(ctx, r) })
	if errors.Is(err, store.ErrOpenAlready) {
		return nil, apperr.Conflictf("you already reported this %s and your report is still open", in.Kind)
	}
	return r, err
}

// Mine lists the caller's own reports with their outcome, newest first.
func (s *Service) Mine(ctx context.Context, p auth.Principal, limit, offset int) ([]Report, int64, error) {
	return s.store.List(ctx, store.Filter{ReporterID: p.UserID}, limit, offset)
}

// Queue is the moderators' listing.
func (s *Service) Queue(ctx context.Context, f store.Filter, limit, offset int) ([]Report, int64, error) {
	return s.store.List(ctx, f, limit, offset)
}

// Resolve closes an open report as resolved or dismissed, with a note the
// reporter reads. A closed report is not reopened here: the reporter files
// a new one.
func (s *Service) Resolve(ctx context.Context, p auth.Principal, id int64, status, note string) (*Report, error) {
	var out *Report
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		r, err := s.store.Locked(ctx, id)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("report %d not found", id)
		}
		if err != nil {
			return err
		}
		if r.Status != "open" {
			return apperr.Conflictf("report %d is already %s", id, r.Status)
		}
		r.Status, r.ResolutionNote, r.ResolvedBy = status, strings.TrimSpace(note), &p.UserID
		out = r
		return s.store.Resolve(ctx, r)
	})
	return out, err
}

// OpenCounts counts the open reports on targets of a kind, for the
// editors' marks.
func (s *Service) OpenCounts(ctx context.Context, kind string, ids []int64) (map[int64]int64, error) {
	if _, err := s.targets.Find("kind", kind); err != nil {
		return nil, err
	}
	return s.store.OpenCounts(ctx, kind, ids)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
