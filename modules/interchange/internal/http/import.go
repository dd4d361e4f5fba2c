package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/interchange/internal/anki"
	"github.com/roundsedu/rounds/modules/interchange/internal/app"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// RefusalResponse is a question of the file that was not imported.
type RefusalResponse struct {
	Item   int    `json:"item" doc:"1-based position among the file's questions"`
	Name   string `json:"name" doc:"its title in the file"`
	Reason string `json:"reason"`
}

// ImportResponse is the outcome of an import.
type ImportResponse struct {
	BatchID  int64             `json:"batch_id" doc:"review the drafts under /drafts/batches/{batch_id}"`
	Source   string            `json:"source"`
	Imported int               `json:"imported" doc:"drafts created, pending review"`
	Refused  []RefusalResponse `json:"refused"`
}

type importInput struct {
	Format     string             `path:"format" enum:"moodle-xml,gift"`
	CategoryID httpapi.OptionalID `query:"category_id" doc:"Files-into-topic category of the batch; can be set later"`
	Filename   string             `query:"filename" maxLength:"200" doc:"the file's name, shown as the batch's source"`
	RawBody    []byte
}

type ankiInput struct {
	CategoryID int64  `query:"category_id" required:"true" doc:"the deck's category (required for every deck)"`
	Title      string `query:"title" maxLength:"200" doc:"the deck's title; absent: the package's deck name"`
	RawBody    []byte
}

// DeckImportResponse is the outcome of an Anki import.
type DeckImportResponse struct {
	DeckID  int64             `json:"deck_id"`
	Title   string            `json:"title"`
	Notes   int               `json:"notes" doc:"notes imported"`
	Cards   int               `json:"cards" doc:"cards made (a reversed note makes two, a cloze note one per deletion number, an image occlusion note one per hidden shape)"`
	Mapped  []MappingResponse `json:"mapped" doc:"how the notes of each note type were taken"`
	Refused []RefusalResponse `json:"refused" doc:"notes left out, by position in the collection"`
}

// MappingResponse tells how the notes of one note type became cards.
type MappingResponse struct {
	NoteType string `json:"note_type" doc:"the note type's name in the package"`
	As       string `json:"as" enum:"basic,reversed,cloze,image,type_in" doc:"the card type they became"`
	How      string `json:"how" doc:"which of the note type's fields and card templates made the front and back"`
	Notes    int    `json:"notes" doc:"notes taken this way"`
}

type importOut struct{ Body ImportResponse }

type deckImportOut struct{ Body DeckImportResponse }

func (h *handlers) importFile(ctx context.Context, in *importInput) (*importOut, error) {
	res, err := h.svc.Import(ctx, auth.MustFrom(ctx), app.Formats[in.Format], in.Filename, in.RawBody, in.CategoryID.Ptr())
	if err != nil {
		return nil, err
	}
	return &importOut{ImportResponse{BatchID: res.Batch.ID, Source: res.Batch.Source, Imported: res.Batch.Pending,
		Refused: toRefusals(res.Refused)}}, nil
}

func (h *handlers) importAnki(ctx context.Context, in *ankiInput) (*deckImportOut, error) {
	res, err := h.svc.ImportAnki(ctx, auth.MustFrom(ctx), in.RawBody, in.CategoryID, in.Title)
	if err != nil {
		return nil, err
	}
	return &deckImportOut{DeckImportResponse{DeckID: res.DeckID, Title: res.Title, Notes: res.Notes, Cards: res.Cards,
		Mapped: toMappings(res.Mapped), Refused: toRefusals(res.Refused)}}, nil
}

func toRefusals(fs []format.Refusal) []RefusalResponse {
	out := make([]RefusalResponse, len(fs))
	for i, f := range fs {
		out[i] = RefusalResponse(f)
	}
	return out
}

func toMappings(ms []anki.Mapping) []MappingResponse {
	out := make([]MappingResponse, len(ms))
	for i, m := range ms {
		out[i] = MappingResponse{NoteType: m.NoteType, As: m.As, How: m.How, Notes: m.Notes}
	}
	return out
}
