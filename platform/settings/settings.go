// Package settings holds the site settings an admin changes at run time
// (GET/PUT /admin/settings): one JSON value per key in platform.settings.
// Keys belong to the modules that use them: each module declares its own
// (Register) while it is built, with a default, a validation and, for a key
// fixed by the deployment, the value it reports; the platform owns only the
// store and the two routes. A key never written reads as its default.
package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"gorm.io/gorm/clause"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// Setting declares one key.
type Setting struct {
	Key string
	// Label names the key for a person; Help says what its values do,
	// including what 0 or a blank means. GET /admin/settings/schema gives
	// both, so a settings screen shows no raw key.
	Label, Help string
	// Default is what the key reads as until it is written (JSON-encodable).
	Default any
	// Whole makes the key a whole number within the range: checked before
	// Validate, and reported by the schema for the form's bounds.
	Whole *Range
	// Validate checks a value as decoded from JSON (string, float64, bool,
	// nil, []any, map[string]any); nil accepts any value.
	Validate func(v any) error
	// Fixed makes the key read-only: it reports the value, and a write of a
	// different value is refused with FixedReason.
	Fixed       func() any
	FixedReason string
	// OwnerOnly makes the key changeable only by its owner (Change, from a
	// route that changes it safely): a settings write of any value other
	// than the one in force, the default included while it was never
	// written, is refused with FixedReason. Writing the value in force
	// writes nothing, so a round-tripped GET does not set it.
	OwnerOnly bool
}

// Range bounds a whole-number key, both ends included.
type Range struct{ Min, Max int64 }

func (r *Range) check(v any) error {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || f < float64(r.Min) || f > float64(r.Max) {
		return fmt.Errorf("must be a whole number from %d to %d", r.Min, r.Max)
	}
	return nil
}

// Registry holds the declared keys and reads and writes their values.
type Registry struct {
	db   *db.DB
	mu   sync.RWMutex
	keys map[string]Setting
}

// New makes an empty registry on the database.
func New(d *db.DB) *Registry { return &Registry{db: d, keys: map[string]Setting{}} }

// Register declares a key. Declaring one twice is a wiring bug and panics.
func (r *Registry) Register(s Setting) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Key == "" {
		panic("settings: a setting needs a key")
	}
	if _, dup := r.keys[s.Key]; dup {
		panic("settings: " + s.Key + " declared twice")
	}
	r.keys[s.Key] = s
}

// row is platform.settings.
type row struct {
	Key       string `gorm:"primaryKey"`
	Value     []byte `gorm:"type:jsonb"`
	UpdatedBy *int64
	UpdatedAt time.Time
}

func (row) TableName() string { return "platform.settings" }

// All returns every declared key with its value.
func (r *Registry) All(ctx context.Context) (map[string]any, error) {
	var rows []row
	if err := r.db.Conn(ctx).Select("key", "value").Find(&rows).Error; err != nil {
		return nil, err
	}
	stored := make(map[string]json.RawMessage, len(rows))
	for _, rw := range rows {
		stored[rw.Key] = rw.Value
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]any, len(r.keys))
	for k, s := range r.keys {
		out[k] = value(s, stored[k])
	}
	return out, nil
}

func value(s Setting, raw json.RawMessage) any {
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
func (r *Registry) Get(ctx context.Context, key string, dst any) error {
	r.mu.RLock()
	s, ok := r.keys[key]
	r.mu.RUnlock()
	if !ok {
		return fmt.Errorf("settings: %q is not declared", key)
	}
	var raw json.RawMessage
	if s.Fixed == nil {
		var rows []row
		if err := r.db.Conn(ctx).Select("value").Where("key = ?", key).Limit(1).Find(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 1 {
			raw = rows[0].Value
		}
	}
	if raw == nil {
		b, err := json.Marshal(value(s, nil))
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
func (r *Registry) Put(ctx context.Context, by int64, values map[string]any) (map[string]any, error) {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var fields []apperr.Field
	var write []row
	r.mu.RLock()
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
		}
		if err := s.validate(v); err != nil {
			fields = append(fields, apperr.Field{Field: "body." + k, Message: err.Error(), Type: "value_error"})
			continue
		}
		if s.OwnerOnly {
			// Only the value in force passes, and it writes nothing.
			if err := r.inForce(ctx, s, v); err != nil {
				r.mu.RUnlock()
				return nil, err
			}
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			fields = append(fields, apperr.Field{Field: "body." + k, Message: "not a JSON value", Type: "value_error"})
			continue
		}
		write = append(write, row{Key: k, Value: b, UpdatedBy: &by})
	}
	r.mu.RUnlock()
	if len(fields) > 0 {
		return nil, &apperr.Error{Code: apperr.Invalid, Message: "invalid settings: " + fields[0].Field + ": " + fields[0].Message, Fields: fields}
	}
	if len(write) > 0 {
		if err := r.write(ctx, by, write); err != nil {
			return nil, err
		}
	}
	return r.All(ctx)
}

func (r *Registry) write(ctx context.Context, by int64, rows []row) error {
	return r.db.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.Assignments(map[string]any{"value": clause.Column{Table: "excluded", Name: "value"}, "updated_by": by, "updated_at": clause.Expr{SQL: "now()"}}),
	}).Omit("updated_at").Create(&rows).Error
}

// inForce refuses v unless it is the value an OwnerOnly key reads as: a
// key never written is in force at its default (search's built-in
// embedder has already filled the bank with its vectors), so setting it
// is a change like any other.
func (r *Registry) inForce(ctx context.Context, s Setting, v any) error {
	var rows []row
	if err := r.db.Conn(ctx).Select("value").Where("key = ?", s.Key).Limit(1).Find(&rows).Error; err != nil {
		return err
	}
	var stored json.RawMessage
	if len(rows) == 1 {
		stored = rows[0].Value
	}
	if sameJSON(v, value(s, stored)) {
		return nil
	}
	return apperr.BadRequestf("%s cannot be changed through settings: %s", s.Key, s.FixedReason)
}

// Change writes an OwnerOnly key past its rule, for the route of its owner
// that changes it safely; it joins the transaction ctx carries.
func (r *Registry) Change(ctx context.Context, by int64, key string, v any) error {
	r.mu.RLock()
	s, ok := r.keys[key]
	r.mu.RUnlock()
	if !ok || !s.OwnerOnly {
		return fmt.Errorf("settings: %q is not a declared OwnerOnly key", key)
	}
	if err := s.validate(v); err != nil {
		return apperr.Invalidf(key, "%s", err.Error())
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return r.write(ctx, by, []row{{Key: key, Value: b, UpdatedBy: &by}})
}

// validate applies the key's range, then its own check.
func (s Setting) validate(v any) error {
	if s.Whole != nil {
		if err := s.Whole.check(v); err != nil {
			return err
		}
	}
	if s.Validate != nil {
		return s.Validate(v)
	}
	return nil
}

// SettingDescription is one key as a settings form shows it.
type SettingDescription struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Help   string `json:"help"`
	Kind   string `json:"kind" enum:"text,number,switch,json" doc:"how to edit it: from its default's JSON type"`
	Min    *int64 `json:"min" doc:"a whole number's least value (null: not bounded here)"`
	Max    *int64 `json:"max"`
	Locked string `json:"locked" doc:"why it cannot be changed here now (empty: it can)"`
}

// Describe lists every declared key for a settings form, by label: what it
// is called, what its values do and how to edit it. A key fixed by the
// deployment, or changed only by its owner's route, says why it is locked.
func (r *Registry) Describe(ctx context.Context) ([]SettingDescription, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]SettingDescription, 0, len(r.keys))
	for k, s := range r.keys {
		d := SettingDescription{Key: k, Label: s.Label, Help: s.Help, Kind: kind(s.Default)}
		if d.Label == "" {
			d.Label = k
		}
		if s.Whole != nil {
			d.Min, d.Max = &s.Whole.Min, &s.Whole.Max
		}
		if s.Fixed != nil || s.OwnerOnly {
			d.Locked = s.FixedReason
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out, nil
}

// kind is how a value of the default's JSON type is edited.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "text"
	case bool:
		return "switch"
	case int, int64, float64:
		return "number"
	}
	return "json"
}

func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
