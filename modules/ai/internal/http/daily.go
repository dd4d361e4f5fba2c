package http

import (
	"context"
	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"net/http"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

func dailyUsageRoutes(r *httpapi.Router, h *handlers) {
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodGet, "/admin/ai/usage/daily", "admin",
		"Model calls and tokens per UTC day and task over the last days, oldest day first", 0), h.daily)
}

type dailyUsageIn struct {
	Days int `query:"days" default:"30" minimum:"1" maximum:"90" doc:"UTC days back, today included"`
}

// DailyUsageResponse is one task's use on one UTC day.
type DailyUsageResponse struct {
	Day              string `json:"day" doc:"YYYY-MM-DD (UTC)"`
	Task             string `json:"task"`
	Calls            int64  `json:"calls"`
	PromptTokens     int64  `json:"prompt_tokens" doc:"speech: characters"`
	CompletionTokens int64  `json:"completion_tokens"`
}

// DailyUsageListResponse is the usage chart's series.
type DailyUsageListResponse struct {
	Since string               `json:"since" doc:"YYYY-MM-DD (UTC), the first day counted"`
	Days  []DailyUsageResponse `json:"days" doc:"days and tasks with calls, oldest first"`
}

type dailyUsageOut struct{ Body DailyUsageListResponse }

func (h *handlers) daily(ctx context.Context, in *dailyUsageIn) (*dailyUsageOut, error) {
	since, rows, err := h.svc.DailyUsage(ctx, in.Days)
	if err != nil {
		return nil, err
	}
	return &dailyUsageOut{Body: DailyUsageListResponse{Since: since.Format(time.DateOnly), Days: toDailyUsage(rows)}}, nil
}

func toDailyUsage(rows []app.DailyUsage) []DailyUsageResponse {
	out := make([]DailyUsageResponse, len(rows))
	for i, r := range rows {
		out[i] = DailyUsageResponse{Day: r.Day.UTC().Format(time.DateOnly), Task: r.Task, Calls: r.Calls,
			PromptTokens: r.PromptTokens, CompletionTokens: r.CompletionTokens}
	}
	return out
}
