package http

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/interchange/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

type exportInput struct {
	QuizID int64  `path:"quiz_id"`
	Format string `path:"format" enum:"moodle-xml,gift,qti"`
}

type fileOutput struct {
	ContentType        string `header:"Content-Type"`
	ContentDisposition string `header:"Content-Disposition"`
	Body               []byte
}

// DeckPath names a deck to export.
type DeckPath struct {
	DeckID int64 `path:"deck_id"`
}

// AnkiExportInput asks for a deck's package in a layout.
type AnkiExportInput struct {
	DeckPath
	Layout string `query:"layout" enum:"latest,legacy" default:"latest" doc:"latest: Anki 2.1.50+'s package (zstd, schema 18); legacy: collection.anki2 (schema 11) for any Anki"`
}

func (h *handlers) exportAnki(ctx context.Context, in *AnkiExportInput) (*huma.StreamResponse, error) {
	exp, err := h.svc.ExportAnki(ctx, auth.MustFrom(ctx), in.DeckID, app.AnkiLayouts[in.Layout])
	if err != nil {
		return nil, err
	}
	return stream(h.svc.Log(), "application/zip", exp.Filename, func(hc huma.Context) error {
		defer exp.Remove()
		hc.SetHeader("X-Cards-Left-Out", strconv.Itoa(exp.LeftOut))
		return exp.Write(hc.BodyWriter())
	}), nil
}

func (h *handlers) exportReviews(ctx context.Context, in *DeckPath) (*fileOutput, error) {
	buf, err := h.svc.ExportReviews(ctx, auth.MustFrom(ctx), in.DeckID)
	if err != nil {
		return nil, err
	}
	return &fileOutput{ContentType: "text/csv; charset=utf-8",
		ContentDisposition: fmt.Sprintf(`attachment; filename="deck-%d-revlog.csv"`, in.DeckID), Body: buf.Bytes()}, nil
}

func (h *handlers) exportQuiz(ctx context.Context, in *exportInput) (*huma.StreamResponse, error) {
	p := auth.MustFrom(ctx)
	if in.Format == "qti" {
		pkg, err := h.svc.ExportQTI(ctx, p, in.QuizID)
		if err != nil {
			return nil, err
		}
		return stream(h.svc.Log(), "application/zip", pkg.Filename, func(hc huma.Context) error {
			return pkg.Write(hc.Context(), hc.BodyWriter())
		}), nil
	}
	f, ok := app.Formats[in.Format]
	if !ok {
		return nil, apperr.Invalidf("path.format", "unknown format %q", in.Format)
	}
	buf, name, err := h.svc.Export(ctx, p, f, in.QuizID)
	if err != nil {
		return nil, err
	}
	return stream(h.svc.Log(), f.MediaType, name, func(hc huma.Context) error {
		_, err := hc.BodyWriter().Write(buf.Bytes())
		return err
	}), nil
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
