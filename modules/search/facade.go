package search

import "context"

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

// Hit is one ranked item.
type Hit struct {
	ID int64
	// Score is the cosine similarity (0..1) for Semantic, the fused (or
	// reranked) score for Hybrid; higher is better.
	Score float64
}

// Facade is what other modules may ask search. It never imports them: they
// rank through it and then load their own rows.
type Facade interface {
	// Semantic returns live items of kind whose embedding similarity to q is
	// at least minSimilarity, best first, at most limit.
	Semantic(ctx context.Context, kind Kind, q string, minSimilarity float64, limit int) ([]Hit, error)
	// Hybrid fuses the keyword and vector rankers (reciprocal rank fusion,
	// k = 60, a 60-wide pool) and, when rerank is true and a rerank model is
	// configured, reranks at most 50 candidates; any rerank failure keeps the
	// fused order. Best first, at most limit.
	Hybrid(ctx context.Context, kind Kind, q string, limit int, rerank bool) ([]Hit, error)
}
