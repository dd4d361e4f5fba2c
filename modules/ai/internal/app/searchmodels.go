package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
)

// Search's models (search.Models) are named by search's own settings
// (embedding_model, rerank_model), not registered rows: they go to the
// proxy with its key, under their own timeouts and the gateway's retries.
// Their calls are the service's own, on the search path or in search's
// jobs, so no usage is recorded for them.

// Embed returns one vector per text from an embeddings model.
func (s *Service) Embed(ctx context.Context, model string, texts []string) ([][]float64, error) {
	return s.gw.Embed(ctx, s.proxyTarget(model, s.cfg.EmbeddingTimeout), texts)
}

// Rerank scores each document against query with a rerank model. It is
// not retried: search is waiting, and a failure only keeps fusion order.
func (s *Service) Rerank(ctx context.Context, model, query string, docs []string) ([]float64, error) {
	t := s.proxyTarget(model, s.cfg.RerankTimeout)
	t.NoRetry = true
	return s.gw.Rerank(ctx, t, query, docs)
}

func (s *Service) proxyTarget(model string, timeout time.Duration) gateway.Target {
	return gateway.Target{BaseURL: s.cfg.BaseURL, APIKey: s.cfg.APIKey, Model: model, Timeout: timeout}
}
