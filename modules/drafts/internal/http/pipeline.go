package http

import (
	"context"
	"github.com/roundsedu/rounds/modules/drafts/internal/app"
	"net/http"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

func pipelineRoutes(r *httpapi.Router, h *handlers) {
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/drafts/stats/pipeline", "drafts",
		"The draft pipeline: documents by processing status, drafts by review status", 0), h.pipeline)
}

// StatusCountResponse is how many hold one status.
type StatusCountResponse struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

// PipelineResponse is where the site's PDFs and drafts stand.
type PipelineResponse struct {
	Documents []StatusCountResponse `json:"documents" doc:"processing, ready, failed"`
	Drafts    []StatusCountResponse `json:"drafts" doc:"pending, accepted, rejected"`
}

type pipelineOut struct{ Body PipelineResponse }

func (h *handlers) pipeline(ctx context.Context, _ *struct{}) (*pipelineOut, error) {
	p, err := h.svc.Pipeline(ctx)
	if err != nil {
		return nil, err
	}
	return &pipelineOut{Body: PipelineResponse{Documents: toStatusCounts(p.Documents), Drafts: toStatusCounts(p.Drafts)}}, nil
}

func toStatusCounts(cs []app.StatusCount) []StatusCountResponse {
	out := make([]StatusCountResponse, len(cs))
	for i, c := range cs {
		out[i] = StatusCountResponse{Status: c.Status, Count: c.N}
	}
	return out
}
