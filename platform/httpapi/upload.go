package httpapi

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Form describes an upload's multipart/form-data body in the contract.
type Form struct {
	Description string
	Fields      map[string]*huma.Schema
	Required    []string
}

type uploadBodyKey struct{}

// uploadBody is an upload's unread request body and its content type.
type uploadBody struct {
	body        io.Reader
	contentType string
}

// RegisterUpload declares an operation whose handler reads a
// multipart/form-data body itself through FormReader, so a file streams to
// disk (huma would read and buffer the whole form before the handler ran).
// The form's schema goes into the document after registration: declared on
// the operation, huma would decode the body.
func RegisterUpload[I, O any](r *Router, level auth.Level, op huma.Operation, form Form, handler func(context.Context, *I) (*O, error)) {
	op.RequestBody = &huma.RequestBody{Required: true, Description: form.Description,
		Content: map[string]*huma.MediaType{"multipart/form-data": {}}}
	op.Middlewares = append(op.Middlewares, r.keepUploadBody)
	Register(r, level, op, handler)
	item := r.api.OpenAPI().Paths[Prefix+op.Path]
	if item == nil || item.Post == nil {
		return
	}
	item.Post.RequestBody.Content["multipart/form-data"].Schema = &huma.Schema{
		Type: "object", Required: form.Required, Properties: form.Fields}
}

// keepUploadBody puts the unread body on the context for FormReader, and
// gives it the upload's time to arrive in place of the server's read
// timeout.
func (r *Router) keepUploadBody(hctx huma.Context, next func(huma.Context)) {
	if r.uploadTimeout > 0 {
		_ = hctx.SetReadDeadline(time.Now().Add(r.uploadTimeout))
	}
	ctx := context.WithValue(hctx.Context(), uploadBodyKey{},
		uploadBody{body: hctx.BodyReader(), contentType: hctx.Header("Content-Type")})
	next(huma.WithContext(hctx, ctx))
}

// FormReader opens an upload's body (RegisterUpload) as a multipart form.
// The whole body may pass the file's own limit by slack (the other fields,
// the boundaries); past that every read fails with tooLarge, the same
// refusal as a file over its limit. A body that is not multipart/form-data
// is refused with hint, which says what to send.
func FormReader(ctx context.Context, limit, slack int64, tooLarge error, hint string) (*multipart.Reader, error) {
	raw, _ := ctx.Value(uploadBodyKey{}).(uploadBody)
	mediaType, params, err := mime.ParseMediaType(raw.contentType)
	if raw.body == nil || err != nil || mediaType != "multipart/form-data" || params["boundary"] == "" {
		return nil, apperr.Invalidf("body", "%s", hint)
	}
	return multipart.NewReader(&cappedReader{r: raw.body, left: limit + slack, tooLarge: tooLarge}, params["boundary"]), nil
}

// FormError is the answer for a failure to read an upload's form: the
// refusal it carries (a body over its limit), or 400 saying why.
func FormError(err error) error {
	if ae, ok := apperr.As(err); ok {
		return ae
	}
	return apperr.BadRequestf("the multipart body cannot be read: %v", err)
}

// cappedReader fails every read once left bytes have been read.
type cappedReader struct {
	r        io.Reader
	left     int64
	tooLarge error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, c.tooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
