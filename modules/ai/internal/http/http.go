// Package http is the AI module's HTTP surface: model configuration
// (admins), the tutor, speech and usage.
package http

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// ModelResponse is a configured model; the key is masked, never returned.
type ModelResponse struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	ModelID   string    `json:"model_id"`
	Task      string    `json:"task"`
	Voice     string    `json:"voice,omitempty" doc:"speech models: the voice this row is for"`
	IsActive  bool      `json:"is_active"`
	IsDefault bool      `json:"is_default"`
	APIKey    *string   `json:"api_key" doc:"masked (last four characters at most); null when the proxy's own key is used"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toModel(m app.Model) ModelResponse {
	return ModelResponse{ID: m.ID, Name: m.Name, ModelID: m.ModelID, Task: m.Task, Voice: m.Voice, IsActive: m.IsActive,
		IsDefault: m.IsDefault, APIKey: m.MaskedKey, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

func toModels(ms []app.Model) []ModelResponse {
	out := make([]ModelResponse, len(ms))
	for i := range ms {
		out[i] = toModel(ms[i])
	}
	return out
}

// ChoiceResponse is a model offered for a choice.
type ChoiceResponse struct {
	ID        *int64 `json:"id" doc:"null: the configured default model, not registered"`
	Name      string `json:"name"`
	ModelID   string `json:"model_id"`
	IsDefault bool   `json:"is_default"`
}

func toChoices(ms []app.Model) []ChoiceResponse {
	out := make([]ChoiceResponse, len(ms))
	for i, m := range ms {
		out[i] = ChoiceResponse{Name: m.Name, ModelID: m.ModelID, IsDefault: m.IsDefault}
		if m.ID != 0 {
			id := m.ID
			out[i].ID = &id
		}
	}
	return out
}

const taskEnum = "teach,extraction,article,flashcard,keyword,tool,tts,stt"

type modelsOut struct{ Body []ModelResponse }

// ModelPath names a model row in the path.
type ModelPath struct {
	ID int64 `path:"model_id" minimum:"1" doc:"the row id"`
}

// Register adds the AI operations.
func Register(r *httpapi.Router, svc *app.Service) {
	admin := []string{"admin"}
	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodGet, Path: "/admin/models", Tags: admin, Summary: "Every configured model (keys masked)",
	}, func(ctx context.Context, _ *struct{}) (*modelsOut, error) {
		ms, err := svc.Models(ctx)
		if err != nil {
			return nil, err
		}
		return &modelsOut{toModels(ms)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPost, Path: "/admin/models", Tags: admin, DefaultStatus: nethttp.StatusCreated,
		Summary: "Register a model for a task (speech: one row per voice)",
		Description: "The first model of a task becomes its default; is_default clears the task's others. " +
			"Registering an existing (model_id, task, voice) fills in what it lacks (name, api_key) and answers 200; " +
			"with nothing to fill in it is 409.",
		Errors:    []int{nethttp.StatusConflict},
		Responses: map[string]*huma.Response{"200": httpapi.JSONResponse[[]ModelResponse](r, "an existing registration, filled in")},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Name      string   `json:"name,omitempty" required:"false" maxLength:"200"`
			ModelID   string   `json:"model_id" minLength:"1" maxLength:"200" pattern:"^[^\\s:]+$" doc:"no spaces or colons"`
			Task      string   `json:"task" enum:"teach,extraction,article,flashcard,keyword,tool,tts,stt"`
			Voices    []string `json:"voices,omitempty" required:"false" maxItems:"50" doc:"speech models: the voices it accepts"`
			APIKey    *string  `json:"api_key,omitempty" required:"false" maxLength:"500" doc:"stored encrypted; never returned"`
			IsDefault bool     `json:"is_default,omitempty" required:"false"`
		}
	}) (*struct {
		Status int
		Body   []ModelResponse
	}, error) {
		b := in.Body
		ms, created, err := svc.Create(ctx, auth.MustFrom(ctx).UserID, app.NewModel{Name: strings.TrimSpace(b.Name), ModelID: b.ModelID, Task: b.Task,
			Voices: b.Voices, APIKey: b.APIKey, IsDefault: b.IsDefault})
		if err != nil {
			return nil, err
		}
		status := nethttp.StatusOK
		if created {
			status = nethttp.StatusCreated
		}
		return &struct {
			Status int
			Body   []ModelResponse
		}{status, toModels(ms)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPut, Path: "/admin/models/{model_id}", Tags: admin,
		Summary: "Change a model (partial); deactivating keeps its row, task and default flag",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ModelPath
		Body struct {
			Name      *string `json:"name,omitempty" required:"false" maxLength:"200"`
			IsActive  *bool   `json:"is_active,omitempty" required:"false"`
			IsDefault *bool   `json:"is_default,omitempty" required:"false"`
			APIKey    *string `json:"api_key,omitempty" required:"false" maxLength:"500" doc:"empty string: drop the stored key"`
		}
	}) (*struct{ Body ModelResponse }, error) {
		b := in.Body
		m, err := svc.Update(ctx, auth.MustFrom(ctx).UserID, in.ID, app.ModelPatch{Name: b.Name, IsActive: b.IsActive, IsDefault: b.IsDefault, APIKey: b.APIKey})
		if err != nil {
			return nil, err
		}
		return &struct{ Body ModelResponse }{toModel(*m)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/admin/models/{model_id}", Tags: admin, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Remove a model", Errors: []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *ModelPath) (*struct{}, error) {
		return nil, svc.Delete(ctx, auth.MustFrom(ctx).UserID, in.ID)
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodGet, Path: "/admin/models/changes", Tags: admin,
		Summary: "Who changed the model configuration, and how, newest first",
		Description: "One entry per model row created, changed or removed (a default moved counts for both rows): " +
			"the admin, the action, and the row before and after as GET /admin/models shows it (keys masked).",
	}, func(ctx context.Context, in *httpapi.Page) (*struct{ Body []ModelChangeResponse }, error) {
		rows, err := svc.ModelChanges(ctx, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		out := make([]ModelChangeResponse, len(rows))
		for i, c := range rows {
			out[i] = ModelChangeResponse{ID: c.ID, ActorID: c.ActorID, Action: c.Action, ModelRow: c.ModelRow,
				Before: toModelState(c.Before), After: toModelState(c.After), CreatedAt: c.CreatedAt}
		}
		return &struct{ Body []ModelChangeResponse }{out}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPost, Path: "/admin/models/{model_id}/test", Tags: admin,
		Summary: "Exercise a model as its task would (400 for speech models; 502 with the upstream's message)",
		Errors:  []int{nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *ModelPath) (*struct {
		Body struct {
			Message string `json:"message"`
		}
	}, error) {
		msg, err := svc.Test(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		out := &struct {
			Body struct {
				Message string `json:"message"`
			}
		}{}
		out.Body.Message = msg
		return out, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/admin/models/available", Tags: admin,
		Summary: "The active models of a task to choose from (the configured default when none is registered)",
	}, func(ctx context.Context, in *struct {
		Task string `query:"task" default:"extraction" enum:"teach,extraction,article,flashcard,keyword,tool,tts,stt"`
	}) (*struct{ Body []ChoiceResponse }, error) {
		ms, err := svc.Available(ctx, in.Task)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []ChoiceResponse }{toChoices(ms)}, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPost, Path: "/admin/litellm/models", Tags: admin,
		Summary: "The models a proxy serves (the configured one, or the base and key given)",
		Errors:  []int{nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *struct {
		Body struct {
			APIKey  *string `json:"api_key" required:"false" nullable:"true" maxLength:"500"`
			APIBase *string `json:"api_base" required:"false" nullable:"true" maxLength:"500" format:"uri"`
		}
	}) (*struct {
		Body struct {
			Models []string `json:"models"`
			Source string   `json:"source"`
		}
	}, error) {
		models, source, err := svc.ProxyModels(ctx, in.Body.APIBase, in.Body.APIKey)
		if err != nil {
			return nil, err
		}
		out := &struct {
			Body struct {
				Models []string `json:"models"`
				Source string   `json:"source"`
			}
		}{}
		out.Body.Models, out.Body.Source = models, source
		return out, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodPost, Path: "/admin/tts/voices", Tags: admin,
		Summary: "The voices speech models may be registered with",
	}, func(ctx context.Context, _ *struct{}) (*struct {
		Body struct {
			Voices []VoiceResponse `json:"voices"`
		}
	}, error) {
		vs, err := svc.DiscoverVoices(ctx)
		if err != nil {
			return nil, err
		}
		out := &struct {
			Body struct {
				Voices []VoiceResponse `json:"voices"`
			}
		}{}
		for _, v := range vs {
			out.Body.Voices = append(out.Body.Voices, VoiceResponse{ModelID: v.ModelID, Name: v.Name, Labels: v.Labels})
		}
		return out, nil
	})

	httpapi.Register(r, auth.Admin, huma.Operation{
		Method: nethttp.MethodGet, Path: "/admin/ai/usage", Tags: admin,
		Summary: "Model calls and tokens per person and task over the last days, heaviest first",
	}, func(ctx context.Context, in *struct {
		httpapi.Page
		Days int `query:"days" default:"1" minimum:"1" maximum:"90"`
	}) (*struct{ Body []UsageResponse }, error) {
		rows, err := svc.Usage(ctx, in.Days, in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []UsageResponse }{toUsage(rows)}, nil
	})

	learnerRoutes(r, svc)
	dailyUsageRoutes(r, svc)
	aiModeRoutes(r, svc)
	sttRoutes(r, svc)
}

// ModelChangeResponse is one change to the model configuration.
type ModelChangeResponse struct {
	ID        int64               `json:"id"`
	ActorID   int64               `json:"actor_id" doc:"the admin who made it"`
	Action    string              `json:"action" enum:"create,update,delete"`
	ModelRow  int64               `json:"model_row" doc:"the model row's id (it may be gone)"`
	Before    *ModelStateResponse `json:"before" doc:"the row before (null for a creation)"`
	After     *ModelStateResponse `json:"after" doc:"the row after (null for a removal)"`
	CreatedAt time.Time           `json:"created_at"`
}

// ModelStateResponse is a model row as the history keeps it.
type ModelStateResponse struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	ModelID   string  `json:"model_id"`
	Task      string  `json:"task"`
	Voice     string  `json:"voice"`
	IsActive  bool    `json:"is_active"`
	IsDefault bool    `json:"is_default"`
	APIKey    *string `json:"api_key" doc:"masked (last four characters at most); null without a key of its own"`
}

func toModelState(st *app.ModelState) *ModelStateResponse {
	if st == nil {
		return nil
	}
	out := ModelStateResponse(*st)
	return &out
}

// VoiceResponse is a voice on offer for registration.
type VoiceResponse struct {
	ModelID string   `json:"model_id"`
	Name    string   `json:"name"`
	Labels  []string `json:"labels"`
}

// UsageResponse is one person's use of one task.
type UsageResponse struct {
	UserID           int64  `json:"user_id"`
	Task             string `json:"task"`
	Calls            int64  `json:"calls"`
	PromptTokens     int64  `json:"prompt_tokens" doc:"speech: characters"`
	CompletionTokens int64  `json:"completion_tokens"`
}

func toUsage(rows []store.UsageRow) []UsageResponse {
	out := make([]UsageResponse, len(rows))
	for i, r := range rows {
		out[i] = UsageResponse(r)
	}
	return out
}

// ChatRequest is a learner's conversation about a question.
type ChatRequest struct {
	QuestionID int64         `json:"question_id" minimum:"1"`
	AttemptID  *int64        `json:"attempt_id,omitempty" required:"false" minimum:"1"`
	ModelID    *int64        `json:"model_id,omitempty" required:"false" minimum:"1" doc:"a tutor model's id (GET /teach/models); absent: the default"`
	Messages   []ChatMessage `json:"messages" minItems:"1" maxItems:"40"`
}

func (b ChatRequest) input() app.ChatInput {
	msgs := make([]gateway.Message, len(b.Messages))
	for i, m := range b.Messages {
		msgs[i] = gateway.Message{Role: m.Role, Content: m.Content}
	}
	return app.ChatInput{QuestionID: b.QuestionID, AttemptID: b.AttemptID, ModelID: b.ModelID, Messages: msgs}
}

// ChatReply is the tutor's answer.
type ChatReply struct {
	Reply       string   `json:"reply" doc:"markdown"`
	Suggestions []string `json:"suggestions"`
}

// sendEvent writes one server-sent event and flushes it; false when the
// client is gone.
func sendEvent(w io.Writer, event string, data any) bool {
	payload, _ := json.Marshal(data)
	if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, payload); err != nil {
		return false
	}
	if f, ok := w.(nethttp.Flusher); ok {
		f.Flush()
	}
	return true
}

// ChatMessage is one turn the learner sends.
type ChatMessage struct {
	Role    string `json:"role" enum:"user,assistant"`
	Content string `json:"content" minLength:"1" maxLength:"4000"`
}

func learnerRoutes(r *httpapi.Router, svc *app.Service) {
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/teach/models", Tags: []string{"teach"}, Summary: "The tutor models to choose from",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body []ChoiceResponse }, error) {
		ms, err := svc.TeachModels(ctx)
		if err != nil {
			return nil, err
		}
		return &struct{ Body []ChoiceResponse }{toChoices(ms)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/teach/chat", Tags: []string{"teach"},
		Summary: "Ask the tutor about a question",
		Description: "The tutor sees the question and, only when you may see them (an editor, or attempt_id names your " +
			"own attempt that shows answers), its answer and explanation. suggestions are up to three follow-ups. " +
			"503 without a tutor model, 502 when the model fails; 30 messages per 10 minutes and the daily quota " +
			"(admins and unthrottled people exempt).",
		Errors: []int{nethttp.StatusNotFound, nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable, nethttp.StatusForbidden},
	}, func(ctx context.Context, in *struct{ Body ChatRequest }) (*struct{ Body ChatReply }, error) {
		rep, err := svc.Chat(ctx, auth.MustFrom(ctx), in.Body.input())
		if err != nil {
			return nil, err
		}
		return &struct{ Body ChatReply }{ChatReply{Reply: rep.Reply, Suggestions: rep.Suggestions}}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/teach/chat/stream", Tags: []string{"teach"},
		Summary: "Ask the tutor, with the answer streamed as it is written (server-sent events)",
		Description: "The same rules, limits and errors as POST /teach/chat, all checked before the stream starts " +
			"(a refusal is the usual JSON error). Then text/event-stream: `delta` events `{text}` as the model " +
			"writes (follow-up lines included), and one `done` event `{reply, suggestions}` with the answer parsed " +
			"as /teach/chat gives it; a model failing mid-answer ends the stream with an `error` event carrying " +
			"the error envelope.",
		Errors: []int{nethttp.StatusNotFound, nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
		Responses: map[string]*huma.Response{"200": {Description: "server-sent events: delta, done or error",
			Content: map[string]*huma.MediaType{"text/event-stream": {Schema: &huma.Schema{Type: "string"}}}}},
	}, func(ctx context.Context, in *struct{ Body ChatRequest }) (*huma.StreamResponse, error) {
		st, err := svc.ChatStream(ctx, auth.MustFrom(ctx), in.Body.input())
		if err != nil {
			return nil, err
		}
		return &huma.StreamResponse{Body: func(hc huma.Context) {
			defer st.Close()
			hc.SetHeader("Content-Type", "text/event-stream")
			hc.SetHeader("Cache-Control", "private, no-store")
			hc.SetHeader("X-Accel-Buffering", "no") // proxies must pass each event on at once
			w := hc.BodyWriter()
			for piece, ok := st.Next(); ok; piece, ok = st.Next() {
				if !sendEvent(w, "delta", map[string]string{"text": piece}) {
					return // the learner went away
				}
			}
			if err := st.Err(); err != nil {
				sendEvent(w, "error", httpapi.EnvelopeOf(err))
				return
			}
			rep := st.Finish(hc.Context())
			sendEvent(w, "done", ChatReply{Reply: rep.Reply, Suggestions: rep.Suggestions})
		}}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/tts/voices", Tags: []string{"tts"}, Summary: "The speech voices to choose from",
	}, func(ctx context.Context, _ *struct{}) (*struct{ Body []SpeechVoiceResponse }, error) {
		vs, err := svc.Voices(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]SpeechVoiceResponse, len(vs))
		for i, v := range vs {
			out[i] = SpeechVoiceResponse(v)
		}
		return &struct{ Body []SpeechVoiceResponse }{out}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/tts/speak", Tags: []string{"tts"},
		Summary: "Read text aloud (audio/mpeg, streamed)",
		Description: "voice is model_route:voice from GET /tts/voices. 60 per hour and the daily quota " +
			"(admins and unthrottled people exempt).",
		Errors: []int{nethttp.StatusTooManyRequests, nethttp.StatusBadGateway, nethttp.StatusServiceUnavailable},
		Responses: map[string]*huma.Response{"200": {Description: "MP3 audio",
			Content: map[string]*huma.MediaType{"audio/mpeg": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}},
	}, func(ctx context.Context, in *struct {
		Body struct {
			Text  string `json:"text" minLength:"1" maxLength:"4096"`
			Voice string `json:"voice" minLength:"3" maxLength:"300"`
		}
	}) (*huma.StreamResponse, error) {
		audio, err := svc.Speak(ctx, auth.MustFrom(ctx), in.Body.Voice, in.Body.Text)
		if err != nil {
			return nil, err
		}
		return &huma.StreamResponse{Body: func(hc huma.Context) {
			defer audio.Close()
			hc.SetHeader("Content-Type", "audio/mpeg")
			hc.SetHeader("Cache-Control", "private, no-store")
			_, _ = io.Copy(hc.BodyWriter(), audio)
		}}, nil
	})
}

// SpeechVoiceResponse is a voice a learner may choose.
type SpeechVoiceResponse struct {
	ID        string `json:"id" doc:"model_route:voice"`
	Name      string `json:"name"`
	IsDefault bool   `json:"is_default"`
}
