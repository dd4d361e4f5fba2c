package http

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// multipartSlack is what a request may carry beyond the file itself
// (boundaries, part headers, small extra fields).
const multipartSlack = 1 << 20

// uploadFileField is the multipart field the PDF arrives in.
const uploadFileField = "file"

// uploadForm is the document upload's form in the contract.
var uploadForm = httpapi.Form{
	Description: "multipart/form-data with the PDF in the field `file`; judged by its bytes, not its name or type",
	Fields:      map[string]*huma.Schema{uploadFileField: {Type: "string", Format: "binary", Description: "The PDF"}},
	Required:    []string{uploadFileField},
}

func (h *handlers) upload(ctx context.Context, _ *struct{}) (*documentOut, error) {
	mr, err := httpapi.FormReader(ctx, h.maxUpload, multipartSlack, app.TooLarge(h.maxUpload),
		fmt.Sprintf("send the PDF as multipart/form-data in a field named %q", uploadFileField))
	if err != nil {
		return nil, err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apperr.Invalidf("body."+uploadFileField, "the field %q with the PDF is missing", uploadFileField)
		}
		if err != nil {
			return nil, httpapi.FormError(err)
		}
		if part.FormName() != uploadFileField {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return nil, httpapi.FormError(err)
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
