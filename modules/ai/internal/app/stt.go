package app

import (
	"bytes"
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// MaxAudioBytes bounds one recording sent for transcription.
const MaxAudioBytes = 10 << 20

// AudioFormat is a recording format the transcription route accepts.
type AudioFormat struct {
	Ext         string // the proxy infers the format from the file name
	ContentType string
}

// SniffAudio tells a recording's format from its first bytes (what it
// claims to be is not trusted); false when it is none the models read.
func SniffAudio(b []byte) (AudioFormat, bool) {
	switch {
	case bytes.HasPrefix(b, []byte("ID3")), len(b) >= 2 && b[0] == 0xFF && b[1]&0xE0 == 0xE0 && b[1]&0x06 != 0:
		return AudioFormat{"mp3", "audio/mpeg"}, true
	case len(b) >= 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WAVE")):
		return AudioFormat{"wav", "audio/wav"}, true
	case bytes.HasPrefix(b, []byte("OggS")):
		return AudioFormat{"ogg", "audio/ogg"}, true
	case bytes.HasPrefix(b, []byte("fLaC")):
		return AudioFormat{"flac", "audio/flac"}, true
	case bytes.HasPrefix(b, []byte{0x1A, 0x45, 0xDF, 0xA3}):
		return AudioFormat{"webm", "audio/webm"}, true
	case len(b) >= 12 && bytes.Equal(b[4:8], []byte("ftyp")):
		return AudioFormat{"m4a", "audio/mp4"}, true
	}
	return AudioFormat{}, false
}

// Transcription is a recording's text and the model that wrote it.
type Transcription struct {
	Text  string
	Model string
}

// SettingSTTQuota is the daily quota of transcriptions per person.
const SettingSTTQuota = "stt_daily_quota"

// Transcribe turns a recording into text with the default active stt
// model: 422 when the bytes are no audio format it reads, 503 with no stt
// model, 429 past the hourly limit or the daily quota (admins and
// unthrottled people exempt), 502 when the model fails.
func (s *Service) Transcribe(ctx context.Context, p auth.Principal, audio []byte) (Transcription, error) {
	if len(audio) > MaxAudioBytes {
		return Transcription{}, &apperr.Error{Code: apperr.TooLarge,
			Message: "the recording is larger than the 10 MiB transcriptions take"}
	}
	f, ok := SniffAudio(audio)
	if !ok {
		return Transcription{}, apperr.Invalidf("body.file",
			"the file is not a recording the models read (MP3, WAV, Ogg, FLAC, WebM or M4A)")
	}
	rows, err := s.store.Models(ctx, "stt", true) // the default first
	if err != nil {
		return Transcription{}, err
	}
	if len(rows) == 0 {
		return Transcription{}, apperr.New(apperr.Unavailable, "no speech-to-text model is configured (an admin adds one for the task stt)")
	}
	m := &rows[0]
	rate := ratelimit.Limit{Name: "ai.stt", Max: s.cfg.STTPerHour, Window: time.Hour}
	if err := s.limit(ctx, p, "stt", rate, SettingSTTQuota); err != nil {
		return Transcription{}, err
	}
	t, err := s.target(m)
	if err != nil {
		return Transcription{}, err
	}
	text, err := s.gw.Transcribe(ctx, t, gateway.Audio{Body: bytes.NewReader(audio), Filename: "audio." + f.Ext,
		ContentType: f.ContentType})
	if err != nil {
		return Transcription{}, s.forCaller(ctx, p, "stt", err)
	}
	s.record(ctx, p, "stt", m.ModelID, 0, 0)
	return Transcription{Text: text, Model: m.ModelID}, nil
}
