// Package http is the feedback module's HTTP surface: filing a report,
// the reporter's own list, and the moderators' queue.
package http

import (
	"context"
	nethttp "net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/feedback/internal/app"
	"github.com/roundsedu/rounds/modules/feedback/internal/store"
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

// Register adds the feedback operations.
func Register(r *httpapi.Router, svc *app.Service) {
	tags := []string{"feedback"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/feedback", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Report a problem with something you read (one open report per target)",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict, nethttp.StatusTooManyRequests},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Kind     string `json:"kind" minLength:"1" maxLength:"40" doc:"what is reported: question (article and card as their modules land)"`
			TargetID int64  `json:"target_id" minimum:"1"`
			Type     string `json:"type" enum:"wrong_answer,unclear,typo,outdated,broken_media,other"`
			Text     string `json:"text" minLength:"1" maxLength:"2000"`
		}
	}) (*reportOut, error) {
		b := in.Body
		rep, err := svc.File(ctx, auth.MustFrom(ctx), app.NewReport{Kind: b.Kind, TargetID: b.TargetID, Type: b.Type, Text: b.Text})
		if err != nil {
			return nil, err
		}
		return &reportOut{toResponse(rep)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/feedback/mine", Tags: tags,
		Summary: "Your reports and what became of them, newest first",
	}, func(ctx context.Context, in *struct{ httpapi.Page }) (*httpapi.Listing[ReportResponse], error) {
		rs, total, err := svc.Mine(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(rs, total, toResponse), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/feedback", Tags: tags,
		Summary: "The report queue, newest first (open ones by default)",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		Status   string `query:"status" default:"open" enum:"open,resolved,dismissed,all"`
		Kind     string `query:"kind" maxLength:"40"`
		TargetID int64  `query:"target_id" minimum:"0"`
	}) (*httpapi.Listing[ReportResponse], error) {
		f := store.Filter{Status: in.Status, Kind: in.Kind, TargetID: in.TargetID}
		if f.Status == "all" {
			f.Status = ""
		}
		rs, total, err := svc.Queue(ctx, f, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(rs, total, toResponse), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/feedback/{report_id}/resolve", Tags: tags,
		Summary: "Close an open report as resolved or dismissed, with a note the reporter reads",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusConflict},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"report_id" minimum:"1"`
		Body struct {
			Status string `json:"status" enum:"resolved,dismissed"`
			Note   string `json:"note,omitempty" required:"false" maxLength:"2000"`
		}
	}) (*reportOut, error) {
		rep, err := svc.Resolve(ctx, auth.MustFrom(ctx), in.ID, in.Body.Status, in.Body.Note)
		if err != nil {
			return nil, err
		}
		return &reportOut{toResponse(rep)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodGet, Path: "/feedback/open-counts", Tags: tags,
		Summary: "How many open reports each of the given targets has (an editor's marks); ids without any are absent",
	}, func(ctx context.Context, in *struct {
		Kind string `query:"kind" required:"true" maxLength:"40"`
		IDs  string `query:"ids" required:"true" maxLength:"4000" doc:"comma-separated target ids"`
	}) (*struct{ Body map[string]int64 }, error) {
		ids, err := httpapi.ParseIDs("ids", in.IDs)
		if err != nil {
			return nil, err
		}
		counts, err := svc.OpenCounts(ctx, in.Kind, ids)
		if err != nil {
			return nil, err
		}
		out := make(map[string]int64, len(counts))
		for id, n := range counts {
			out[strconv.FormatInt(id, 10)] = n
		}
		return &struct{ Body map[string]int64 }{out}, nil
	})
}
