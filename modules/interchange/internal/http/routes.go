// Package http is the interchange module's HTTP surface: importing a
// question file into drafts and exporting a quiz as a file.
package http

import (
	"context"
	"fmt"
	"log/slog"
	nethttp "net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/interchange/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
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
	Cards   int               `json:"cards" doc:"cards made (a reversed note makes two, a cloze note one per deletion number)"`
	Refused []RefusalResponse `json:"refused" doc:"notes left out, by position in the collection"`
}

type exportInput struct {
	QuizID int64  `path:"quiz_id"`
	Format string `path:"format" enum:"moodle-xml,gift,qti"`
}

type fileOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	Body               []byte
}

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/drafts/import/{format}", Tags: []string{"drafts"},
		DefaultStatus: nethttp.StatusCreated, MaxBodyBytes: svc.Config().MaxImportBytes,
		Errors:  []int{400, 413, 422},
		Summary: "Import a question file (Moodle XML or GIFT) as a batch of drafts to review",
		Description: "The body is the file itself. Questions the bank can hold become pending drafts of one new " +
			"batch; nothing enters the bank until a draft is accepted. Each question left out is listed with " +
			"its reason. A file that cannot be read is a 400, a DOCTYPE or a file with no importable question " +
			"a 422, a file over the size or question limit a 413; then nothing is stored.",
	}, func(ctx context.Context, in *importInput) (*struct{ Body ImportResponse }, error) {
		res, err := svc.Import(ctx, auth.MustFrom(ctx), app.Formats[in.Format], in.Filename, in.RawBody, in.CategoryID.Ptr())
		if err != nil {
			return nil, err
		}
		out := ImportResponse{BatchID: res.Batch.ID, Source: res.Batch.Source, Imported: res.Batch.Pending,
			Refused: make([]RefusalResponse, len(res.Refused))}
		for i, f := range res.Refused {
			out.Refused[i] = RefusalResponse(f)
		}
		return &struct{ Body ImportResponse }{out}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/flashcard-decks/import/apkg", Tags: []string{"flashcards"},
		DefaultStatus: nethttp.StatusCreated, MaxBodyBytes: svc.Config().MaxPackageBytes,
		Errors:  []int{400, 413, 422},
		Summary: "Import an Anki package (.apkg) as a new flashcard deck",
		Description: "The body is the package itself (exported with \"Support older Anki versions\"). Notes of " +
			"basic, reversed and cloze note types become cards through the same rules as cards written by hand; " +
			"each note left out is listed with its reason. The cards' scheduling and review log in the package " +
			"become the importer's schedule of the new cards. A note's one picture (<img src> naming a media file " +
			"whose bytes are PNG, JPEG or WebP) is stored as a media asset and becomes the card's picture: a basic " +
			"note showing it on its front an image card, any other note its card with the picture; a note with " +
			"several pictures or a missing or non-image one is left out. A package that cannot be read, or whose " +
			"media map names a file it lacks, is a 400; an entry or media name that is a path, a picture that " +
			"cannot be decoded, or no importable note, a 422; a package over its size, unpacked size (zip bomb, " +
			"collection or picture), entry, note, media map or media limits a 413; then nothing is stored.",
	}, func(ctx context.Context, in *ankiInput) (*struct{ Body DeckImportResponse }, error) {
		res, err := svc.ImportAnki(ctx, auth.MustFrom(ctx), in.RawBody, in.CategoryID, in.Title)
		if err != nil {
			return nil, err
		}
		out := DeckImportResponse{DeckID: res.DeckID, Title: res.Title, Notes: res.Notes, Cards: res.Cards,
			Refused: make([]RefusalResponse, len(res.Refused))}
		for i, f := range res.Refused {
			out.Refused[i] = RefusalResponse(f)
		}
		return &struct{ Body DeckImportResponse }{out}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcard-decks/{deck_id}/export/apkg", Tags: []string{"flashcards"},
		Summary: "Export a deck you may study as an Anki package (.apkg) with your schedule",
		Description: "Basic, reversed and cloze cards become notes of Anki's stock note types, image cards " +
			"Basic notes showing the picture on the front; a card's picture is a media file of the package " +
			"(the media map and numbered files) shown in a field with <img src>. Occlusion (masked image) and " +
			"type-in cards are left out (X-Cards-Left-Out counts them). Each card carries your FSRS state of it " +
			"(Anki's due, interval, reps, lapses, queue and type, stability and difficulty in the card's data) and " +
			"the revlog holds your reviews; cards you never studied are new.",
		Responses: map[string]*huma.Response{"200": {Description: "the package, streamed as it is written; one cut short has no zip directory",
			Headers: map[string]*huma.Param{
				"Content-Disposition": {Schema: &huma.Schema{Type: "string"}},
				"X-Cards-Left-Out":    {Description: "occlusion and type-in cards left out", Schema: &huma.Schema{Type: "string"}},
			},
			Content: map[string]*huma.MediaType{"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}},
	}, func(ctx context.Context, in *struct {
		DeckID int64 `path:"deck_id"`
	}) (*huma.StreamResponse, error) {
		pkg, err := svc.ExportAnki(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return stream(svc.Log(), "application/zip", pkg.Filename, func(hc huma.Context) error {
			defer pkg.Close()
			hc.SetHeader("X-Cards-Left-Out", strconv.Itoa(pkg.LeftOut))
			return pkg.Write(hc.BodyWriter())
		}), nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/flashcard-decks/{deck_id}/export/revlog", Tags: []string{"flashcards"},
		Summary: "Export your reviews of a deck as the review log CSV FSRS optimisers read",
		Description: "Columns card_id, review_time (ms since the Unix epoch), review_rating (1 again to 4 easy), " +
			"review_state (the card's state before the review: 0 new, 1 learning, 2 review, 3 relearning) and " +
			"review_duration (ms, 0 when not measured), the revlog.csv of open-spaced-repetition's fsrs-optimizer; " +
			"one row per review, by card then time. Only your own reviews, of a deck you may study.",
	}, func(ctx context.Context, in *struct {
		DeckID int64 `path:"deck_id"`
	}) (*fileOutput, error) {
		buf, err := svc.ExportReviews(ctx, auth.MustFrom(ctx), in.DeckID)
		if err != nil {
			return nil, err
		}
		return &fileOutput{ContentType: "text/csv; charset=utf-8",
			ContentDisposition: fmt.Sprintf(`attachment; filename="deck-%d-revlog.csv"`, in.DeckID), Body: buf.Bytes()}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/quizzes/{quiz_id}/export/{format}", Tags: []string{"quizzes"},
		Summary: "Export a quiz's questions, answers and feedback included, as a file (Moodle XML, GIFT or QTI 2.1)",
		Description: "moodle-xml and gift answer the question file. qti answers a QTI 2.1 content package (zip): " +
			"imsmanifest.xml (IMS CP 1.1), assessment-test.xml referring to one assessmentItem per question " +
			"(items/item_<question id>.xml: choiceInteraction with match_correct, or textEntryInteraction with " +
			"map_response over the accepted answers; the explanation as modalFeedback, per-option feedback in a " +
			"tutor rubricBlock) and the question images under images/, referred to by relative path. The package " +
			"is streamed as it is written; one cut short has no zip directory.",
		Errors: []int{404},
		Responses: map[string]*huma.Response{"200": {Description: "the file", Content: map[string]*huma.MediaType{
			"application/xml": {Schema: &huma.Schema{Type: "string"}},
			"text/plain":      {Schema: &huma.Schema{Type: "string"}},
			"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}},
		}}},
	}, func(ctx context.Context, in *exportInput) (*huma.StreamResponse, error) {
		p := auth.MustFrom(ctx)
		if in.Format == "qti" {
			pkg, err := svc.ExportQTI(ctx, p, in.QuizID)
			if err != nil {
				return nil, err
			}
			return stream(svc.Log(), "application/zip", pkg.Filename, func(hc huma.Context) error {
				return pkg.Write(hc.Context(), hc.BodyWriter())
			}), nil
		}
		f, ok := app.Formats[in.Format]
		if !ok {
			return nil, apperr.Invalidf("path.format", "unknown format %q", in.Format)
		}
		buf, name, err := svc.Export(ctx, p, f, in.QuizID)
		if err != nil {
			return nil, err
		}
		return stream(svc.Log(), f.MediaType, name, func(hc huma.Context) error {
			_, err := hc.BodyWriter().Write(buf.Bytes())
			return err
		}), nil
	})
}

// stream answers a file download written once the status is sent; a write
// that fails then can only be logged (the client sees a cut-short file).
func stream(log *slog.Logger, contentType, filename string, write func(huma.Context) error) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		hc.SetHeader("Content-Type", contentType)
		hc.SetHeader("Content-Disposition", `attachment; filename="`+filename+`"`)
		if err := write(hc); err != nil {
			log.ErrorContext(hc.Context(), "interchange: export cut short", "file", filename, "error", err)
		}
	}}
}
