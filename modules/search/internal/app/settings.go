package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// Setting declares one key of the site settings (GET/PUT /admin/settings).
// Search declares its own; other modules declare theirs through the search
// module at wiring time (site policy flags, daily quotas).
type Setting struct {
	Key string
	// Default is what the key reads as until it is written (JSON-encodable).
	Default any
	// Validate checks a value as decoded from JSON (string, float64, bool,
	// nil, []any, map[string]any); nil accepts any value.
	Validate func(v any) error
	// Fixed makes the key read-only: it reports the value, and a write of a
	// different value is refused with FixedReason.
	Fixed       func() any
	FixedReason string
}

// Settings holds the declared keys and reads and writes their values.
type Settings struct {
	store *store.Store
	mu    sync.RWMutex
	keys  map[string]Setting
}

func newSettings(st *store.Store) *Settings {
	return &Settings{store: st, keys: map[string]Setting{}}
}

// Register declares a key. Declaring one twice is a wiring bug and panics.
func (r *Settings) Register(s Setting) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Key == "" {
		panic("search: a setting needs a key")
	}
	if _, dup := r.keys[s.Key]; dup {
		panic("search: setting " + s.Key + " declared twice")
	}
	r.keys[s.Key] = s
}

// All returns every declared key with its value.
func (r *Settings) All(ctx context.Context) (map[string]any, error) {
	stored, err := r.store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]any, len(r.keys))
	for k, s := range r.keys {
		out[k] = r.value(s, stored[k])
	}
	return out, nil
}

func (r *Settings) value(s Setting, raw json.RawMessage) any {
	if s.Fixed != nil {
		return s.Fixed()
	}
	if raw == nil {
		return s.Default
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return s.Default
	}
	return v
}

// Get decodes one key's value into dst.
func (r *Settings) Get(ctx context.Context, key string, dst any) error {
	r.mu.RLock()
	s, ok := r.keys[key]
	r.mu.RUnlock()
	if !ok {
		return fmt.Errorf("search: setting %q is not declared", key)
	}
	var raw json.RawMessage
	if s.Fixed == nil {
		stored, found, err := r.store.Setting(ctx, key)
		if err != nil {
			return err
		}
		if found {
			raw = stored
		}
	}
	if raw == nil {
		b, err := json.Marshal(r.value(s, nil))
		if err != nil {
			return err
		}
		raw = b
	}
	return json.Unmarshal(raw, dst)
}

// Put writes the given keys (others keep their values) in one transaction
// and returns every setting. Unknown keys and invalid values are refused
// with 422 naming each field; changing a fixed key is refused with 400.
func (r *Settings) Put(ctx context.Context, by int64, values map[string]any) (map[string]any, error) {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	r.mu.RLock()
	var fields []apperr.Field
	write := map[string]json.RawMessage{}
	for _, k := range keys {
		v := values[k]
		s, ok := r.keys[k]
		switch {
		case !ok:
			fields = append(fields, apperr.Field{Field: "body." + k, Message: "unknown setting", Type: "value_error"})
			continue
		case s.Fixed != nil:
			if !sameJSON(v, s.Fixed()) {
				r.mu.RUnlock()
				return nil, apperr.BadRequestf("%s cannot be changed through settings: %s", k, s.FixedReason)
			}
			continue
		case s.Validate != nil:
			if err := s.Validate(v); err != nil {
				fields = append(fields, apperr.Field{Field: "body." + k, Message: err.Error(), Type: "value_error"})
				continue
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			fields = append(fields, apperr.Field{Field: "body." + k, Message: "not a JSON value", Type: "value_error"})
			continue
		}
		write[k] = b
	}
	r.mu.RUnlock()
	if len(fields) > 0 {
		return nil, &apperr.Error{Code: apperr.Invalid, Message: "invalid settings: " + fields[0].Field + ": " + fields[0].Message, Fields: fields}
	}
	err := r.store.DB().Tx(ctx, func(ctx context.Context) error {
		for _, k := range keys {
			if b, ok := write[k]; ok {
				if err := r.store.PutSetting(ctx, k, b, by); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.All(ctx)
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// Search's own keys.
const (
	SettingEmbeddingModel = "embedding_model"
	SettingRerankModel    = "rerank_model"
	maxModelName          = 200
)

func (s *Service) registerOwnSettings() {
	s.Settings.Register(Setting{
		Key:   SettingEmbeddingModel,
		Fixed: func() any { return s.embedder.Model() },
		FixedReason: "every stored vector depends on it; set search.embedding_url and search.embedding_model " +
			"in the deployment configuration, restart, then POST /admin/embedding/regenerate",
	})
	s.Settings.Register(Setting{
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
	err := s.Settings.Get(ctx, SettingRerankModel, &m)
	return m, err
}
