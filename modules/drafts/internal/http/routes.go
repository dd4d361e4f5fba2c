package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc       *app.Service
	maxUpload int64
}

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service, maxUpload int64) {
	h := &handlers{svc: svc, maxUpload: maxUpload}
	documentRoutes(r, h)
	draftRoutes(r, h)
	jobRoutes(r, h)
	pipelineRoutes(r, h)
}

func documentRoutes(r *httpapi.Router, h *handlers) {
	const tag = "documents"
	up := httpapi.Described(httpapi.Op(http.MethodPost, "/documents/upload", tag, "Upload a PDF", http.StatusCreated, 400, 422),
		"Stores the PDF (judged by its bytes; at most MAX_UPLOAD_SIZE, 400 above it) and "+
			"dispatches process_pdf; when the job queue cannot take it, processing runs inside the request "+
			"and the answer already shows the outcome.")
	httpapi.RegisterUpload(r, auth.Mod, up, uploadForm, h.upload)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/documents/", tag,
		"List documents (moderators see all, others their own)", 0), h.listDocuments)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/documents/{document_id}", tag,
		"A document with its sections (its uploader or a moderator)", 0, 404), h.getDocument)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/documents/{document_id}/status", tag,
		"A document's processing status", 0, 404), h.documentStatus)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/documents/{document_id}/processing-steps", tag,
		"A document's processing steps", 0, 404), h.documentSteps)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/documents/{document_id}/reprocess", tag,
		"Process a ready or failed document again", http.StatusAccepted, 404, 409), h.reprocess)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/documents/{document_id}/sections", tag,
		"Name a page range (1-based, inclusive)", http.StatusCreated, 400, 404, 422), h.createSection)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/documents/{document_id}/sections/{section_id}", tag,
		"Delete a section (extracted drafts stay)", http.StatusNoContent, 404), h.deleteSection)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/documents/{document_id}", tag,
		"Delete a document, its file and derived data", http.StatusNoContent, 404), h.deleteDocument)
}

func draftRoutes(r *httpapi.Router, h *handlers) {
	const tag = "drafts"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/drafts/extract", tag,
		"Start an extraction from a section", http.StatusAccepted, 400, 404, 422, 503), h.extract)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/drafts/batches", tag,
		"List extraction batches (open by default)", 0), h.listBatches)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/drafts/batches/{batch_id}", tag,
		"A batch with its counts", 0, 404), h.getBatch)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/drafts/batches/{batch_id}", tag,
		"Set a batch's Files-into-topic category", 0, 404, 422), h.patchBatch)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/drafts/batches/{batch_id}/drafts", tag,
		"The drafts of a batch in extraction order", 0, 404), h.batchDrafts)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/drafts/accept", tag,
		"Accept drafts into the bank, all or nothing", 0, 400, 404, 409, 422), h.accept)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/drafts/reject", tag,
		"Reject drafts, all or nothing", 0, 404, 409, 422), h.reject)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/drafts/{id}", tag,
		"A draft", 0, 404), h.getDraft)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/drafts/{id}", tag,
		"Edit a draft (refused once accepted)", 0, 404, 409, 422), h.patchDraft)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/drafts/{id}/reopen", tag,
		"Reopen a rejected draft", 0, 400, 404, 409), h.reopen)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/drafts/{id}", tag,
		"Delete a rejected draft", http.StatusNoContent, 400, 404, 409), h.deleteDraft)
}

func jobRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/quizzes/", tag,
		"Start a draft-only extraction (no synchronous fallback)", http.StatusAccepted, 400, 404, 422, 503), h.extract)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/quizzes/jobs", tag,
		"The caller's recent extraction jobs", 0), h.listJobs)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/quizzes/job/{job_id}", tag,
		"An extraction job's status and steps", 0, 404), h.getJob)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/quizzes/job/{job_id}/cancel", tag,
		"Cancel your own extraction job", 0, 400, 403, 404), h.cancelJob)
}
