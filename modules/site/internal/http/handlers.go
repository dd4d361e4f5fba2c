package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/site/internal/app"
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

// ContactInput is the contact form's request.
type ContactInput struct{ Body ContactBody }

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

// SubmissionsInput pages the contact inbox.
type SubmissionsInput struct {
	httpapi.Page
	Unread bool `query:"unread" default:"false" doc:"only the unread ones"`
}

// SubmissionInput names one contact message.
type SubmissionInput struct {
	ID int64 `path:"submission_id" minimum:"1"`
}

// StatsOutput is the landing page's counts by name.
type StatsOutput struct{ Body map[string]int64 }

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

func toSubmission(s *app.Submission) SubmissionResponse {
	return SubmissionResponse{ID: s.ID, Name: s.Name, Email: s.Email, Type: s.Type, Message: s.Message,
		Read: s.Read, CreatedAt: s.CreatedAt}
}

func (h *handlers) contact(ctx context.Context, in *ContactInput) (*success, error) {
	b := in.Body
	err := h.svc.Contact(ctx, app.ContactInput{Name: b.Name, Email: b.Email, Type: b.Type, Message: b.Message,
		CaptchaToken: b.CaptchaToken}, httpapi.ClientAddress(ctx))
	if err != nil {
		return nil, err
	}
	return ok(), nil
}

func (h *handlers) submissions(ctx context.Context, in *SubmissionsInput) (*httpapi.Listing[SubmissionResponse], error) {
	subs, total, err := h.svc.Submissions(ctx, in.Unread, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(subs, total, toSubmission), nil
}

func (h *handlers) markRead(ctx context.Context, in *SubmissionInput) (*success, error) {
	if err := h.svc.MarkRead(ctx, in.ID); err != nil {
		return nil, err
	}
	return ok(), nil
}

func (h *handlers) publicStats(ctx context.Context, _ *struct{}) (*StatsOutput, error) {
	counts, err := h.svc.PublicStats(ctx)
	if err != nil {
		return nil, err
	}
	return &StatsOutput{counts}, nil
}
