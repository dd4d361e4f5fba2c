package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// NoteResponse is a note on the wire.
type NoteResponse struct {
	ID         int64     `json:"id"`
	QuestionID int64     `json:"question_id"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func toNoteResponse(n *app.Note) NoteResponse {
	return NoteResponse{ID: n.ID, QuestionID: n.QuestionID, Body: n.Body, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt}
}

type notesIn struct {
	PageQuery
	QuestionIDs string `query:"question_ids" maxLength:"2000" doc:"comma-separated: only notes on these questions"`
}

type notesOut struct{ Body []NoteResponse }

func (h *handlers) notes(ctx context.Context, in *notesIn) (*notesOut, error) {
	ids, err := httpapi.ParseIDs("question_ids", in.QuestionIDs)
	if err != nil {
		return nil, err
	}
	ns, err := h.svc.Notes(ctx, auth.MustFrom(ctx), ids, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &notesOut{Body: toNoteResponses(ns)}, nil
}

type noteOut struct{ Body NoteResponse }

func (h *handlers) note(ctx context.Context, in *QuestionPath) (*noteOut, error) {
	n, err := h.svc.Note(ctx, auth.MustFrom(ctx), in.QuestionID)
	if err != nil {
		return nil, err
	}
	return &noteOut{Body: toNoteResponse(n)}, nil
}

type putNoteIn struct {
	QuestionPath
	Body struct {
		Body string `json:"body" minLength:"1" maxLength:"10000"`
	}
}

func (h *handlers) putNote(ctx context.Context, in *putNoteIn) (*noteOut, error) {
	n, err := h.svc.PutNote(ctx, auth.MustFrom(ctx), in.QuestionID, in.Body.Body)
	if err != nil {
		return nil, err
	}
	return &noteOut{Body: toNoteResponse(n)}, nil
}

func (h *handlers) deleteNote(ctx context.Context, in *QuestionPath) (*struct{}, error) {
	return nil, h.svc.DeleteNote(ctx, auth.MustFrom(ctx), in.QuestionID)
}

func toNoteResponses(ns []app.Note) []NoteResponse {
	out := make([]NoteResponse, len(ns))
	for i := range ns {
		out[i] = toNoteResponse(&ns[i])
	}
	return out
}
