package http

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// AssetResponse is an asset on the wire; path is its storage key and url
// where /uploads serves it.
type AssetResponse struct {
	ID          int64       `json:"id"`
	Path        string      `json:"path"`
	URL         string      `json:"url"`
	Title       string      `json:"title"`
	Caption     string      `json:"caption"`
	AltText     string      `json:"alt_text"`
	Source      string      `json:"source" doc:"the credit"`
	SourceURL   string      `json:"source_url"`
	License     string      `json:"license"`
	Overlay     []app.Shape `json:"overlay"`
	Kind        string      `json:"kind" enum:"image,video"`
	ContentType string      `json:"content_type"`
	Modality    *string     `json:"modality"`
	Spec        any         `json:"spec" doc:"the diagram spec an SVG was drawn from"`
	LibraryID   *int64      `json:"library_id"`
	Storage     string      `json:"storage"`
	ByteSize    int64       `json:"byte_size"`
	Width       int         `json:"width"`
	Height      int         `json:"height"`
	CategoryID  *int64      `json:"category_id"`
	CreatedAt   time.Time   `json:"created_at"`
	DeletedAt   *time.Time  `json:"deleted_at"`
}

func toResponse(a *app.Asset) AssetResponse {
	var spec any
	if len(a.Spec) > 0 {
		spec = a.Spec
	}
	overlay := []app.Shape(a.Overlay)
	if overlay == nil {
		overlay = []app.Shape{}
	}
	return AssetResponse{ID: a.ID, Path: a.Path, URL: "/uploads/" + a.Path, Title: a.Title, Caption: a.Caption,
		AltText: a.AltText, Source: a.Source, SourceURL: a.SourceURL, License: a.License, Overlay: overlay,
		Kind: a.Kind, ContentType: a.ContentType, Modality: a.Modality, Spec: spec, LibraryID: a.LibraryID,
		Storage: a.Storage, ByteSize: a.ByteSize, Width: a.Width, Height: a.Height, CategoryID: a.CategoryID,
		CreatedAt: a.CreatedAt, DeletedAt: a.DeletedAt}
}

type assetOut struct{ Body AssetResponse }

// FigureResponse is a figure placed on a section.
type FigureResponse struct {
	ArticleID int64         `json:"article_id"`
	SectionID string        `json:"section_id"`
	Asset     AssetResponse `json:"asset"`
}

type figureOut struct{ Body FigureResponse }

// ArticlePath names the article a figure is on.
type ArticlePath struct {
	ID int64 `path:"id"`
}

// PlaceExistingInput places an asset already in the library.
type PlaceExistingInput struct {
	ID   int64 `path:"id"`
	Body struct {
		AssetID   int64  `json:"asset_id" minimum:"1"`
		SectionID string `json:"section_id" minLength:"1" maxLength:"64"`
		Replace   bool   `json:"replace,omitempty"`
	} `nameHint:"Post-articles-by-id-figures-existingRequest"`
}

// DrawInput draws a diagram figure (or takes an SVG) for a section.
type DrawInput struct {
	ID   int64 `path:"id"`
	Body struct {
		MetaBody
		SectionID string       `json:"section_id" minLength:"1" maxLength:"64"`
		Replace   bool         `json:"replace,omitempty"`
		Spec      *app.Diagram `json:"spec,omitempty"`
		SVG       string       `json:"svg,omitempty" maxLength:"1000000"`
	} `nameHint:"Post-articles-by-id-figuresRequest"`
}

type figuresOut struct{ Body []FigureResponse }

func toFigure(articleID int64, sectionKey string, a *app.Asset) FigureResponse {
	return FigureResponse{ArticleID: articleID, SectionID: sectionKey, Asset: toResponse(a)}
}

func toFigures(articleID int64, items []app.GalleryItem) []FigureResponse {
	out := make([]FigureResponse, len(items))
	for i, it := range items {
		out[i] = toFigure(articleID, it.SectionKey, it.Asset)
	}
	return out
}

func (h *handlers) placeExisting(ctx context.Context, in *PlaceExistingInput) (*figureOut, error) {
	at := app.Placement{ArticleID: in.ID, SectionKey: in.Body.SectionID, Replace: in.Body.Replace}
	a, err := h.svc.PlaceExisting(ctx, auth.MustFrom(ctx), at, in.Body.AssetID)
	if err != nil {
		return nil, err
	}
	return &figureOut{toFigure(in.ID, at.SectionKey, a)}, nil
}

func (h *handlers) figures(ctx context.Context, in *ArticlePath) (*figuresOut, error) {
	items, err := h.svc.Gallery(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &figuresOut{toFigures(in.ID, items)}, nil
}

func (h *handlers) draw(ctx context.Context, in *DrawInput) (*figureOut, error) {
	b := in.Body
	at := app.Placement{ArticleID: in.ID, SectionKey: b.SectionID, Replace: b.Replace}
	a, err := h.svc.DrawFigure(ctx, auth.MustFrom(ctx), at, b.meta(), b.Spec, b.SVG)
	if err != nil {
		return nil, err
	}
	return &figureOut{toFigure(in.ID, at.SectionKey, a)}, nil
}

// figureForm is the figure upload's form in the contract.
var figureForm = httpapi.Form{
	Description: "multipart/form-data; the file is judged by its bytes, not its name or type",
	Fields: map[string]*huma.Schema{
		"file":        {Type: "string", Format: "binary", Description: "PNG, JPEG or WebP up to 8 MiB, or a silent MP4 or WebM up to 25 MiB"},
		"section_id":  {Type: "string", Description: "the section the figure goes on"},
		"caption":     {Type: "string", Description: "becomes the alt text"},
		"title":       {Type: "string"},
		"credit":      {Type: "string", Description: "required for attribution licences"},
		"source_url":  {Type: "string"},
		"license":     {Type: "string"},
		"modality":    {Type: "string"},
		"category_id": {Type: "integer"},
		"library_id":  {Type: "integer"},
		"replace":     {Type: "boolean", Description: "replace the section's figure instead of adding one"},
	},
	Required: []string{"file", "section_id", "caption"},
}

// multipartSlack is what a form may carry beyond the file.
const multipartSlack = 1 << 20

// maxField bounds one text field of the form.
const maxField = 4000

func (h *handlers) upload(ctx context.Context, in *ArticlePath) (*figureOut, error) {
	articleID := in.ID
	mr, err := httpapi.FormReader(ctx, h.maxBody, multipartSlack, app.TooLarge("upload", h.maxBody),
		`send the figure as multipart/form-data with the file in the field "file"`)
	if err != nil {
		return nil, err
	}
	fields := map[string]string{}
	var file *app.Upload
	defer func() {
		if file != nil {
			_ = file.Close()
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, httpapi.FormError(err)
		}
		name := part.FormName()
		if name == "file" && part.FileName() != "" {
			if file != nil {
				return nil, apperr.Invalidf("file", "send one file")
			}
			if file, err = h.svc.Spool(part); err != nil {
				return nil, httpapi.FormError(err)
			}
			continue
		}
		v, err := io.ReadAll(io.LimitReader(part, maxField+1))
		if err != nil {
			return nil, httpapi.FormError(err)
		}
		if len(v) > maxField {
			return nil, apperr.Invalidf(name, "a form field holds at most %d bytes", maxField)
		}
		fields[name] = string(v)
	}
	if file == nil {
		return nil, apperr.Invalidf("file", "the field \"file\" with the figure is missing")
	}
	m, err := metaOf(fields)
	if err != nil {
		return nil, err
	}
	replace := false
	if v := fields["replace"]; v != "" {
		if replace, err = strconv.ParseBool(v); err != nil {
			return nil, apperr.Invalidf("replace", "replace is true or false")
		}
	}
	at := app.Placement{ArticleID: articleID, SectionKey: fields["section_id"], Replace: replace}
	if at.SectionKey == "" {
		return nil, apperr.Invalidf("section_id", "name the section the figure goes on")
	}
	a, err := h.svc.UploadFigure(ctx, auth.MustFrom(ctx), at, m, file)
	if err != nil {
		return nil, err
	}
	return &figureOut{toFigure(articleID, at.SectionKey, a)}, nil
}

// metaOf reads an asset's metadata from form fields.
func metaOf(f map[string]string) (app.Meta, error) {
	m := app.Meta{Title: f["title"], Caption: f["caption"], Source: f["credit"], SourceURL: f["source_url"],
		License: f["license"]}
	if v := strings.TrimSpace(f["modality"]); v != "" {
		m.Modality = &v
	}
	for name, dst := range map[string]**int64{"category_id": &m.CategoryID, "library_id": &m.LibraryID} {
		if v := strings.TrimSpace(f[name]); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil || id < 1 {
				return m, apperr.Invalidf(name, "%s is a positive integer", name)
			}
			*dst = &id
		}
	}
	return m, nil
}
