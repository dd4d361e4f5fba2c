package http

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// multipartSlack is what a request may carry beyond the file itself
// (boundaries, part headers, small extra fields).
const multipartSlack = 1 << 20

// uploadFileField is the multipart field the PDF arrives in.
const uploadFileField = "file"

type rawBodyKey struct{}

// rawBody is the request body and its content type, which the upload
// parses itself so the file streams straight to disk (huma would buffer
// the whole form first).
type rawBody struct {
	body        io.Reader
	contentType string
}

// keepRawBody puts the unread body on the context for the handler.
func keepRawBody(hctx huma.Context, next func(huma.Context)) {
	ctx := context.WithValue(hctx.Context(), rawBodyKey{},
		rawBody{body: hctx.BodyReader(), contentType: hctx.Header("Content-Type")})
	next(huma.WithContext(hctx, ctx))
}

// uploadRequestBody declares the multipart body without a schema: huma
// would otherwise read and decode the body itself. documentUploadSchema
// fills the schema into the OpenAPI document after registration.
func uploadRequestBody() *huma.RequestBody {
	return &huma.RequestBody{
		Required:    true,
		Description: "multipart/form-data with the PDF in the field `file`; judged by its bytes, not its name or type",
		Content:     map[string]*huma.MediaType{"multipart/form-data": {}},
	}
}

// documentUploadSchema describes the form in the contract.
func documentUploadSchema(api huma.API, path string) {
	item := api.OpenAPI().Paths[path]
	if item == nil || item.Post == nil || item.Post.RequestBody == nil {
		return
	}
	item.Post.RequestBody.Content["multipart/form-data"].Schema = &huma.Schema{
		Type:     "object",
		Required: []string{uploadFileField},
		Properties: map[string]*huma.Schema{
			uploadFileField: {Type: "string", Format: "binary", Description: "The PDF"},
		},
	}
}

func (h *handlers) upload(ctx context.Context, _ *struct{}) (*documentOut, error) {
	raw, _ := ctx.Value(rawBodyKey{}).(rawBody)
	mediaType, params, err := mime.ParseMediaType(raw.contentType)
	if err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return nil, apperr.Invalidf("body", "send the PDF as multipart/form-data in a field named %q", uploadFileField)
	}
	limit := h.maxUpload + multipartSlack
	mr := multipart.NewReader(&cappedReader{r: raw.body, left: limit, limit: h.maxUpload}, params["boundary"])
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.Invalidf("body."+uploadFileField, "the field %q with the PDF is missing", uploadFileField)
		}
		if err != nil {
			if ae, ok := apperr.As(err); ok {
				return nil, ae
			}
			return nil, apperr.BadRequestf("the multipart body cannot be read: %v", err)
		}
		if part.FormName() != uploadFileField {
			if _, err := io.Copy(io.Discard, part); err != nil {
				if ae, ok := apperr.As(err); ok {
					return nil, ae
				}
				return nil, apperr.BadRequestf("the multipart body cannot be read: %v", err)
			}
			continue
		}
		if part.FileName() == "" {
			return nil, apperr.Invalidf("body."+uploadFileField, "the field %q must carry a file", uploadFileField)
		}
		doc, err := h.svc.Upload(ctx, auth.MustFrom(ctx), app.UploadFile{Name: part.FileName(), Body: part})
		if err != nil {
			return nil, err
		}
		return &documentOut{Body: toDocumentResponse(doc)}, nil
	}
}

// cappedReader fails the request once the whole body passes the upload
// limit plus the multipart slack, with the same refusal as a large file.
type cappedReader struct {
	r     io.Reader
	left  int64
	limit int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, app.TooLarge(c.limit)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
