package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/site/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// JobMailContact mails one stored submission to the admin.
const JobMailContact = "site.mail_contact"

// ContactInput is one message sent through the contact form; lengths are
// checked by the HTTP layer, the rest here.
type ContactInput struct {
	Name, Email, Type, Message string
	CaptchaToken               string
}

// Submission is a stored contact message: the row as the admin reads it.
type Submission = store.Submission

// Contact stores a message from the contact form and queues its mail to
// the admin. client is the caller's address: the per-address limit keys on
// it and the captcha check receives it. The captcha check (a remote call)
// runs before anything is written.
func (s *Service) Contact(ctx context.Context, in ContactInput, client string) error {
	sub, err := s.validContact(in)
	if err != nil {
		return err
	}
	sub.Client = client
	limit := ratelimit.Limit{Name: "site.contact", Max: s.cfg.ContactPerHour, Window: time.Hour}
	if err := s.limiter.Allow(ctx, limit, client); err != nil {
		return err
	}
	if err := s.checkCaptcha(ctx, in.CaptchaToken, client); err != nil {
		return err
	}
	return s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Insert(ctx, sub); err != nil {
			return err
		}
		if s.cfg.AdminEmail == "" {
			return nil
		}
		_, err := s.queue.Enqueue(ctx, nil, MailPayload{SubmissionID: sub.ID})
		if errors.Is(err, jobs.ErrQueueFull) {
			return apperr.New(apperr.Unavailable, "the service is busy; send your message again in a minute")
		}
		return err
	})
}

// validContact trims the fields and refuses what would not make a usable
// message: blanks, an address that is not one, control characters in the
// one-line fields (they end up in mail headers).
func (s *Service) validContact(in ContactInput) (*store.Submission, error) {
	sub := &store.Submission{Name: strings.TrimSpace(in.Name), Email: strings.TrimSpace(in.Email),
		Type: strings.ToLower(strings.TrimSpace(in.Type)), Message: strings.TrimSpace(in.Message)}
	for field, v := range map[string]string{"name": sub.Name, "email": sub.Email, "type": sub.Type, "message": sub.Message} {
		if v == "" {
			return nil, apperr.Invalidf(field, "%s must not be blank", field)
		}
	}
	for field, v := range map[string]string{"name": sub.Name, "email": sub.Email, "type": sub.Type} {
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, apperr.Invalidf(field, "%s must be one line without control characters", field)
		}
	}
	if addr, err := mail.ParseAddress(sub.Email); err != nil || addr.Address != sub.Email || !strings.Contains(addr.Address, "@") {
		return nil, apperr.Invalidf("email", "email must be an address such as name@example.org")
	}
	return sub, nil
}

// checkCaptcha asks the configured verify endpoint whether token was
// solved (hCaptcha and Turnstile share this protocol); nothing to do when
// no endpoint is configured.
func (s *Service) checkCaptcha(ctx context.Context, token, client string) error {
	if s.cfg.CaptchaVerifyURL == "" {
		return nil
	}
	if strings.TrimSpace(token) == "" {
		return apperr.Invalidf("captcha_token", "solve the captcha first: captcha_token is required")
	}
	form := url.Values{"secret": {s.cfg.CaptchaSecret}, "response": {token}}
	if client != "" {
		form.Set("remoteip", client)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.CaptchaVerifyURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := s.captcha.Do(req)
	if err != nil {
		s.log.WarnContext(ctx, "captcha verify failed", "err", err)
		return apperr.New(apperr.UpstreamFailed, "the captcha could not be checked; try again")
	}
	defer res.Body.Close()
	var verdict struct {
		Success bool `json:"success"`
	}
	if res.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&verdict) != nil {
		s.log.WarnContext(ctx, "captcha verify answered badly", "status", res.StatusCode)
		return apperr.New(apperr.UpstreamFailed, "the captcha could not be checked; try again")
	}
	if !verdict.Success {
		return apperr.BadRequestf("the captcha was not solved; try again")
	}
	return nil
}

// Submissions lists contact messages newest first, the unread ones only
// when unread is set, with the total.
func (s *Service) Submissions(ctx context.Context, unread bool, limit, offset int) ([]Submission, int64, error) {
	return s.store.Submissions(ctx, unread, limit, offset)
}

// MarkRead marks a contact message read.
func (s *Service) MarkRead(ctx context.Context, id int64) error {
	ok, err := s.store.MarkRead(ctx, id)
	if err == nil && !ok {
		return apperr.NotFoundf("contact submission %d not found", id)
	}
	return err
}

// MailPayload is a JobMailContact job: the submission to mail.
type MailPayload struct {
	SubmissionID int64 `json:"submission_id"`
}

func (MailPayload) Kind() string { return JobMailContact }

// MailSubmission is the JobMailContact handler: it mails a submission to
// the admin once. The mail goes out before mailed_at is set (no remote call
// inside a transaction), so a crash between the two sends it again: the
// admin may get a duplicate, never nothing.
func (s *Service) MailSubmission(ctx context.Context, run *jobs.Run[MailPayload]) (any, error) {
	p := run.Args
	sub, err := s.store.Submission(ctx, p.SubmissionID)
	if db.IsNotFound(err) {
		return map[string]string{"skipped": "the submission no longer exists"}, nil
	}
	if err != nil {
		return nil, err
	}
	if sub.MailedAt != nil {
		return map[string]string{"skipped": "already mailed"}, nil
	}
	if err := s.send(ctx, contactMail(sub)); err != nil {
		return nil, fmt.Errorf("mail submission %d: %w", sub.ID, err)
	}
	return map[string]any{"mailed_to": s.cfg.AdminEmail}, s.store.MarkMailed(ctx, sub.ID)
}

func contactMail(sub *store.Submission) outgoing {
	return outgoing{ReplyTo: sub.Email,
		Subject: fmt.Sprintf("[Rounds contact] %s from %s", sub.Type, sub.Name),
		Body: fmt.Sprintf("From: %s <%s>\nType: %s\nReceived: %s\nSubmission: %d\n\n%s\n",
			sub.Name, sub.Email, sub.Type, sub.CreatedAt.UTC().Format(time.RFC3339), sub.ID, sub.Message)}
}
