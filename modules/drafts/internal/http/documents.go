package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// PageQuery pages a listing.
type PageQuery struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200" doc:"Page size"`
	Offset int `query:"offset" default:"0" minimum:"0" doc:"Rows to skip"`
}

// DocumentPath names a document.
type DocumentPath struct {
	DocumentID int64 `path:"document_id"`
}

type documentOut struct{ Body DocumentResponse }

type listDocumentsIn struct{ PageQuery }

type listDocumentsOut struct{ Body []DocumentResponse }

func (h *handlers) listDocuments(ctx context.Context, in *listDocumentsIn) (*listDocumentsOut, error) {
	docs, err := h.svc.Documents(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &listDocumentsOut{Body: toDocumentResponses(docs)}, nil
}

type documentDetailOut struct{ Body DocumentDetail }

func (h *handlers) getDocument(ctx context.Context, in *DocumentPath) (*documentDetailOut, error) {
	d, err := h.svc.Document(ctx, auth.MustFrom(ctx), in.DocumentID)
	if err != nil {
		return nil, err
	}
	return &documentDetailOut{Body: DocumentDetail{DocumentResponse: toDocumentResponse(d),
		Sections: toSectionResponses(d.Sections)}}, nil
}

type statusOut struct{ Body StatusResponse }

func (h *handlers) documentStatus(ctx context.Context, in *DocumentPath) (*statusOut, error) {
	d, err := h.svc.DocumentStatus(ctx, in.DocumentID)
	if err != nil {
		return nil, err
	}
	return &statusOut{Body: StatusResponse{ID: d.ID, Status: d.Status, TotalPages: d.TotalPages,
		ErrorMessage: d.ErrorMessage}}, nil
}

type stepsOut struct{ Body StepsResponse }

func (h *handlers) documentSteps(ctx context.Context, in *DocumentPath) (*stepsOut, error) {
	steps, err := h.svc.DocumentSteps(ctx, in.DocumentID)
	if err != nil {
		return nil, err
	}
	return &stepsOut{Body: StepsResponse{Steps: toStepResponses(steps)}}, nil
}

func (h *handlers) deleteDocument(ctx context.Context, in *DocumentPath) (*struct{}, error) {
	return nil, h.svc.DeleteDocument(ctx, in.DocumentID)
}

func (h *handlers) reprocess(ctx context.Context, in *DocumentPath) (*documentOut, error) {
	d, err := h.svc.Reprocess(ctx, auth.MustFrom(ctx), in.DocumentID)
	if err != nil {
		return nil, err
	}
	return &documentOut{Body: toDocumentResponse(d)}, nil
}

type createSectionIn struct {
	DocumentPath
	Body struct {
		Name      string `json:"name" minLength:"1" maxLength:"200"`
		StartPage int    `json:"start_page" doc:"First page, counting from 1"`
		EndPage   int    `json:"end_page" doc:"Last page, inclusive; at most the document's total_pages"`
	}
}

type sectionOut struct{ Body SectionResponse }

func (h *handlers) createSection(ctx context.Context, in *createSectionIn) (*sectionOut, error) {
	s, err := h.svc.CreateSection(ctx, auth.MustFrom(ctx), in.DocumentID, app.NewSection{
		Name: in.Body.Name, StartPage: in.Body.StartPage, EndPage: in.Body.EndPage})
	if err != nil {
		return nil, err
	}
	return &sectionOut{Body: toSectionResponse(s)}, nil
}

// SectionPath names a section of a document.
type SectionPath struct {
	DocumentPath
	SectionID int64 `path:"section_id"`
}

func (h *handlers) deleteSection(ctx context.Context, in *SectionPath) (*struct{}, error) {
	return nil, h.svc.DeleteSection(ctx, in.DocumentID, in.SectionID)
}
