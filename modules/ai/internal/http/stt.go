package http

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
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

type transcribeOut struct{ Body TranscriptionResponse }

func (h *handlers) transcribe(ctx context.Context, in *transcribeInput) (*transcribeOut, error) {
	audio, err := recording(in.ContentType, in.RawBody)
	if err != nil {
		return nil, err
	}
	t, err := h.svc.Transcribe(ctx, auth.MustFrom(ctx), audio)
	if err != nil {
		return nil, err
	}
	return &transcribeOut{TranscriptionResponse(t)}, nil
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
