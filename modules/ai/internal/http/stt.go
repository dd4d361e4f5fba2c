package http

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// formSlack is what the form may carry beyond the recording (boundaries,
// part headers, a small field or two).
const formSlack = 64 << 10

// TranscriptionResponse is a recording's text.
type TranscriptionResponse struct {
	Text  string `json:"text"`
	Model string `json:"model" doc:"the stt model that wrote it"`
}

type transcribeInput struct {
	ContentType string `header:"Content-Type"`
	RawBody     []byte
}

func sttRoutes(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/stt/transcribe", Tags: []string{"tts"}, // the spec's speech group
		Summary: "Turn a recording into text with the speech-to-text model",
		Description: "multipart/form-data with the recording in the field `file` (MP3, WAV, Ogg, FLAC, WebM or M4A, " +
			"judged by its bytes; at most 10 MiB). 60 per hour and the daily quota stt_daily_quota (admins and " +
			"unthrottled people exempt). 503 with no stt model, 502 when the model fails.",
		// The whole body is read, bounded, before the form is parsed.
		MaxBodyBytes: app.MaxAudioBytes + formSlack,
		Errors: []int{nethttp.StatusRequestEntityTooLarge, nethttp.StatusTooManyRequests, nethttp.StatusBadGateway,
			nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *transcribeInput) (*struct{ Body TranscriptionResponse }, error) {
		audio, err := recording(in.ContentType, in.RawBody)
		if err != nil {
			return nil, err
		}
		t, err := svc.Transcribe(ctx, auth.MustFrom(ctx), audio)
		if err != nil {
			return nil, err
		}
		return &struct{ Body TranscriptionResponse }{TranscriptionResponse(t)}, nil
	})
}

// recording finds the file in the field "file" of a multipart body already
// read (and bounded) in full; one byte past the limit is kept so the
// service can refuse a recording too large.
func recording(contentType string, body []byte) ([]byte, error) {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return nil, apperr.Invalidf("body", "send the recording as multipart/form-data in the field \"file\"")
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.Invalidf("body.file", "the field \"file\" with the recording is missing")
		}
		if err != nil {
			return nil, apperr.BadRequestf("the multipart body cannot be read: %v", err)
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, app.MaxAudioBytes+1))
		if err != nil {
			return nil, apperr.BadRequestf("the multipart body cannot be read: %v", err)
		}
		if len(data) == 0 {
			return nil, apperr.Invalidf("body.file", "the recording is empty")
		}
		return data, nil
	}
}
