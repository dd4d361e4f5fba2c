package app

import (
	"context"
	"fmt"

	"github.com/roundsedu/rounds/platform/settings"
)

// Search's own keys.
const (
	SettingEmbeddingModel = "embedding_model"
	SettingRerankModel    = "rerank_model"
	maxModelName          = 200
)

func (s *Service) registerOwnSettings() {
	s.settings.Register(settings.Setting{
		Key:   SettingEmbeddingModel,
		Fixed: func() any { return s.embedder.Model() },
		FixedReason: "every stored vector depends on it; set search.embedding_url and search.embedding_model " +
			"in the deployment configuration, restart, then POST /admin/embedding/regenerate",
	})
	s.settings.Register(settings.Setting{
		Key:     SettingRerankModel,
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

// rerankModel is the configured rerank model, as written ("" when unset).
func (s *Service) rerankModel(ctx context.Context) (string, error) {
	var m string
	err := s.settings.Get(ctx, SettingRerankModel, &m)
	return m, err
}
