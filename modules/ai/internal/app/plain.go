package app

import (
	"context"
	"errors"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// plainFailures are what a person is told when a task's model fails: the
// upstream's own words (a proxy's stack trace, its configuration, another
// tenant's quota) are no learner's business.
var plainFailures = map[string]string{
	"teach":   "The tutor could not answer just now. Please try again in a moment.",
	"ai_mode": "AI Mode could not answer just now. Please try again in a moment.",
	"tts":     "The text could not be read aloud just now. Please try again in a moment.",
	"stt":     "The recording could not be transcribed just now. Please try again in a moment.",
}

// forCaller is what p is told of a failed model call for task: an
// administrator, who configures the models, gets the upstream's message;
// everyone else a plain sentence (same 502 upstream_failed), the detail
// going to the log. Other errors pass unchanged.
func (s *Service) forCaller(ctx context.Context, p auth.Principal, task string, err error) error {
	var f *gateway.Failure
	if err == nil || p.IsAdmin() || !errors.As(err, &f) || !apperr.Is(err, apperr.UpstreamFailed) {
		return err
	}
	s.log.WarnContext(ctx, "ai: model call failed", "task", task, "user_id", p.UserID, "error", f.Error())
	return apperr.New(apperr.UpstreamFailed, "%s", plainFailures[task])
}
