// Package app is the analytics module's logic: item analysis kept up to
// date on every completed timed attempt (facility, point-biserial
// discrimination of the item and of each option, option selection rates),
// shown to the question's editors and as flags across the bank, and the
// peer comparison a learner sees on their own submitted attempt.
package app

import (
	"context"
	"math"

	"github.com/roundsedu/rounds/modules/analytics/internal/store"
	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Config is the analytics section.
type Config struct {
	// Flags only judge item versions with at least this many responses.
	MinResponses int `mapstructure:"min_responses" validate:"gte=1"`
}

// Attempts is the port to attempts (attempts.Facade satisfies it).
type Attempts interface {
	CompletedSitting(ctx context.Context, attemptID int64) (*attempts.Sitting, error)
}

// Bank is the port to the bank (bank.Facade satisfies it): who edits a
// question.
type Bank interface {
	CanEditQuestion(ctx context.Context, p auth.Principal, questionID int64) (bool, error)
	RequireQuestions(ctx context.Context, p auth.Principal, ids ...int64) error
}

// Ports are filled once every module is built.
type Ports struct {
	Attempts Attempts
	Bank     Bank
}

// Service holds the analytics rules.
type Service struct {
	db    *db.DB
	store *store.Store
	ports *Ports
	cfg   Config
}

// New builds the service.
func New(d *db.DB, ports *Ports, cfg Config) *Service {
	return &Service{db: d, store: store.New(d), ports: ports, cfg: cfg}
}

// Count adds a completed attempt to the statistics, once. Only timed
// attempts count: a study attempt shows each answer as it goes, so its
// responses say little about the item.
func (s *Service) Count(ctx context.Context, attemptID int64) error {
	sit, err := s.ports.Attempts.CompletedSitting(ctx, attemptID)
	if db.IsNotFound(err) {
		return nil // deleted before it was counted: nothing to add
	}
	if err != nil {
		return err
	}
	return s.db.Tx(ctx, func(ctx context.Context) error {
		first, err := s.store.MarkCounted(ctx, attemptID)
		if err != nil || !first || sit.Mode != bank.ModeTimed {
			return err
		}
		score := 0
		for _, r := range sit.Responses {
			if r.Correct {
				score++
			}
		}
		rows := make([]store.Counted, len(sit.Responses))
		for i, r := range sit.Responses {
			rows[i] = store.Counted{QuestionID: r.QuestionID, Version: r.Version, Options: r.Options,
				Answer: r.Answer, Correct: r.Correct, Rest: RestScore(score, len(sit.Responses), r.Correct)}
		}
		return s.store.AddSitting(ctx, sit.QuizID, int(math.Round(sit.Percentage)), rows)
	})
}

// Item is the analysis of one version of a question.
type Item struct {
	QuestionID     int64
	Version        int
	Responses      int64
	Facility       *float64 // share answered right
	Discrimination *float64 // point-biserial against the rest of the test
	BlankRate      *float64
	Options        []Option
}

// Option is how often one option (or, for fill-in, one answer given) was
// chosen, and how its choosers did on the rest of the test.
type Option struct {
	Option         string
	Chosen         int64
	Rate           float64
	Discrimination *float64
}

// items turns the stored sums into the analysis, per question id then
// version, newest version first.
func items(rows []store.ItemStats, opts []store.OptionStats) []Item {
	chosen := map[[2]int64][]store.OptionStats{}
	for _, o := range opts {
		k := [2]int64{o.QuestionID, int64(o.Version)}
		chosen[k] = append(chosen[k], o)
	}
	out := make([]Item, len(rows))
	for i, r := range rows {
		n := float64(r.Responses)
		it := Item{QuestionID: r.QuestionID, Version: r.Version, Responses: r.Responses,
			Facility: ratio(r.Correct, r.Responses), BlankRate: ratio(r.Blank, r.Responses),
			Discrimination: PointBiserial(Sums{N: n, SumY: float64(r.Correct), SumX: r.SumRest, SumXX: r.SumRestSq,
				SumXY: r.SumRestCorrect})}
		seen := map[string]bool{}
		for _, o := range chosen[[2]int64{r.QuestionID, int64(r.Version)}] {
			seen[o.Option] = true
			it.Options = append(it.Options, Option{Option: o.Option, Chosen: o.Chosen, Rate: round3(float64(o.Chosen) / n),
				Discrimination: PointBiserial(Sums{N: n, SumY: float64(o.Chosen), SumX: r.SumRest, SumXX: r.SumRestSq,
					SumXY: o.SumRest})})
		}
		for _, o := range r.Options { // options nobody chose
			if !seen[o] {
				it.Options = append(it.Options, Option{Option: o})
			}
		}
		out[i] = it
	}
	return out
}

func ratio(a, b int64) *float64 {
	if b == 0 {
		return nil
	}
	v := round3(float64(a) / float64(b))
	return &v
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// QuestionAnalysis is every analysed version of a question, for its
// editors (a moderator, or a grant covering it). Anyone else is refused
// (403) where they reach the question, and told it does not exist (404,
// the bank's words) where they do not.
func (s *Service) QuestionAnalysis(ctx context.Context, p auth.Principal, questionID int64) ([]Item, error) {
	ok, err := s.ports.Bank.CanEditQuestion(ctx, p, questionID)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("question not found")
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		if err := s.ports.Bank.RequireQuestions(ctx, p, questionID); err != nil {
			return nil, err
		}
		return nil, apperr.Forbiddenf("only the question's editors see its analysis")
	}
	rows, opts, err := s.store.Items(ctx, []int64{questionID})
	if err != nil {
		return nil, err
	}
	return items(rows, opts), nil
}

// Flags are the bank-wide filters of item analysis and their rules (on
// the facility and r, the point-biserial discrimination).
var Flags = map[string]string{
	"too_easy":                "facility >= 0.9",
	"too_hard":                "facility <= 0.3",
	"poorly_discriminating":   "r < 0.2",
	"negative_discrimination": "r < 0",
}

// Flagged lists the item versions a flag picks out, with enough responses
// to judge, most answered first, and how many there are.
func (s *Service) Flagged(ctx context.Context, flag string, limit, offset int) ([]Item, int64, error) {
	rule, ok := Flags[flag]
	if !ok {
		return nil, 0, apperr.Invalidf("flag", "unknown flag %q", flag)
	}
	rows, total, err := s.store.Flagged(ctx, rule, s.cfg.MinResponses, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.QuestionID
	}
	_, opts, err := s.store.Items(ctx, ids)
	return items(rows, opts), total, err
}

// Peers is how everyone else did on what the learner just sat.
type Peers struct {
	AttemptID, QuizID int64
	Percentage        float64
	Percentile        *float64 // among every timed sitting of the quiz; nil before any
	Sittings          int64
	Questions         []PeerQuestion
}

// PeerQuestion is one question of the attempt: the learner's answer beside
// how all learners answered the version they sat.
type PeerQuestion struct {
	QuestionID  int64
	Version     int
	YourAnswer  string
	Responses   int64
	CorrectRate *float64
	Options     []Option // rate only: discrimination is for editors
}

// Peers compares the caller's own submitted attempt with everyone who sat
// the same questions (only once it is submitted: before, it would hint at
// the answers).
func (s *Service) Peers(ctx context.Context, p auth.Principal, attemptID int64) (*Peers, error) {
	sit, err := s.ports.Attempts.CompletedSitting(ctx, attemptID)
	if db.IsNotFound(err) || (err == nil && sit.UserID != p.UserID) {
		return nil, apperr.NotFoundf("no submitted attempt %d of yours", attemptID)
	}
	if err != nil {
		return nil, err
	}
	dist, err := s.store.Distribution(ctx, sit.QuizID)
	if err != nil {
		return nil, err
	}
	out := &Peers{AttemptID: sit.AttemptID, QuizID: sit.QuizID, Percentage: sit.Percentage,
		Percentile: Percentile(dist, int(math.Round(sit.Percentage)))}
	for _, n := range dist {
		out.Sittings += n
	}
	ids := make([]int64, len(sit.Responses))
	for i, r := range sit.Responses {
		ids[i] = r.QuestionID
	}
	rows, opts, err := s.store.Items(ctx, ids)
	if err != nil {
		return nil, err
	}
	byVersion := map[[2]int64]Item{}
	for _, it := range items(rows, opts) {
		byVersion[[2]int64{it.QuestionID, int64(it.Version)}] = it
	}
	for _, r := range sit.Responses {
		it := byVersion[[2]int64{r.QuestionID, int64(r.Version)}]
		q := PeerQuestion{QuestionID: r.QuestionID, Version: r.Version, YourAnswer: r.Answer,
			Responses: it.Responses, CorrectRate: it.Facility}
		for _, o := range it.Options {
			q.Options = append(q.Options, Option{Option: o.Option, Chosen: o.Chosen, Rate: o.Rate})
		}
		out.Questions = append(out.Questions, q)
	}
	return out, nil
}
