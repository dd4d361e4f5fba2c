package ai

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/modules/bank/tagging"
	"github.com/roundsedu/rounds/modules/library/generation"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Jobs registers classify_question_difficulty: up to 500 questions, a model
// call per 20; the same request twice queues one job.
func (m *Module) Jobs(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[app.RateRequest]{Handle: m.rater.Run, Priority: jobs.Background,
		Unique: jobs.OnePerArgs, Timeout: 30 * time.Minute})
}

// DraftArticle implements the library's generation.Writer with the
// article task's default model.
func (m *Module) DraftArticle(ctx context.Context, in generation.DraftRequest) (*generation.Article, error) {
	return m.svc.DraftArticle(ctx, in)
}

// RefineArticle implements the library's generation.Writer with the
// article task's default model.
func (m *Module) RefineArticle(ctx context.Context, in generation.RefineRequest) ([]generation.Section, error) {
	return m.svc.RefineArticle(ctx, in)
}

// MakeCards implements the library's generation.Writer with the flashcard
// task's default model.
func (m *Module) MakeCards(ctx context.Context, in generation.CardsRequest) ([]generation.Card, error) {
	return m.svc.MakeCards(ctx, in)
}

var _ generation.Writer = (*Module)(nil)

// KeywordTagger implements the bank's tagging.Models: tag classification
// (POST /tags/classify) picks tags with the keyword task's default model.
func (m *Module) KeywordTagger(ctx context.Context) (tagging.Tagger, error) {
	return m.svc.KeywordTagger(ctx)
}

var _ tagging.Models = (*Module)(nil)
