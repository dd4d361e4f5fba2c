package http

import (
	"context"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/feedback/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// ReportResponse is a report on the wire.
type ReportResponse struct {
	ID             int64      `json:"id"`
	Kind           string     `json:"kind"`
	TargetID       int64      `json:"target_id"`
	Title          string     `json:"title" doc:"the target's title when it was reported"`
	ReporterID     int64      `json:"reporter_id"`
	Type           string     `json:"type"`
	Text           string     `json:"text"`
	Status         string     `json:"status" enum:"open,resolved,dismissed"`
	ResolutionNote string     `json:"resolution_note"`
	ResolvedAt     *time.Time `json:"resolved_at"`
	CreatedAt      time.Time  `json:"created_at"`
}

func toResponse(r *app.Report) ReportResponse {
	return ReportResponse{ID: r.ID, Kind: r.Kind, TargetID: r.TargetID, Title: r.Title, ReporterID: r.ReporterID,
		Type: r.Type, Text: r.Text, Status: r.Status, ResolutionNote: r.ResolutionNote, ResolvedAt: r.ResolvedAt,
		CreatedAt: r.CreatedAt}
}

type reportOut struct{ Body ReportResponse }

// The request bodies keep the schema names the contract gives them
// (nameHint), which huma derived from the operation when they were
// declared inline.

type fileReportIn struct {
	Body struct {
		Kind     string `json:"kind" minLength:"1" maxLength:"40" doc:"what is reported: question (article and card as their modules land)"`
		TargetID int64  `json:"target_id" minimum:"1"`
		Type     string `json:"type" enum:"wrong_answer,unclear,typo,outdated,broken_media,other"`
		Text     string `json:"text" minLength:"1" maxLength:"2000"`
	} `nameHint:"Post-feedbackRequest"`
}

func (h *handlers) fileReport(ctx context.Context, in *fileReportIn) (*reportOut, error) {
	b := in.Body
	rep, err := h.svc.File(ctx, auth.MustFrom(ctx), app.NewReport{Kind: b.Kind, TargetID: b.TargetID, Type: b.Type, Text: b.Text})
	if err != nil {
		return nil, err
	}
	return &reportOut{toResponse(rep)}, nil
}

type myReportsIn struct{ httpapi.Page }

func (h *handlers) myReports(ctx context.Context, in *myReportsIn) (*httpapi.Listing[ReportResponse], error) {
	rs, total, err := h.svc.Mine(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(rs, total, toResponse), nil
}

type queueIn struct {
	httpapi.Page
	Status   string `query:"status" default:"open" enum:"open,resolved,dismissed,all"`
	Kind     string `query:"kind" maxLength:"40"`
	TargetID int64  `query:"target_id" minimum:"0"`
}

func (in *queueIn) filter() app.Filter {
	f := app.Filter{Status: in.Status, Kind: in.Kind, TargetID: in.TargetID}
	if f.Status == "all" {
		f.Status = ""
	}
	return f
}

func (h *handlers) queue(ctx context.Context, in *queueIn) (*httpapi.Listing[ReportResponse], error) {
	rs, total, err := h.svc.Queue(ctx, in.filter(), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(rs, total, toResponse), nil
}

type resolveIn struct {
	ID   int64 `path:"report_id" minimum:"1"`
	Body struct {
		Status string `json:"status" enum:"resolved,dismissed"`
		Note   string `json:"note,omitempty" required:"false" maxLength:"2000"`
	} `nameHint:"Put-feedback-by-report-id-resolveRequest"`
}

func (h *handlers) resolve(ctx context.Context, in *resolveIn) (*reportOut, error) {
	rep, err := h.svc.Resolve(ctx, auth.MustFrom(ctx), in.ID, in.Body.Status, in.Body.Note)
	if err != nil {
		return nil, err
	}
	return &reportOut{toResponse(rep)}, nil
}

type openCountsIn struct {
	Kind string `query:"kind" required:"true" maxLength:"40"`
	IDs  string `query:"ids" required:"true" maxLength:"4000" doc:"comma-separated target ids"`
}

type openCountsOut struct{ Body map[string]int64 }

func (h *handlers) openCounts(ctx context.Context, in *openCountsIn) (*openCountsOut, error) {
	ids, err := httpapi.ParseIDs("ids", in.IDs)
	if err != nil {
		return nil, err
	}
	counts, err := h.svc.OpenCounts(ctx, in.Kind, ids)
	if err != nil {
		return nil, err
	}
	return &openCountsOut{toCountsByID(counts)}, nil
}

// toCountsByID keys the counts by the id's decimal text (JSON object keys).
func toCountsByID(counts map[int64]int64) map[string]int64 {
	out := make(map[string]int64, len(counts))
	for id, n := range counts {
		out[strconv.FormatInt(id, 10)] = n
	}
	return out
}
