package app

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// UsageRow is one person's model use, as the store sums it.
type UsageRow = store.UsageRow

// SpeechVoice is a voice a learner may choose: id is model_route:voice.
type SpeechVoice struct {
	ID        string
	Name      string
	IsDefault bool
}

// Voices lists the active speech voices.
func (s *Service) Voices(ctx context.Context) ([]SpeechVoice, error) {
	rows, err := s.store.Models(ctx, "tts", true)
	if err != nil {
		return nil, err
	}
	out := make([]SpeechVoice, len(rows))
	for i, r := range rows {
		name := r.Name
		if name == "" {
			name = r.Voice
		} else {
			name += " (" + r.Voice + ")"
		}
		out[i] = SpeechVoice{ID: r.ModelID + ":" + r.Voice, Name: name, IsDefault: r.IsDefault}
	}
	return out, nil
}

// Speak turns text into audio/mpeg with the chosen voice; the caller
// streams and closes the result.
func (s *Service) Speak(ctx context.Context, p auth.Principal, voiceID, text string) (io.ReadCloser, error) {
	rows, err := s.store.Models(ctx, "tts", true)
	if err != nil {
		return nil, err
	}
	var m *store.Model
	valid := make([]string, 0, len(rows))
	for i, r := range rows {
		id := r.ModelID + ":" + r.Voice
		valid = append(valid, id)
		if id == voiceID {
			m = &rows[i]
		}
	}
	if len(rows) == 0 {
		return nil, apperr.New(apperr.Unavailable, "no speech model is configured (an admin adds one for the task tts)")
	}
	if m == nil {
		return nil, apperr.Invalidf("voice", "voice must be one of %s (GET /tts/voices)", strings.Join(valid, ", "))
	}
	rate := ratelimit.Limit{Name: "ai.speech", Max: s.cfg.SpeechPerHour, Window: time.Hour}
	if err := s.limit(ctx, p, "tts", rate, SettingSpeechQuota); err != nil {
		return nil, err
	}
	t, err := s.target(m)
	if err != nil {
		return nil, err
	}
	audio, err := s.gw.Speak(ctx, t, m.Voice, text)
	if err != nil {
		return nil, s.forCaller(ctx, p, "tts", err)
	}
	// Speech is billed by characters: they stand in for prompt tokens.
	s.record(ctx, p, "tts", m.ModelID, int64(len([]rune(text))), 0)
	return audio, nil
}

// Usage sums calls and tokens per person and task over the last days.
func (s *Service) Usage(ctx context.Context, days, limit, offset int) ([]store.UsageRow, error) {
	return s.store.UsageSince(ctx, s.now().Add(-time.Duration(days)*24*time.Hour), limit, offset)
}
