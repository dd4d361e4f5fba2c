// Package store is the AI module's persistence: model rows, their change
// history and usage.
package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Model is a row of ai.models. APIKey is sealed (see app's keys).
type Model struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	ModelID   string
	Task      string
	Voice     string
	IsActive  bool
	IsDefault bool
	APIKey    []byte    `gorm:"column:api_key"`
	CreatedAt time.Time `gorm:"->"`
	UpdatedAt time.Time `gorm:"->"`
}

// TableName places the row in the module's schema.
func (Model) TableName() string { return "ai.models" }

// Usage is a row of ai.usage.
type Usage struct {
	ID               int64 `gorm:"primaryKey"`
	UserID           int64
	Task             string
	ModelID          string
	PromptTokens     int64
	CompletionTokens int64
	CreatedAt        time.Time `gorm:"->"`
}

// TableName places the row in the module's schema.
func (Usage) TableName() string { return "ai.usage" }

// Store reads and writes the ai schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Models lists the rows, optionally of one task, defaults first.
func (s *Store) Models(ctx context.Context, task string, activeOnly bool) ([]Model, error) {
	q := s.db.Conn(ctx).Model(&Model{})
	if task != "" {
		q = q.Where("task = ?", task)
	}
	if activeOnly {
		q = q.Where("is_active")
	}
	var out []Model
	return out, q.Order("task, is_default DESC, name, id").Find(&out).Error
}

// Locked loads one row under a row lock (db.ErrNotFound when missing).
func (s *Store) Locked(ctx context.Context, id int64) (*Model, error) {
	var m Model
	if err := s.db.Locked(ctx).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, err
	}
	return &m, nil
}

// Get loads one row (db.ErrNotFound when missing).
func (s *Store) Get(ctx context.Context, id int64) (*Model, error) {
	var m Model
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&m).Error; err != nil {
		return nil, err
	}
	return &m, nil
}

// Same finds the row of (model_id, task, voice) under a lock, if any.
func (s *Store) Same(ctx context.Context, modelID, task, voice string) (*Model, error) {
	var m Model
	err := s.db.Locked(ctx).Where("model_id = ? AND task = ? AND voice = ?", modelID, task, voice).Take(&m).Error
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// HasDefault reports whether task has a default row.
func (s *Store) HasDefault(ctx context.Context, task string) (bool, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Model{}).Where("task = ? AND is_default", task).Count(&n).Error
	return n > 0, err
}

// Insert stores a new row.
func (s *Store) Insert(ctx context.Context, m *Model) error {
	return s.db.Conn(ctx).Create(m).Error
}

// Save writes every field of a row.
func (s *Store) Save(ctx context.Context, m *Model) error {
	return s.db.Conn(ctx).Model(m).Updates(map[string]any{"name": m.Name, "is_active": m.IsActive,
		"is_default": m.IsDefault, "api_key": m.APIKey, "updated_at": gorm.Expr("now()")}).Error
}

// ClearDefault drops the default flag of task's other rows and returns
// them as they are now.
func (s *Store) ClearDefault(ctx context.Context, task string, except int64) ([]Model, error) {
	var cleared []Model
	err := s.db.Conn(ctx).Raw(`UPDATE ai.models SET is_default = false, updated_at = now()
		WHERE task = ? AND is_default AND id <> ? RETURNING *`, task, except).Scan(&cleared).Error
	return cleared, err
}

// Delete removes a row.
func (s *Store) Delete(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM ai.models WHERE id = ?`, id).Error
}

// Record stores one call's usage.
func (s *Store) Record(ctx context.Context, u *Usage) error {
	return s.db.Conn(ctx).Create(u).Error
}

// CallsSince counts a person's calls of a task since t.
func (s *Store) CallsSince(ctx context.Context, userID int64, task string, t time.Time) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Usage{}).Where("user_id = ? AND task = ? AND created_at >= ?", userID, task, t).Count(&n).Error
	return n, err
}

// UsageRow is one person's use of one task over a period.
type UsageRow struct {
	UserID           int64
	Task             string
	Calls            int64
	PromptTokens     int64
	CompletionTokens int64
}

// UsageSince sums usage per person and task since t, heaviest first.
func (s *Store) UsageSince(ctx context.Context, t time.Time, limit, offset int) ([]UsageRow, error) {
	var out []UsageRow
	err := s.db.Conn(ctx).Raw(`SELECT user_id, task, count(*) AS calls, sum(prompt_tokens) AS prompt_tokens,
			sum(completion_tokens) AS completion_tokens
		FROM ai.usage WHERE created_at >= ? GROUP BY user_id, task
		ORDER BY sum(prompt_tokens + completion_tokens) DESC, user_id, task LIMIT ? OFFSET ?`, t, limit, offset).Scan(&out).Error
	return out, err
}
