package store

import (
	"context"
	"encoding/json"
	"time"
)

// ModelChange is a row of ai.model_changes: who changed a model row and
// how. Before and After are the row as admins read it (key masked).
type ModelChange struct {
	ID        int64 `gorm:"primaryKey"`
	ActorID   int64
	Action    string
	ModelRow  int64
	Before    json.RawMessage `gorm:"type:jsonb"`
	After     json.RawMessage `gorm:"type:jsonb"`
	CreatedAt time.Time       `gorm:"->"`
}

// TableName places the row in the module's schema.
func (ModelChange) TableName() string { return "ai.model_changes" }

// RecordChange stores one change, in the caller's transaction.
func (s *Store) RecordChange(ctx context.Context, c *ModelChange) error {
	return s.db.Conn(ctx).Create(c).Error
}

// Changes lists changes, newest first.
func (s *Store) Changes(ctx context.Context, limit, offset int) ([]ModelChange, error) {
	var out []ModelChange
	err := s.db.Conn(ctx).Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, err
}
