package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundsedu/rounds/platform/settings"
)

// Search's own keys.
const (
	SettingEmbeddingModel = "embedding_model"
	SettingRerankModel    = "rerank_model"
	maxModelName          = 200
)

// changeEmbeddingModel is how the embedding model changes: never through
// settings, the built-in one included while it was never written.
const changeEmbeddingModel = "every stored vector depends on it; re-embedding is the way to change it: " +
	`POST /admin/embedding/regenerate with {"model": "<new model>"} checks the new model, switches to it ` +
	"and re-embeds every item"

func (s *Service) registerOwnSettings() {
	s.settings.Register(settings.Setting{
		Key:         SettingEmbeddingModel,
		Label:       "Embedding model",
		Help:        "The model whose vectors semantic search stores and compares. Set once; changing it means re-embedding every item.",
		Default:     s.local.Model(),
		OwnerOnly:   true,
		FixedReason: changeEmbeddingModel,
		Validate: func(v any) error {
			str, ok := v.(string)
			if !ok || strings.TrimSpace(str) != str || str == "" || len(str) > maxModelName {
				return fmt.Errorf("must be a model name of 1 to %d characters without surrounding spaces", maxModelName)
			}
			return nil
		},
	})
	s.settings.Register(settings.Setting{
		Key:     SettingRerankModel,
		Label:   "Rerank model",
		Help:    "A model that reorders hybrid search's top results. Blank keeps the fused order (no reranking).",
		Default: "",
		Validate: func(v any) error {
			str, ok := v.(string)
			if !ok {
				return fmt.Errorf("must be a string (blank keeps fusion order)")
			}
			if len(str) > maxModelName {
				return fmt.Errorf("at most %d characters", maxModelName)
			}
			return nil
		},
	})
}

// embeddingModel is the model whose vectors are stored and compared: the
// setting, the built-in embedder's name until an admin sets it.
func (s *Service) embeddingModel(ctx context.Context) (string, error) {
	var m string
	err := s.settings.Get(ctx, SettingEmbeddingModel, &m)
	return m, err
}

// rerankModel is the configured rerank model, as written ("" when unset).
func (s *Service) rerankModel(ctx context.Context) (string, error) {
	var m string
	err := s.settings.Get(ctx, SettingRerankModel, &m)
	return m, err
}
