// Package http is the site module's HTTP surface: the contact form, its
// admin inbox and the landing page's public counts.
package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/site/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// ContactBody is a message sent through the contact form.
type ContactBody struct {
	Name         string `json:"name" minLength:"1" maxLength:"200"`
	Email        string `json:"email" minLength:"3" maxLength:"254"`
	Type         string `json:"type" minLength:"1" maxLength:"40" doc:"what the message is about (general, support, content, bug...)"`
	Message      string `json:"message" minLength:"1" maxLength:"5000"`
	CaptchaToken string `json:"captcha_token,omitempty" required:"false" maxLength:"4096" doc:"the solved captcha, when the site asks for one"`
}

// SubmissionResponse is a contact message on the wire.
type SubmissionResponse struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Email     string    `json:"email"`
	Type      string    `json:"type"`
	Message   string    `json:"message"`
	Read      bool      `json:"read"`
	CreatedAt time.Time `json:"created_at"`
}

type success struct {
	Body struct {
		Success bool `json:"success"`
	}
}

func ok() *success {
	out := &success{}
	out.Body.Success = true
	return out
}

// Register adds the site's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodPost, Path: "/contact", Tags: []string{"contact"},
		Summary: "Send a message to the site's team (a captcha when configured; limited per address)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusTooManyRequests, nethttp.StatusBadGateway},
	}, func(ctx context.Context, in *struct{ Body ContactBody }) (*success, error) {
		b := in.Body
		err := svc.Contact(ctx, app.ContactInput{Name: b.Name, Email: b.Email, Type: b.Type, Message: b.Message,
			CaptchaToken: b.CaptchaToken}, httpapi.ClientAddress(ctx))
		if err != nil {
			return nil, err
		}
		return ok(), nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodGet, Path: "/contact/submissions", Tags: []string{"contact"},
		Summary: "Contact messages, newest first (X-Total-Count has the total)",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		Unread bool `query:"unread" default:"false" doc:"only the unread ones"`
	}) (*httpapi.Listing[SubmissionResponse], error) {
		subs, total, err := svc.Submissions(ctx, in.Unread, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(subs, total, func(s *app.Submission) SubmissionResponse {
			return SubmissionResponse{ID: s.ID, Name: s.Name, Email: s.Email, Type: s.Type, Message: s.Message,
				Read: s.Read, CreatedAt: s.CreatedAt}
		}), nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPut, Path: "/contact/submissions/{submission_id}/read", Tags: []string{"contact"},
		Summary: "Mark a contact message read",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID int64 `path:"submission_id" minimum:"1"`
	}) (*success, error) {
		if err := svc.MarkRead(ctx, in.ID); err != nil {
			return nil, err
		}
		return ok(), nil
	})

	httpapi.Register(r, auth.Public, huma.Operation{
		Method: nethttp.MethodGet, Path: "/public/stats", Tags: []string{"public"},
		Summary: "Live counts for the landing page (questions, quizzes, articles, decks, learners)",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body map[string]int64 }, error) {
		counts, err := svc.PublicStats(ctx)
		if err != nil {
			return nil, err
		}
		return &struct{ Body map[string]int64 }{counts}, nil
	})
}
