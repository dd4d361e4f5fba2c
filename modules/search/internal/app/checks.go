package app

import (
	"context"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/platform/apperr"
)

// The probe texts of the admin checks: a query, a document that answers it
// in other words, and one that does not.
const (
	probeQuery      = "first-line drug treatment for high blood pressure"
	probeRelevant   = "Which medication is recommended first for hypertension in adults?"
	probeIrrelevant = "Management of a displaced fracture of the distal radius in a child"
)

// EmbeddingCheck is the result of POST /admin/embedding/test.
type EmbeddingCheck struct {
	OK                   bool
	Provider             string
	Model                string
	Dims                 int
	LatencyMS            int64
	RelevantSimilarity   float64
	IrrelevantSimilarity float64
	Preview              []float32 // first values of the vector for the caller's text
	Message              string
}

// TestEmbedding embeds the probe texts (and the caller's text, if any) with
// the embedder in use and checks that the related pair is closer than the
// unrelated one. An endpoint failure is a 502 with the upstream message.
func (s *Service) TestEmbedding(ctx context.Context, text string) (EmbeddingCheck, error) {
	e, err := s.embedder(ctx)
	if err != nil {
		return EmbeddingCheck{}, err
	}
	return probe(ctx, e, text)
}

// probe embeds the probe texts (and text, if any) with e.
func probe(ctx context.Context, e embed.Embedder, text string) (EmbeddingCheck, error) {
	out := EmbeddingCheck{Provider: e.Provider(), Model: e.Model(), Dims: e.Dims()}
	texts := []string{probeQuery, probeRelevant, probeIrrelevant}
	if strings.TrimSpace(text) != "" {
		texts = append(texts, text)
	}
	start := time.Now()
	vecs, err := e.Embed(ctx, texts)
	out.LatencyMS = time.Since(start).Milliseconds()
	if err != nil {
		code := apperr.UpstreamFailed
		if apperr.Is(err, apperr.Unavailable) { // no proxy configured: not the upstream's failure
			code = apperr.Unavailable
		}
		return out, apperr.New(code, "embedding failed: %s", err.Error())
	}
	out.RelevantSimilarity = embed.Cosine(vecs[0], vecs[1])
	out.IrrelevantSimilarity = embed.Cosine(vecs[0], vecs[2])
	if len(vecs) > 3 && vecs[3] != nil {
		out.Preview = vecs[3][:min(8, len(vecs[3]))]
	}
	out.OK = out.RelevantSimilarity > out.IrrelevantSimilarity
	if out.OK {
		out.Message = "the model placed the related text closer than the unrelated one"
	} else {
		out.Message = "the model placed the unrelated text at least as close as the related one"
	}
	return out, nil
}

// RerankCheck is the result of POST /admin/rerank/test.
type RerankCheck struct {
	OK              bool
	Model           string
	RelevantScore   float64
	IrrelevantScore float64
	LatencyMS       int64
	Message         string
}

// TestRerank asks the rerank model (the given one, else the configured one)
// to score a relevant and an irrelevant document, irrelevant first so a
// model that keeps the input order fails. 400 when no model or endpoint is
// set (or no model proxy), 502 with the upstream message when the call
// fails.
func (s *Service) TestRerank(ctx context.Context, model *string) (RerankCheck, error) {
	var m string
	if model != nil {
		m = *model
	} else {
		var err error
		if m, err = s.rerankModel(ctx); err != nil {
			return RerankCheck{}, err
		}
	}
	out := RerankCheck{Model: m}
	if strings.TrimSpace(m) == "" {
		return out, apperr.BadRequestf("no rerank model is set: searches keep fusion order (set rerank_model in PUT /admin/settings)")
	}
	start := time.Now()
	scores, err := s.rerankScores(ctx, m, probeQuery, []string{probeIrrelevant, probeRelevant})
	out.LatencyMS = time.Since(start).Milliseconds()
	if apperr.Is(err, apperr.Unavailable) {
		return out, apperr.BadRequestf("%s", err.Error()) // no proxy: a configuration to fix, as no model is
	}
	if err != nil {
		return out, apperr.New(apperr.UpstreamFailed, "rerank failed: %s", err.Error())
	}
	out.IrrelevantScore, out.RelevantScore = scores[0], scores[1]
	out.OK = out.RelevantScore > out.IrrelevantScore
	if out.OK {
		out.Message = "the model ranked the relevant document above the irrelevant one"
	} else {
		out.Message = "the model did not rank the relevant document above the irrelevant one"
	}
	return out, nil
}
