package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// UsageExport is one model call the person made.
type UsageExport struct {
	Task             string    `json:"task"`
	ModelID          string    `json:"model_id"`
	PromptTokens     int64     `json:"prompt_tokens"`
	CompletionTokens int64     `json:"completion_tokens"`
	CreatedAt        time.Time `json:"created_at"`
}

// ExportPersonalData writes the person's model calls (what was asked is
// not kept, only its size).
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	return module.Rows[UsageExport](x, "usage", s.db.Conn(ctx).Raw(`
		SELECT task, model_id, prompt_tokens, completion_tokens, created_at
		  FROM ai.usage WHERE user_id = ? ORDER BY created_at, id`, userID))
}

// ForgetUser removes the person's usage rows.
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM ai.usage WHERE user_id = ?`, userID).Error
}
