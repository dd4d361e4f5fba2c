package search

import (
	"context"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/internal/rank"
	"github.com/roundsedu/rounds/modules/search/internal/store"
)

// LocalModel names the built-in embedder's vectors (stored beside each
// vector: only vectors of one model are compared).
const LocalModel = embed.LocalModel

// VectorQuery tunes one nearest-neighbour search: kind, query vector,
// model, limit, the HNSW candidate list (EfSearch) and the similarity
// floor.
type VectorQuery = store.VectorQuery

// Scored is one ranker's hit: an id and its score.
type Scored = rank.Scored

// Probe reaches the index's rankers one by one, below the service (no
// reach, fusion or cache): the search benchmark (scripts/bench/search)
// times each ranker alone and measures the HNSW index's recall against an
// exact scan through it, with the production queries themselves. Other
// modules ask through Facade.
type Probe struct {
	st    *store.Store
	local *embed.Local
}

// Probe is the module's probe, on its own store and built-in embedder.
func (m *Module) Probe() Probe { return Probe{st: m.st, local: m.local} }

// Embed is the built-in embedder's vector of text (nil for a text it
// finds no meaning in), as LocalModel stores it.
func (p Probe) Embed(text string) []float32 { return p.local.Vector(text) }

// Keyword is the keyword ranker over the public text of live items of kind.
func (p Probe) Keyword(ctx context.Context, kind Kind, q string, limit int) ([]Scored, error) {
	return p.st.Keyword(ctx, string(kind), q, limit, false)
}

// Vector is the vector ranker through the HNSW index, as Semantic and
// Hybrid run it.
func (p Probe) Vector(ctx context.Context, vq VectorQuery) ([]Scored, error) {
	return p.st.Vector(ctx, vq)
}

// ExactVector is Vector by a sequential scan: the ground truth of recall.
func (p Probe) ExactVector(ctx context.Context, vq VectorQuery) ([]Scored, error) {
	return p.st.ExactVector(ctx, vq)
}
