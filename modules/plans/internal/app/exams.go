package app

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/plans/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/opt"
)

// Sittings is what plans asks of attempts (attempts.Facade satisfies it).
type Sittings interface {
	CompletedSitting(ctx context.Context, attemptID int64) (*attempts.Sitting, error)
}

// Decks is what a flashcards module offers to check the decks a weak
// domain points to; until one is in the app, deck links are refused.
type Decks interface {
	DeckExists(ctx context.Context, deckID int64) (bool, error)
}

// Exam and ExamDomain are the stored shapes.
type (
	Exam       = store.Exam
	ExamDomain = store.ExamDomain
)

// ExamDomainIn is a blueprint domain of an exam with where a weak learner
// is sent.
type ExamDomainIn struct {
	BlueprintDomain
	ArticleIDs, DeckIDs []int64
}

// NewExam is a timed paper drawn to a blueprint.
type NewExam struct {
	Title            string
	Size             int
	TimeLimitMinutes int
	Publish          bool
	Domains          []ExamDomainIn
	Seed             *uint64
}

// CreateExam draws one paper to the blueprint (the papers shape), or
// refuses naming each short domain.
func (s *Service) CreateExam(ctx context.Context, p auth.Principal, in NewExam) (*Exam, error) {
	title, err := checkText("title", in.Title, 200, true)
	if err != nil {
		return nil, err
	}
	bp := Blueprint{Title: title, Shape: ShapePapers, Papers: 1, Size: in.Size, Seed: in.Seed}
	doms := make([]ExamDomain, len(in.Domains))
	for i, d := range in.Domains {
		bp.Domains = append(bp.Domains, d.BlueprintDomain)
		if err := s.checkLinks(ctx, i, d.ArticleIDs, d.DeckIDs); err != nil {
			return nil, err
		}
		doms[i] = ExamDomain{Name: d.Name, ArticleIDs: opt.NonNil(d.ArticleIDs), DeckIDs: opt.NonNil(d.DeckIDs)}
	}
	drawn, _, err := s.draw(ctx, p, bp)
	if err != nil {
		return nil, err
	}
	e := &Exam{Title: title, TimeLimitMinutes: in.TimeLimitMinutes, QuestionIDs: drawn[0].QuestionIDs,
		QuestionDomains: drawn[0].Domains, Domains: doms, CreatedBy: p.UserID}
	if in.Publish {
		e.IsPublished = 1
	}
	return e, s.db.Tx(ctx, func(ctx context.Context) error { return s.store.InsertExam(ctx, e) })
}

func (s *Service) checkLinks(ctx context.Context, i int, articles, decks []int64) error {
	for _, id := range articles {
		field := fmt.Sprintf("body.domains[%d].article_ids", i)
		if len(s.ports.Articles) == 0 {
			return apperr.Invalidf(field, "articles cannot be linked: this service has no library module, so no article can be checked")
		}
		ok, _, err := s.ports.Articles[0].ArticleSectionExists(ctx, id, "")
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Invalidf(field, "article %d does not exist", id)
		}
	}
	for _, id := range decks {
		field := fmt.Sprintf("body.domains[%d].deck_ids", i)
		if len(s.ports.Decks) == 0 {
			return apperr.Invalidf(field, "decks cannot be linked: this service has no flashcards module, so no deck can be checked")
		}
		ok, err := s.ports.Decks[0].DeckExists(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Invalidf(field, "deck %d does not exist", id)
		}
	}
	return nil
}

// Exam reads an exam p may see: published, or any for moderators.
func (s *Service) Exam(ctx context.Context, p auth.Principal, id int64) (*Exam, error) {
	e, err := s.store.Exam(ctx, id)
	if db.IsNotFound(err) || (err == nil && e.IsPublished != 1 && !p.IsModerator()) {
		return nil, apperr.NotFoundf("exam %d not found", id)
	}
	return e, err
}

// Exams lists the exams p may see (published ones; moderators all),
// newest first.
func (s *Service) Exams(ctx context.Context, p auth.Principal, limit, offset int) ([]Exam, int64, error) {
	return s.store.Exams(ctx, p.IsModerator(), limit, offset)
}

// PublishExam opens an exam to learners or closes it. Closing hides it and
// stops new starts; results already recorded stay.
func (s *Service) PublishExam(ctx context.Context, id int64, published bool) (*Exam, error) {
	flag := 0
	if published {
		flag = 1
	}
	var out *Exam
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		var err error
		out, err = s.store.SetExamPublished(ctx, id, flag)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("exam %d not found", id)
		}
		return err
	})
	return out, err
}

// StartExam builds or reuses the caller's timed saved test of the paper.
func (s *Service) StartExam(ctx context.Context, p auth.Principal, id int64) (*Started, error) {
	e, err := s.Exam(ctx, p, id)
	if err != nil {
		return nil, err
	}
	quiz, err := s.store.Sitting(ctx, id, p.UserID)
	if err != nil {
		return nil, err
	}
	out := &Started{Mode: bank.ModeTimed}
	if out.QuizID, out.Reused, err = s.savedTest(ctx, p, quiz, e.Title, bank.ModeTimed, e.TimeLimitMinutes, e.QuestionIDs); err != nil {
		return nil, err
	}
	return out, s.db.Tx(ctx, func(ctx context.Context) error { return s.store.SaveSitting(ctx, id, p.UserID, out.QuizID) })
}

// RecordSitting stores the result of a completed timed attempt of an
// exam's saved test (the first per learner counts; redelivery changes
// nothing). A sitting in any other mode is no result: an exam is sat timed
// (attempts refuses another mode for a saved test; this holds for any
// sitting stored before it did). The sitting is read from attempts before
// the transaction.
func (s *Service) RecordSitting(ctx context.Context, userID, quizID, attemptID int64, at time.Time) error {
	e, err := s.store.ExamOfQuiz(ctx, quizID, userID)
	if err != nil || e == nil {
		return err
	}
	if _, err := s.store.Result(ctx, e.ID, userID); err == nil || !db.IsNotFound(err) {
		return err // the first result stands
	}
	sit, err := s.ports.Attempts.CompletedSitting(ctx, attemptID)
	if err != nil {
		return err
	}
	if sit.Mode != bank.ModeTimed {
		return nil
	}
	domainOf := map[int64]int{}
	for i, id := range e.QuestionIDs {
		domainOf[id] = e.QuestionDomains[i]
	}
	r := &store.Result{ExamID: e.ID, UserID: userID, AttemptID: attemptID, Total: len(e.QuestionIDs), CompletedAt: at,
		DomainCorrect: make([]int, len(e.Domains)), DomainTotal: make([]int, len(e.Domains))}
	for _, d := range e.QuestionDomains {
		r.DomainTotal[d]++
	}
	for _, resp := range sit.Responses {
		if d, ok := domainOf[resp.QuestionID]; ok && resp.Correct {
			r.Score++
			r.DomainCorrect[d]++
		}
	}
	return s.db.Tx(ctx, func(ctx context.Context) error { return s.store.InsertResult(ctx, r) })
}

// DomainScore is the learner's score in one domain.
type DomainScore struct {
	ExamDomain
	Correct, Total int
	Percentage     float64
}

// Report is a learner's exam result.
type Report struct {
	Exam       *Exam
	Score      int
	Total      int
	Percentage float64
	Percentile float64
	Sitters    int
	Domains    []DomainScore
	Weakest    []DomainScore
}

// weakestShown is how many of the lowest domains the report points at.
const weakestShown = 3

// Report gives the caller's result (still readable once the exam is
// closed): score per domain, percentile among all who sat the paper (share
// below plus half the ties, self included), and the weakest domains
// (lowest percentage first, ties in blueprint order) with their articles
// and decks.
func (s *Service) Report(ctx context.Context, p auth.Principal, id int64) (*Report, error) {
	e, err := s.store.Exam(ctx, id)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("exam %d not found", id)
	}
	if err != nil {
		return nil, err
	}
	r, err := s.store.Result(ctx, id, p.UserID)
	if db.IsNotFound(err) {
		if e.IsPublished != 1 && !p.IsModerator() {
			return nil, apperr.NotFoundf("exam %d not found", id)
		}
		return nil, apperr.NotFoundf("you have no result for exam %d: sit it first", id)
	}
	if err != nil {
		return nil, err
	}
	below, equal, all, err := s.store.Standing(ctx, id, r.Score)
	if err != nil {
		return nil, err
	}
	out := &Report{Exam: e, Score: r.Score, Total: r.Total, Percentage: pct(r.Score, r.Total), Sitters: all,
		Percentile: round1(100 * (float64(below) + 0.5*float64(equal)) / float64(all))}
	for i, d := range e.Domains {
		out.Domains = append(out.Domains, DomainScore{ExamDomain: d, Correct: r.DomainCorrect[i], Total: r.DomainTotal[i],
			Percentage: pct(r.DomainCorrect[i], r.DomainTotal[i])})
	}
	weak := append([]DomainScore(nil), out.Domains...)
	sort.SliceStable(weak, func(a, b int) bool { return weak[a].Percentage < weak[b].Percentage })
	out.Weakest = weak[:min(weakestShown, len(weak))]
	return out, nil
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return round1(100 * float64(n) / float64(of))
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
