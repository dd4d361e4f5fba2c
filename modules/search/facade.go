package search

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"

	"github.com/roundsedu/rounds/modules/search/internal/app"
)

// Kind is what an index row describes.
type Kind string

// Indexed kinds. Only questions are fed today (by bank events); the others
// arrive with the library, flashcards and media modules.
const (
	KindQuestion Kind = "question"
	KindArticle  Kind = "article"
	KindDeck     Kind = "deck"
	KindMedia    Kind = "media"
)

// Similarity thresholds the spec names for callers of Semantic.
const (
	// MinSimilarityQuestions: GET /questions/bank search_mode semantic, and
	// the semantic part of hybrid.
	MinSimilarityQuestions = 0.55
	// MinSimilarityQuizzes: GET /quizzes/search.
	MinSimilarityQuizzes = 0.30
)

// MaxLimit is the most hits Semantic and Keyword return; Hybrid returns at
// most its 60-wide fused pool.
const MaxLimit = app.MaxLimit

// ErrUnavailable is returned by Semantic when the query cannot be embedded
// now (the embeddings endpoint is failing). Keyword and Hybrid keep
// answering (Hybrid from the keyword ranker alone).
var ErrUnavailable = app.ErrUnavailable

// Models is what search asks the AI module's gateway: embeddings and
// rerank scores from a named model (implemented by ai.Module).
type Models = app.Models

// Hit is one ranked item (ID, Score, Similarity, Keyword; see app.Hit).
type Hit = app.Hit

// Found is a search run for a person (Find): per kind, the hits with their
// title and a snippet of the public text.
type Found = app.GlobalResult

// Facade is what other modules may ask search. It never imports them: they
// rank through it and then load their own rows, applying their own reach
// (the facade knows no caller; Find alone runs a person's own search).
type Facade interface {
	// Semantic returns live items of kind whose embedding similarity to q is
	// at least minSimilarity, best first, at most limit (capped at MaxLimit).
	Semantic(ctx context.Context, kind Kind, q string, minSimilarity float64, limit int) ([]Hit, error)
	// Keyword returns live items of kind matching q by the full text of
	// their public side (title and body, never the hidden text: callers
	// show results to learners), all the words, else any of them, best
	// first, at most limit (capped at MaxLimit). Never reranked.
	Keyword(ctx context.Context, kind Kind, q string, limit int) ([]Hit, error)
	// Hybrid fuses the keyword (public text, as Keyword) and vector rankers
	// (reciprocal rank fusion,
	// k = 60, a 60-wide pool) and, when rerank is true and a rerank model is
	// configured, reranks at most 50 candidates; any rerank failure keeps the
	// fused order. Best first, at most limit.
	Hybrid(ctx context.Context, kind Kind, q string, limit int, rerank bool) ([]Hit, error)
	// Rerank reorders the head (at most 50) of an already ranked list of
	// ids by the rerank model, for callers with their own first-stage
	// ranking (the bank's question search). With no rerank model, or on any
	// rerank failure, the ids come back in the order given.
	Rerank(ctx context.Context, kind Kind, q string, ids []int64) []int64
	// Find is GET /search for p, as a module asking on p's behalf (AI
	// Mode's shortlist): only what p may find, the kinds the spec reranks
	// reranked, at most perKind hits per kind, snippets of the public text
	// cut at snippetRunes.
	Find(ctx context.Context, p auth.Principal, kinds []Kind, q string, perKind, snippetRunes int) (Found, error)
}
