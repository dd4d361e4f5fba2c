package app

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/store"
)

// ModelState is a model row as its change history keeps it: what admins
// read, the key masked.
type ModelState struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	ModelID   string  `json:"model_id"`
	Task      string  `json:"task"`
	Voice     string  `json:"voice"`
	IsActive  bool    `json:"is_active"`
	IsDefault bool    `json:"is_default"`
	APIKey    *string `json:"api_key"`
}

// state is m as history keeps it; nil for no row.
func (s *Service) state(m *store.Model) json.RawMessage {
	if m == nil {
		return nil
	}
	v := s.view(m)
	b, _ := json.Marshal(ModelState{ID: m.ID, Name: m.Name, ModelID: m.ModelID, Task: m.Task, Voice: m.Voice,
		IsActive: m.IsActive, IsDefault: m.IsDefault, APIKey: v.MaskedKey})
	return b
}

// recordChange writes who changed model row id from before to after (nil
// for a creation or a removal), in the change's transaction.
func (s *Service) recordChange(ctx context.Context, by int64, action string, id int64, before, after *store.Model) error {
	return s.store.RecordChange(ctx, &store.ModelChange{ActorID: by, Action: action, ModelRow: id,
		Before: s.state(before), After: s.state(after)})
}

// clearDefault drops the default flag of task's rows but except, and
// records each as changed by by.
func (s *Service) clearDefault(ctx context.Context, by int64, task string, except int64) error {
	cleared, err := s.store.ClearDefault(ctx, task, except)
	if err != nil {
		return err
	}
	for i := range cleared {
		before := cleared[i]
		before.IsDefault = true
		if err := s.recordChange(ctx, by, "update", cleared[i].ID, &before, &cleared[i]); err != nil {
			return err
		}
	}
	return nil
}

// ModelChange is one change to the model configuration; Before is nil
// for a creation, After for a removal.
type ModelChange struct {
	ID        int64
	ActorID   int64
	Action    string
	ModelRow  int64
	Before    *ModelState
	After     *ModelState
	CreatedAt time.Time
}

// decodeState reads a stored state (nil for none).
func decodeState(raw json.RawMessage) (*ModelState, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var st ModelState
	return &st, json.Unmarshal(raw, &st)
}

// ModelChanges lists the changes to the model configuration, newest first.
func (s *Service) ModelChanges(ctx context.Context, limit, offset int) ([]ModelChange, error) {
	rows, err := s.store.Changes(ctx, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]ModelChange, len(rows))
	for i, r := range rows {
		out[i] = ModelChange{ID: r.ID, ActorID: r.ActorID, Action: r.Action, ModelRow: r.ModelRow, CreatedAt: r.CreatedAt}
		if out[i].Before, err = decodeState(r.Before); err != nil {
			return nil, err
		}
		if out[i].After, err = decodeState(r.After); err != nil {
			return nil, err
		}
	}
	return out, nil
}
