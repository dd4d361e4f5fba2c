package app

import (
	"context"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
)

// Model is a configured model as admins read it; the key is masked.
type Model struct {
	store.Model
	MaskedKey *string
}

func (s *Service) view(m *store.Model) Model {
	v := Model{Model: *m}
	if m.APIKey != nil {
		masked := "********"
		if key, err := s.open(m.APIKey); err == nil && len(key) > 8 {
			masked += key[len(key)-4:]
		}
		v.MaskedKey = &masked
	}
	return v
}

// Models lists every configured model.
func (s *Service) Models(ctx context.Context) ([]Model, error) {
	rows, err := s.store.Models(ctx, "", false)
	if err != nil {
		return nil, err
	}
	out := make([]Model, len(rows))
	for i := range rows {
		out[i] = s.view(&rows[i])
	}
	return out, nil
}

// NewModel is what an admin registers. A speech model (tts) names the
// voices it accepts: one row each.
type NewModel struct {
	Name      string
	ModelID   string
	Task      string
	Voices    []string
	APIKey    *string
	IsDefault bool
}

// Create registers a model, one row per voice for speech; by is the admin,
// recorded with every row it creates or changes. Registering a
// (model_id, task, voice) that exists fills in what the row lacks (a name,
// a key) instead of failing; when there is nothing to fill in it is 409.
// created is false when only existing rows were filled in. The first model
// of a task becomes its default; asking for default clears the others.
func (s *Service) Create(ctx context.Context, by int64, in NewModel) (out []Model, created bool, err error) {
	voices, err := s.voicesFor(in.Task, in.Voices)
	if err != nil {
		return nil, false, err
	}
	var sealed []byte
	if in.APIKey != nil && *in.APIKey != "" {
		if sealed, err = s.seal(*in.APIKey); err != nil {
			return nil, false, err
		}
	}
	filled := false
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		out, created, filled = nil, false, false
		hasDefault, err := s.store.HasDefault(ctx, in.Task)
		if err != nil {
			return err
		}
		for _, voice := range voices {
			m, err := s.store.Same(ctx, in.ModelID, in.Task, voice)
			switch {
			case db.IsNotFound(err):
				m = &store.Model{Name: in.Name, ModelID: in.ModelID, Task: in.Task, Voice: voice, IsActive: true,
					IsDefault: !hasDefault || in.IsDefault, APIKey: sealed}
				if m.IsDefault {
					if err := s.clearDefault(ctx, by, in.Task, 0); err != nil {
						return err
					}
					hasDefault, in.IsDefault = true, false // one new default, not one per voice
				}
				if err := s.store.Insert(ctx, m); err != nil {
					return err
				}
				if err := s.recordChange(ctx, by, "create", m.ID, nil, m); err != nil {
					return err
				}
				created = true
			case err != nil:
				return err
			default:
				changed, before := false, *m
				if m.Name == "" && in.Name != "" {
					m.Name, changed = in.Name, true
				}
				if m.APIKey == nil && sealed != nil {
					m.APIKey, changed = sealed, true
				}
				if changed {
					if err := s.store.Save(ctx, m); err != nil {
						return err
					}
					if err := s.recordChange(ctx, by, "update", m.ID, &before, m); err != nil {
						return err
					}
					filled = true
				}
			}
			out = append(out, s.view(m))
		}
		if !created && !filled {
			return apperr.Conflictf("model %s is already registered for %s with everything given", in.ModelID, in.Task)
		}
		return nil
	})
	return out, created, err
}

// voicesFor checks the voices of a registration: speech models need at
// least one, each one the configured list accepts; others take none.
func (s *Service) voicesFor(task string, voices []string) ([]string, error) {
	if !slices.Contains(Tasks, task) {
		return nil, apperr.Invalidf("task", "task must be one of %s", strings.Join(Tasks, ", "))
	}
	if task != "tts" {
		if len(voices) > 0 {
			return nil, apperr.Invalidf("voices", "only a speech (tts) model has voices")
		}
		return []string{""}, nil
	}
	if len(voices) == 0 {
		return nil, apperr.Invalidf("voices", "a speech model needs the voices it accepts, from: %s", strings.Join(s.cfg.Voices, ", "))
	}
	out := make([]string, 0, len(voices))
	for _, v := range voices {
		v = strings.ToLower(strings.TrimSpace(v))
		if !slices.Contains(s.cfg.Voices, v) {
			return nil, apperr.Invalidf("voices", "voice %q is not accepted; valid voices: %s", v, strings.Join(s.cfg.Voices, ", "))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// ModelPatch is a partial update; nil leaves a field as it is. An empty
// api_key removes the stored key (the proxy's own is used).
type ModelPatch struct {
	Name      *string
	IsActive  *bool
	IsDefault *bool
	APIKey    *string
}

// Update changes a model. Deactivating keeps the row, its task and its
// default flag (the task has no usable default until it is reactivated or
// another is chosen); marking default clears the task's others.
func (s *Service) Update(ctx context.Context, by, id int64, p ModelPatch) (*Model, error) {
	var sealed []byte
	if p.APIKey != nil && *p.APIKey != "" {
		var err error
		if sealed, err = s.seal(*p.APIKey); err != nil {
			return nil, err
		}
	}
	var out Model
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		m, err := s.store.Locked(ctx, id)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("model %d not found", id)
		}
		if err != nil {
			return err
		}
		before := *m
		if p.Name != nil {
			m.Name = strings.TrimSpace(*p.Name)
		}
		if p.IsActive != nil {
			m.IsActive = *p.IsActive
		}
		if p.APIKey != nil {
			m.APIKey = sealed
		}
		if p.IsDefault != nil {
			if *p.IsDefault {
				if err := s.clearDefault(ctx, by, m.Task, m.ID); err != nil {
					return err
				}
			}
			m.IsDefault = *p.IsDefault
		}
		if err := s.store.Save(ctx, m); err != nil {
			return err
		}
		if err := s.recordChange(ctx, by, "update", m.ID, &before, m); err != nil {
			return err
		}
		out = s.view(m)
		return nil
	})
	return &out, err
}

// Delete removes a model row.
func (s *Service) Delete(ctx context.Context, by, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		m, err := s.store.Locked(ctx, id)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("model %d not found", id)
		} else if err != nil {
			return err
		}
		if err := s.store.Delete(ctx, id); err != nil {
			return err
		}
		return s.recordChange(ctx, by, "delete", id, m, nil)
	})
}

// Test exercises a model as its task would and returns what it said.
// Speech models are refused here (400): they answer with audio.
func (s *Service) Test(ctx context.Context, id int64) (string, error) {
	m, err := s.store.Get(ctx, id)
	if db.IsNotFound(err) {
		return "", apperr.NotFoundf("model %d not found", id)
	}
	if err != nil {
		return "", err
	}
	if m.Task == "tts" || m.Task == "stt" {
		return "", apperr.BadRequestf("speech models cannot be tested with this route; use POST /tts/speak")
	}
	t, err := s.target(m)
	if err != nil {
		return "", err
	}
	reply, err := s.gw.Chat(ctx, t, []gateway.Message{{Role: "user", Content: "Reply with the single word OK."}}, 16)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(reply.Text), nil
}

// Available lists the active models of a task for a chooser; with none
// registered it offers the configured default model (id nil).
func (s *Service) Available(ctx context.Context, task string) ([]Model, error) {
	rows, err := s.store.Models(ctx, task, true)
	if err != nil {
		return nil, err
	}
	out := make([]Model, len(rows))
	for i := range rows {
		out[i] = s.view(&rows[i])
	}
	if len(out) == 0 && s.cfg.DefaultModel != "" {
		out = append(out, Model{Model: store.Model{Name: s.cfg.DefaultModel, ModelID: s.cfg.DefaultModel,
			Task: task, IsDefault: true}})
	}
	return out, nil
}

// ProxyModels lists what a model proxy serves: the configured one, or the
// base and key an admin is about to configure. The configured key goes
// only to the configured base: another base needs its own key (422), and
// a metadata or link-local base is refused (422) before anything is sent.
func (s *Service) ProxyModels(ctx context.Context, base, key *string) ([]string, string, error) {
	t := gateway.Target{BaseURL: s.cfg.BaseURL, APIKey: s.cfg.APIKey}
	if base != nil && *base != "" && !sameBase(*base, s.cfg.BaseURL) {
		if err := gateway.CheckURL(ctx, *base); err != nil {
			return nil, "", apperr.Invalidf("api_base", "api_base %s", err)
		}
		if key == nil || *key == "" {
			return nil, "", apperr.Invalidf("api_key", "a new api_base needs its own api_key: "+
				"the configured key is sent only to the configured proxy")
		}
		t.BaseURL = *base
	}
	if key != nil && *key != "" {
		t.APIKey = *key
	}
	models, err := s.gw.Models(ctx, t)
	return models, t.BaseURL, err
}

// sameBase reports whether an admin's api_base is the configured proxy
// (a trailing slash aside).
func sameBase(a, b string) bool {
	return b != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// Voice is a speech voice a model offers.
type Voice struct {
	ModelID string
	Name    string
	Labels  []string
}

// DiscoverVoices lists the voices speech models may be registered with:
// the configured list, for each registered speech model (or, with none, for
// no model yet). OpenAI-compatible proxies have no voice listing.
func (s *Service) DiscoverVoices(ctx context.Context) ([]Voice, error) {
	rows, err := s.store.Models(ctx, "tts", false)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, r := range rows {
		if !slices.Contains(ids, r.ModelID) {
			ids = append(ids, r.ModelID)
		}
	}
	if len(ids) == 0 {
		ids = append(ids, "")
	}
	var out []Voice
	for _, id := range ids {
		for _, v := range s.cfg.Voices {
			out = append(out, Voice{ModelID: id, Name: v, Labels: []string{"configured"}})
		}
	}
	return out, nil
}
