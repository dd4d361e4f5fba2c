package http

import (
	"context"
	"net/http"

	"github.com/roundsedu/rounds/modules/analytics/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

func chartRoutes(r *httpapi.Router, h *handlers) {
	httpapi.Register(r, auth.Mod, httpapi.Described(httpapi.Op(http.MethodGet, "/questions/analysis/map", "questions",
		"Facility against discrimination of every question answered enough (its newest version)", 0),
		"Questions whose newest version has at least analytics.min_responses responses from timed attempts "+
			"(as the analysis flags), the most answered first, at most 2,000."), h.itemMap)
}

// ItemPointResponse is one question on the item map.
type ItemPointResponse struct {
	QuestionID     int64    `json:"question_id"`
	Version        int      `json:"version"`
	Responses      int64    `json:"responses"`
	Facility       *float64 `json:"facility" doc:"share answered right (p-value)"`
	Discrimination *float64 `json:"discrimination" doc:"point-biserial against the rest-of-test score; null without spread"`
}

type itemMapOut struct{ Body []ItemPointResponse }

func (h *handlers) itemMap(ctx context.Context, _ *struct{}) (*itemMapOut, error) {
	items, err := h.svc.ItemMap(ctx)
	if err != nil {
		return nil, err
	}
	return &itemMapOut{Body: toItemPoints(items)}, nil
}

func toItemPoints(items []app.Item) []ItemPointResponse {
	out := make([]ItemPointResponse, len(items))
	for i, it := range items {
		out[i] = ItemPointResponse{QuestionID: it.QuestionID, Version: it.Version, Responses: it.Responses,
			Facility: it.Facility, Discrimination: it.Discrimination}
	}
	return out
}
