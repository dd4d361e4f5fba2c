package app

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/roundsedu/rounds/platform/apperr"
)

// RemindersKey is the setting kept in its own durable column.
const RemindersKey = "reminders_disabled"

// Me reads the caller's account.
func (s *Service) Me(ctx context.Context, userID int64) (User, error) {
	u, err := userOrNotFound(s.Store.UserByID(ctx, userID))
	if err != nil {
		return User{}, err
	}
	return toUser(u), nil
}

// Rename changes the caller's display name.
func (s *Service) Rename(ctx context.Context, userID int64, name string) (User, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return User{}, apperr.Invalidf("body.name", "name cannot be blank")
	}
	var out User
	err := s.DB.Tx(ctx, func(ctx context.Context) error {
		u, err := s.lockUser(ctx, userID)
		if err != nil {
			return err
		}
		if err := s.Store.UpdateUser(ctx, u.ID, map[string]any{"name": name}); err != nil {
			return err
		}
		u.Name = name
		out = toUser(u)
		return nil
	})
	return out, err
}

// Settings returns the caller's settings with reminders_disabled read from
// its durable column, which wins over any copy among the other keys.
func (s *Service) Settings(ctx context.Context, userID int64) (map[string]any, error) {
	u, err := userOrNotFound(s.Store.UserWithSettings(ctx, userID))
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if len(u.Settings) > 0 {
		if err := json.Unmarshal(u.Settings, &out); err != nil {
			return nil, err
		}
	}
	out[RemindersKey] = u.RemindersDisabled
	return out, nil
}

// SaveSettings replaces the caller's settings with the object given. A
// reminders_disabled key (boolean only) goes to its durable column; when it
// is absent the column keeps its value.
func (s *Service) SaveSettings(ctx context.Context, userID int64, settings map[string]any) error {
	cols := map[string]any{}
	if v, ok := settings[RemindersKey]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return apperr.Invalidf("body."+RemindersKey, "%s must be true or false", RemindersKey)
		}
		cols["reminders_disabled"] = b
	}
	rest := make(map[string]any, len(settings))
	for k, v := range settings {
		if k != RemindersKey {
			rest[k] = v
		}
	}
	data, err := json.Marshal(rest)
	if err != nil {
		return apperr.Invalidf("body", "settings must be a JSON object")
	}
	cols["settings"] = string(data)
	return s.DB.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.lockUser(ctx, userID); err != nil {
			return err
		}
		return s.Store.UpdateUser(ctx, userID, cols)
	})
}
