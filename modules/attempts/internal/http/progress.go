package http

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/opt"
)

// DeviceHeader names the device a request comes from.
type DeviceHeader struct {
	Session string `header:"x-quiz-session" maxLength:"200" doc:"names this device for the saved-progress lock"`
}

// ProgressFields are the client's saved fields.
type ProgressFields struct {
	QuizID     int64             `json:"quiz_id" minimum:"1"`
	AttemptID  int64             `json:"attempt_id" minimum:"1"`
	Answers    map[string]string `json:"answers" required:"false" doc:"question id -> answer so far (the option text for MCQ)"`
	CurrentIdx int               `json:"current_idx" required:"false" minimum:"0" maximum:"100000"`
	Mode       *string           `json:"mode" required:"false" nullable:"true" maxLength:"32"`
	Voice      *string           `json:"voice" required:"false" nullable:"true" maxLength:"200"`
	TimeLeft   *float64          `json:"time_left" required:"false" nullable:"true" minimum:"0" doc:"seconds"`
	StartedAt  *time.Time        `json:"started_at" required:"false" nullable:"true"`
	TotalTime  *float64          `json:"total_time" required:"false" nullable:"true" minimum:"0" doc:"seconds"`
	Revision   *int64            `json:"revision" required:"false" nullable:"true" minimum:"0" doc:"monotonic per device (a counter or a clock in ms): an older save never overwrites a newer one"`
	Flagged    []int64           `json:"flagged" required:"false" nullable:"true" maxItems:"1000" doc:"ids of the questions flagged for review, each a question of the attempt; absent or null keeps the flags saved before, [] clears them"`

	invalid     []error // what the schema refused (progressbody.go)
	textChecked bool    // read by readProgress: no NUL, valid UTF-8
	answersJSON string  // the answers as the body wrote them, when in jsonb's order; Answers is then nil (progressread.go)
}

type saveProgressIn struct {
	DeviceHeader
	Body ProgressFields
}

// SavedResponse answers an autosave. saved is false (with stale true) when
// a newer save from the same device was already stored.
type SavedResponse struct {
	Saved     bool      `json:"saved"`
	Stale     bool      `json:"stale,omitempty"`
	SavedAt   time.Time `json:"saved_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// appendJSON writes r as encoding/json does, newline-terminated as huma's
// JSON format writes a body: the hottest answer skips the reflection.
func (r SavedResponse) appendJSON(b []byte) []byte {
	b = append(b, `{"saved":`...)
	b = strconv.AppendBool(b, r.Saved)
	if r.Stale {
		b = append(b, `,"stale":true`...)
	}
	b = append(b, `,"saved_at":"`...)
	b = r.SavedAt.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","expires_at":"`...)
	b = r.ExpiresAt.AppendFormat(b, time.RFC3339Nano)
	return append(b, "\"}\n"...)
}

func (h *handlers) saveProgress(ctx context.Context, in *saveProgressIn) (*httpapi.Encoded, error) {
	b := in.Body
	res, err := h.svc.SaveProgress(ctx, auth.MustFrom(ctx), in.Session, app.SaveInput{QuizID: b.QuizID,
		AttemptID: b.AttemptID, Answers: b.Answers, AnswersJSON: b.answersJSON, CurrentIdx: b.CurrentIdx, Mode: b.Mode, Voice: b.Voice,
		TimeLeft: b.TimeLeft, StartedAt: b.StartedAt, TotalTime: b.TotalTime, Revision: b.Revision, Flagged: b.Flagged})
	if err != nil {
		return nil, err
	}
	saved := SavedResponse{Saved: !res.Stale, Stale: res.Stale, SavedAt: res.SavedAt, ExpiresAt: res.ExpiresAt}
	return httpapi.EncodedJSON(saved.appendJSON(make([]byte, 0, 128))), nil
}

// ProgressResponse is the saved object: the client's fields, the device
// that saved it and when it expires.
type ProgressResponse struct {
	QuizID     int64             `json:"quiz_id"`
	AttemptID  int64             `json:"attempt_id"`
	Answers    map[string]string `json:"answers"`
	CurrentIdx int               `json:"current_idx"`
	Mode       *string           `json:"mode"`
	Voice      *string           `json:"voice"`
	TimeLeft   *float64          `json:"time_left"`
	StartedAt  *time.Time        `json:"started_at"`
	TotalTime  *float64          `json:"total_time"`
	Revision   *int64            `json:"revision"`
	Flagged    []int64           `json:"flagged" nullable:"false" doc:"ids of the questions flagged for review, ascending"`
	Device     *string           `json:"device" doc:"x-quiz-session of the last save"`
	SavedAt    time.Time         `json:"saved_at"`
	ExpiresAt  time.Time         `json:"expires_at"`
}

type getProgressIn struct {
	DeviceHeader
	QuizID    int64 `query:"quiz_id" required:"true" minimum:"1"`
	AttemptID int64 `query:"attempt_id" minimum:"1" doc:"this attempt's progress instead of the quiz's latest"`
}

type progressOut struct {
	AutoSubmitted string `header:"X-Attempts-Auto-Submitted" doc:"ids of attempts this read auto-submitted"`
	Body          *ProgressResponse
}

func (h *handlers) getProgress(ctx context.Context, in *getProgressIn) (*progressOut, error) {
	var attempt *int64
	if in.AttemptID > 0 {
		attempt = &in.AttemptID
	}
	read, err := h.svc.Progress(ctx, auth.MustFrom(ctx), in.Session, in.QuizID, attempt)
	if err != nil {
		return nil, err
	}
	return toProgressOut(read), nil
}

func toProgressOut(read *app.ProgressRead) *progressOut {
	ids := make([]string, len(read.AutoSubmitted))
	for i, id := range read.AutoSubmitted {
		ids[i] = strconv.FormatInt(id, 10)
	}
	out := &progressOut{AutoSubmitted: strings.Join(ids, ",")}
	if p := read.Progress; p != nil {
		answers := p.Answers
		if answers == nil {
			answers = map[string]string{}
		}
		flagged := []int64(p.Flagged)
		if flagged == nil {
			flagged = []int64{}
		}
		out.Body = &ProgressResponse{QuizID: p.QuizID, AttemptID: p.AttemptID, Answers: answers,
			CurrentIdx: p.CurrentIdx, Mode: p.Mode, Voice: p.Voice, TimeLeft: p.TimeLeft, StartedAt: p.StartedAt,
			TotalTime: p.TotalTime, Revision: p.Revision, Flagged: flagged, Device: opt.NilIfZero(p.Device),
			SavedAt: p.SavedAt, ExpiresAt: p.ExpiresAt}
	}
	return out
}

type deleteProgressIn struct {
	DeviceHeader
	AttemptPath
}

func (h *handlers) deleteProgress(ctx context.Context, in *deleteProgressIn) (*struct{}, error) {
	return nil, h.svc.DeleteProgress(ctx, auth.MustFrom(ctx), in.Session, in.AttemptID)
}
