package http

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// TagCountBody is a tag with the live questions carrying it.
type TagCountBody struct {
	ID            int64  `json:"id"`
	Type          string `json:"type"`
	Name          string `json:"name"`
	QuestionCount int    `json:"question_count"`
}

type tagsOutput struct {
	Body struct {
		Subjects []TagCountBody `json:"subjects"`
		Diseases []TagCountBody `json:"diseases"`
		Systems  []TagCountBody `json:"systems" doc:"carried through the category tree"`
		Keywords []TagCountBody `json:"keywords" doc:"retired: always empty"`
	}
}

type tagJobInput struct {
	JobID string `path:"job_id" maxLength:"100"`
}

type tagJobOutput struct {
	Body struct {
		JobID  string   `json:"job_id"`
		Status string   `json:"status"`
		Steps  []string `json:"steps"`
		Error  *string  `json:"error"`
	}
}

func toTagCounts(in []app.TagCount) []TagCountBody {
	out := make([]TagCountBody, 0, len(in))
	for _, t := range in {
		out = append(out, TagCountBody(t))
	}
	return out
}

func registerTags(r *httpapi.Router, s *app.Service) {
	tags := []string{"tags"}
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/tags", Tags: tags,
		Summary: "Tags grouped by type with live-question counts"},
		func(ctx context.Context, _ *struct{}) (*tagsOutput, error) {
			g, err := s.Tags(ctx)
			if err != nil {
				return nil, err
			}
			out := &tagsOutput{}
			out.Body.Subjects, out.Body.Diseases = toTagCounts(g.Subjects), toTagCounts(g.Diseases)
			out.Body.Systems, out.Body.Keywords = toTagCounts(g.Systems), toTagCounts(g.Keywords)
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPost, Path: "/tags/classify", Tags: tags,
		Errors:  []int{http.StatusGone},
		Summary: "Closed (410): tags are classified by offline tooling, never by an endpoint"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			return nil, s.Classify(ctx)
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/tags/status/{job_id}", Tags: tags,
		Summary: "Status of a classification job: none exist (classification is offline), so 404"},
		func(ctx context.Context, in *tagJobInput) (*tagJobOutput, error) {
			return nil, s.ClassifyStatus(ctx, in.JobID)
		})
}
