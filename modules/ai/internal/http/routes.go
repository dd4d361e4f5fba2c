// Package http is the AI module's HTTP surface: model configuration
// (admins), the tutor, speech and usage, AI mode and the difficulty
// classification.
package http

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/ai/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc   *app.Service
	rater *app.Rater
}

// Register declares the AI operations.
func Register(r *httpapi.Router, svc *app.Service, rater *app.Rater) {
	h := &handlers{svc: svc, rater: rater}
	adminRoutes(r, h)
	learnerRoutes(r, h)
	aiModeRoutes(r, h)
	sttRoutes(r, h)
	difficultyRoutes(r, h)
	dailyUsageRoutes(r, h)
}

func adminRoutes(r *httpapi.Router, h *handlers) {
	const tag = "admin"
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodGet, "/admin/models", tag,
		"Every configured model (keys masked)", 0), h.models)
	createModelOp := httpapi.Described(httpapi.Op(http.MethodPost, "/admin/models", tag,
		"Register a model for a task (speech: one row per voice)", http.StatusCreated, http.StatusConflict),
		"The first model of a task becomes its default; is_default clears the task's others. "+
			"Registering an existing (model_id, task, voice) fills in what it lacks (name, api_key) and answers 200; "+
			"with nothing to fill in it is 409.")
	createModelOp.Responses = map[string]*huma.Response{"200": httpapi.JSONResponse[[]ModelResponse](r, "an existing registration, filled in")}
	httpapi.Register(r, auth.Admin, createModelOp, h.createModel)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPut, "/admin/models/{model_id}", tag,
		"Change a model (partial); deactivating keeps its row, task and default flag",
		0, http.StatusNotFound), h.updateModel)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodDelete, "/admin/models/{model_id}", tag,
		"Remove a model", http.StatusNoContent, http.StatusNotFound), h.deleteModel)
	httpapi.Register(r, auth.Admin, httpapi.Described(httpapi.Op(http.MethodGet, "/admin/models/changes", tag,
		"Who changed the model configuration, and how, newest first", 0),
		"One entry per model row created, changed or removed (a default moved counts for both rows): "+
			"the admin, the action, and the row before and after as GET /admin/models shows it (keys masked)."), h.modelChanges)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/models/{model_id}/test", tag,
		"Exercise a model as its task would (400 for speech models; 502 with the upstream's message)",
		0, http.StatusBadRequest, http.StatusNotFound, http.StatusBadGateway, http.StatusServiceUnavailable), h.testModel)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/admin/models/available", tag,
		"The active models of a task to choose from (the configured default when none is registered)",
		0), h.availableModels)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/litellm/models", tag,
		"The models a proxy serves (the configured one, or the base and key given)",
		0, http.StatusBadGateway, http.StatusServiceUnavailable), h.proxyModels)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/tts/voices", tag,
		"The voices speech models may be registered with", 0), h.discoverVoices)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodGet, "/admin/ai/usage", tag,
		"Model calls and tokens per person and task over the last days, heaviest first", 0), h.usage)
}

func learnerRoutes(r *httpapi.Router, h *handlers) {
	const teach, tts = "teach", "tts"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/teach/models", teach,
		"The tutor models to choose from", 0), h.teachModels)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodPost, "/teach/chat", teach,
		"Ask the tutor about a question",
		0, http.StatusNotFound, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusForbidden),
		"The tutor sees the question and, only when you may see them (an editor, or attempt_id names your "+
			"own attempt that shows answers), its answer and explanation. suggestions are up to three follow-ups. "+
			"503 without a tutor model, 502 when the model fails; 30 messages per 10 minutes and the daily quota "+
			"(admins and unthrottled people exempt)."), h.chat)
	chatStreamOp := httpapi.Described(httpapi.Op(http.MethodPost, "/teach/chat/stream", teach,
		"Ask the tutor, with the answer streamed as it is written (server-sent events)",
		0, http.StatusNotFound, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable),
		"The same rules, limits and errors as POST /teach/chat, all checked before the stream starts "+
			"(a refusal is the usual JSON error). Then text/event-stream: `delta` events `{text}` as the model "+
			"writes (follow-up lines included), and one `done` event `{reply, suggestions}` with the answer parsed "+
			"as /teach/chat gives it; a model failing mid-answer ends the stream with an `error` event carrying "+
			"the error envelope.")
	chatStreamOp.Responses = map[string]*huma.Response{"200": {Description: "server-sent events: delta, done or error",
		Content: map[string]*huma.MediaType{"text/event-stream": {Schema: &huma.Schema{Type: "string"}}}}}
	httpapi.Register(r, auth.User, chatStreamOp, h.chatStream)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/tts/voices", tts,
		"The speech voices to choose from", 0), h.voices)
	speakOp := httpapi.Described(httpapi.Op(http.MethodPost, "/tts/speak", tts,
		"Read text aloud (audio/mpeg, streamed)",
		0, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable),
		"voice is model_route:voice from GET /tts/voices. 60 per hour and the daily quota "+
			"(admins and unthrottled people exempt).")
	speakOp.Responses = map[string]*huma.Response{"200": {Description: "MP3 audio",
		Content: map[string]*huma.MediaType{"audio/mpeg": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}}
	httpapi.Register(r, auth.User, speakOp, h.speak)
}

func aiModeRoutes(r *httpapi.Router, h *handlers) {
	const tag = "ai-mode"
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodPost, "/ai-mode/ask", tag,
		"Ask the library and the bank",
		0, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable),
		"Your own search over articles and questions (what you may find, reranked when a rerank model "+
			"is set) makes a shortlist of up to five of each; the tutor model answers from it alone and cites it as "+
			"[n]. Nothing found: a plain answer and no model call. 503 without a tutor model, 502 when the model "+
			"fails; 30 questions per 10 minutes and the ai_mode_daily_quota setting (admins and unthrottled people exempt)."), h.ask)
}

// difficultyRoutes are question difficulty classification.
func difficultyRoutes(r *httpapi.Router, h *handlers) {
	const tag = "questions"
	httpapi.Register(r, auth.Mod, httpapi.Described(httpapi.Op(http.MethodPost, "/questions/classify-difficulty", tag,
		"Queue classify_question_difficulty: the tool model rates questions easy, medium or hard (moderators)",
		http.StatusAccepted, http.StatusServiceUnavailable),
		"Name question_ids (at most 500) or a category_id (its branch, the first 500 live questions by id). "+
			"Questions already rated are skipped unless overwrite. 503 with nothing queued when no tool model is configured; "+
			"poll GET /questions/classify-difficulty/{job_id}."), h.startDifficulty)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/questions/classify-difficulty/{job_id}", tag,
		"One of your difficulty classifications with its progress", 0, http.StatusNotFound), h.difficultyJob)
}

func sttRoutes(r *httpapi.Router, h *handlers) {
	const tag = "tts" // the spec's speech group
	transcribeOp := httpapi.Described(httpapi.Op(http.MethodPost, "/stt/transcribe", tag,
		"Turn a recording into text with the speech-to-text model",
		0, http.StatusRequestEntityTooLarge, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable),
		"multipart/form-data with the recording in the field `file` (MP3, WAV, Ogg, FLAC, WebM or M4A, "+
			"judged by its bytes; at most 10 MiB). 60 per hour and the daily quota stt_daily_quota (admins and "+
			"unthrottled people exempt). 503 with no stt model, 502 when the model fails.")
	// The whole body is read, bounded, before the form is parsed.
	transcribeOp.MaxBodyBytes = app.MaxAudioBytes + formSlack
	httpapi.Register(r, auth.User, transcribeOp, h.transcribe)
}
