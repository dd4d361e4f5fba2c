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

func (h *handlers) models(ctx context.Context, _ *struct{}) (*modelsOut, error) {
	ms, err := h.svc.Models(ctx)
	if err != nil {
		return nil, err
	}
	return &modelsOut{toModels(ms)}, nil
}

type createModelIn struct {
	Body struct {
		Name      string   `json:"name,omitempty" required:"false" maxLength:"200"`
		ModelID   string   `json:"model_id" minLength:"1" maxLength:"200" pattern:"^[^\\s:]+$" doc:"no spaces or colons"`
		Task      string   `json:"task" enum:"teach,extraction,article,flashcard,keyword,tool,tts,stt"`
		Voices    []string `json:"voices,omitempty" required:"false" maxItems:"50" doc:"speech models: the voices it accepts"`
		APIKey    *string  `json:"api_key,omitempty" required:"false" maxLength:"500" doc:"stored encrypted; never returned"`
		IsDefault bool     `json:"is_default,omitempty" required:"false"`
	} `nameHint:"Post-admin-modelsRequest"`
}

type createModelOut struct {
	Status int
	Body   []ModelResponse
}

func (h *handlers) createModel(ctx context.Context, in *createModelIn) (*createModelOut, error) {
	b := in.Body
	ms, created, err := h.svc.Create(ctx, auth.MustFrom(ctx).UserID, app.NewModel{Name: strings.TrimSpace(b.Name), ModelID: b.ModelID, Task: b.Task,
		Voices: b.Voices, APIKey: b.APIKey, IsDefault: b.IsDefault})
	if err != nil {
		return nil, err
	}
	status := nethttp.StatusOK
	if created {
		status = nethttp.StatusCreated
	}
	return &createModelOut{status, toModels(ms)}, nil
}

type updateModelIn struct {
	ModelPath
	Body struct {
		Name      *string `json:"name,omitempty" required:"false" maxLength:"200"`
		IsActive  *bool   `json:"is_active,omitempty" required:"false"`
		IsDefault *bool   `json:"is_default,omitempty" required:"false"`
		APIKey    *string `json:"api_key,omitempty" required:"false" maxLength:"500" doc:"empty string: drop the stored key"`
	} `nameHint:"Put-admin-models-by-model-idRequest"`
}

type updateModelOut struct{ Body ModelResponse }

func (h *handlers) updateModel(ctx context.Context, in *updateModelIn) (*updateModelOut, error) {
	b := in.Body
	m, err := h.svc.Update(ctx, auth.MustFrom(ctx).UserID, in.ID, app.ModelPatch{Name: b.Name, IsActive: b.IsActive, IsDefault: b.IsDefault, APIKey: b.APIKey})
	if err != nil {
		return nil, err
	}
	return &updateModelOut{toModel(*m)}, nil
}

func (h *handlers) deleteModel(ctx context.Context, in *ModelPath) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, auth.MustFrom(ctx).UserID, in.ID)
}

type modelChangesOut struct{ Body []ModelChangeResponse }

func (h *handlers) modelChanges(ctx context.Context, in *httpapi.Page) (*modelChangesOut, error) {
	rows, err := h.svc.ModelChanges(ctx, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &modelChangesOut{toModelChanges(rows)}, nil
}

type testModelOut struct {
	Body struct {
		Message string `json:"message"`
	} `nameHint:"Post-admin-models-by-model-id-testResponse"`
}

func (h *handlers) testModel(ctx context.Context, in *ModelPath) (*testModelOut, error) {
	msg, err := h.svc.Test(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	out := &testModelOut{}
	out.Body.Message = msg
	return out, nil
}

type availableModelsIn struct {
	Task string `query:"task" default:"extraction" enum:"teach,extraction,article,flashcard,keyword,tool,tts,stt"`
}

type availableModelsOut struct{ Body []ChoiceResponse }

func (h *handlers) availableModels(ctx context.Context, in *availableModelsIn) (*availableModelsOut, error) {
	ms, err := h.svc.Available(ctx, in.Task)
	if err != nil {
		return nil, err
	}
	return &availableModelsOut{toChoices(ms)}, nil
}

type proxyModelsIn struct {
	Body struct {
		APIKey  *string `json:"api_key" required:"false" nullable:"true" maxLength:"500"`
		APIBase *string `json:"api_base" required:"false" nullable:"true" maxLength:"500" format:"uri"`
	} `nameHint:"Post-admin-litellm-modelsRequest"`
}

type proxyModelsOut struct {
	Body struct {
		Models []string `json:"models"`
		Source string   `json:"source"`
	} `nameHint:"Post-admin-litellm-modelsResponse"`
}

func (h *handlers) proxyModels(ctx context.Context, in *proxyModelsIn) (*proxyModelsOut, error) {
	models, source, err := h.svc.ProxyModels(ctx, in.Body.APIBase, in.Body.APIKey)
	if err != nil {
		return nil, err
	}
	out := &proxyModelsOut{}
	out.Body.Models, out.Body.Source = models, source
	return out, nil
}

type discoverVoicesOut struct {
	Body struct {
		Voices []VoiceResponse `json:"voices"`
	} `nameHint:"Post-admin-tts-voicesResponse"`
}

func (h *handlers) discoverVoices(ctx context.Context, _ *struct{}) (*discoverVoicesOut, error) {
	vs, err := h.svc.DiscoverVoices(ctx)
	if err != nil {
		return nil, err
	}
	out := &discoverVoicesOut{}
	out.Body.Voices = toVoices(vs)
	return out, nil
}

type usageIn struct {
	httpapi.Page
	Days int `query:"days" default:"1" minimum:"1" maximum:"90"`
}

type usageOut struct{ Body []UsageResponse }

func (h *handlers) usage(ctx context.Context, in *usageIn) (*usageOut, error) {
	rows, err := h.svc.Usage(ctx, in.Days, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &usageOut{toUsage(rows)}, nil
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

func toUsage(rows []app.UsageRow) []UsageResponse {
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

type teachModelsOut struct{ Body []ChoiceResponse }

func (h *handlers) teachModels(ctx context.Context, _ *struct{}) (*teachModelsOut, error) {
	ms, err := h.svc.TeachModels(ctx)
	if err != nil {
		return nil, err
	}
	return &teachModelsOut{toChoices(ms)}, nil
}

// chatIn is the body of POST /teach/chat and its streamed twin.
type chatIn struct{ Body ChatRequest }

type chatOut struct{ Body ChatReply }

func (h *handlers) chat(ctx context.Context, in *chatIn) (*chatOut, error) {
	rep, err := h.svc.Chat(ctx, auth.MustFrom(ctx), in.Body.input())
	if err != nil {
		return nil, err
	}
	return &chatOut{ChatReply{Reply: rep.Reply, Suggestions: rep.Suggestions}}, nil
}

func (h *handlers) chatStream(ctx context.Context, in *chatIn) (*huma.StreamResponse, error) {
	st, err := h.svc.ChatStream(ctx, auth.MustFrom(ctx), in.Body.input())
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
}

type voicesOut struct{ Body []SpeechVoiceResponse }

func (h *handlers) voices(ctx context.Context, _ *struct{}) (*voicesOut, error) {
	vs, err := h.svc.Voices(ctx)
	if err != nil {
		return nil, err
	}
	return &voicesOut{toSpeechVoices(vs)}, nil
}

type speakIn struct {
	Body struct {
		Text  string `json:"text" minLength:"1" maxLength:"4096"`
		Voice string `json:"voice" minLength:"3" maxLength:"300"`
	} `nameHint:"Post-tts-speakRequest"`
}

func (h *handlers) speak(ctx context.Context, in *speakIn) (*huma.StreamResponse, error) {
	audio, err := h.svc.Speak(ctx, auth.MustFrom(ctx), in.Body.Voice, in.Body.Text)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hc huma.Context) {
		defer audio.Close()
		hc.SetHeader("Content-Type", "audio/mpeg")
		hc.SetHeader("Cache-Control", "private, no-store")
		_, _ = io.Copy(hc.BodyWriter(), audio)
	}}, nil
}

// SpeechVoiceResponse is a voice a learner may choose.
type SpeechVoiceResponse struct {
	ID        string `json:"id" doc:"model_route:voice"`
	Name      string `json:"name"`
	IsDefault bool   `json:"is_default"`
}

func toModelChanges(rows []app.ModelChange) []ModelChangeResponse {
	out := make([]ModelChangeResponse, len(rows))
	for i, c := range rows {
		out[i] = ModelChangeResponse{ID: c.ID, ActorID: c.ActorID, Action: c.Action, ModelRow: c.ModelRow,
			Before: toModelState(c.Before), After: toModelState(c.After), CreatedAt: c.CreatedAt}
	}
	return out
}

// toVoices is nil (null on the wire) when no voice was found.
func toVoices(vs []app.Voice) []VoiceResponse {
	var out []VoiceResponse
	for _, v := range vs {
		out = append(out, VoiceResponse{ModelID: v.ModelID, Name: v.Name, Labels: v.Labels})
	}
	return out
}

func toSpeechVoices(vs []app.SpeechVoice) []SpeechVoiceResponse {
	out := make([]SpeechVoiceResponse, len(vs))
	for i, v := range vs {
		out[i] = SpeechVoiceResponse(v)
	}
	return out
}
