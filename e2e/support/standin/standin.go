// Package standin is a test stand-in for the paid model proxy: an
// in-process HTTP server speaking OpenAI's wire protocol for what the AI
// module calls (POST /v1/chat/completions, POST /v1/audio/speech, POST
// /v1/audio/transcriptions, GET /v1/models), with switches for the ways a real proxy fails. Only tests
// import it.
package standin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Mode is how the server behaves.
type Mode string

// Behaviours.
const (
	OK          Mode = "ok"
	Stall       Mode = "stall"        // never answers until the client gives up
	RateLimited Mode = "rate_limited" // 429 with an OpenAI error body
	ServerError Mode = "server_error" // 500 with an OpenAI error body naming the cause
	Broken      Mode = "broken"       // streamed chat stops after its first words with an error event
)

// Call is what one request carried.
type Call struct {
	Path     string
	Model    string
	Key      string   // the bearer key
	Messages []string // chat: every message's content, in order
	Voice    string
	Input    string
	// Transcriptions: the uploaded file's name and bytes.
	Filename string
	Audio    []byte
}

// Server is the stand-in.
type Server struct {
	*httptest.Server
	mu    sync.Mutex
	mode  Mode
	reply string
	calls []Call
	stop  chan struct{}
}

// Audio is what /audio/speech answers: an MPEG audio frame header and
// padding, enough to be recognisably MP3.
var Audio = append([]byte{0xFF, 0xFB, 0x90, 0x64}, make([]byte, 413)...)

// Transcript is what /audio/transcriptions answers.
const Transcript = "Crushing chest pain radiating to the left arm for two hours."

// DefaultReply is what chat answers until Reply changes it: markdown and
// three follow-ups, as the tutor asks.
const DefaultReply = "A mitral opening snap follows S2.\n> What causes it?\n> How is it timed?\n> What else sounds like it?"

// Start runs a stand-in on loopback; stop it with Close.
func Start() *Server {
	s := &Server{mode: OK, stop: make(chan struct{}),
		reply: DefaultReply}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close unblocks stalled requests and stops the server.
func (s *Server) Close() {
	close(s.stop)
	s.Server.Close()
}

// URL is the base URL up to /v1.
func (s *Server) URL() string { return s.Server.URL + "/v1" }

// Set switches the behaviour.
func (s *Server) Set(m Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
}

// Reply sets what chat answers.
func (s *Server) Reply(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = text
}

// Calls returns the requests so far and forgets them.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.calls
	s.calls = nil
	return out
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
		Voice  string `json:"voice"`
		Input  string `json:"input"`
		Stream bool   `json:"stream"`
	}
	var upload struct {
		name string
		data []byte
	}
	switch {
	case r.URL.Path == "/v1/audio/transcriptions":
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			apiError(w, http.StatusBadRequest, "expected multipart/form-data: "+err.Error())
			return
		}
		body.Model = r.FormValue("model")
		if f, h, err := r.FormFile("file"); err == nil {
			upload.name = h.Filename
			upload.data, _ = io.ReadAll(f)
			_ = f.Close()
		}
	case r.Method == http.MethodPost:
		_ = json.NewDecoder(r.Body).Decode(&body)
	}
	c := Call{Path: r.URL.Path, Model: body.Model, Key: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "),
		Voice: body.Voice, Input: body.Input, Filename: upload.name, Audio: upload.data}
	for _, m := range body.Messages {
		c.Messages = append(c.Messages, m.Content)
	}
	s.mu.Lock()
	s.calls = append(s.calls, c)
	mode, reply := s.mode, s.reply
	s.mu.Unlock()

	switch mode {
	case Stall:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		case <-time.After(time.Minute):
		}
		return
	case RateLimited:
		apiError(w, http.StatusTooManyRequests, "Rate limit reached for requests")
		return
	case ServerError:
		apiError(w, http.StatusInternalServerError, "the upstream model is overloaded")
		return
	}
	switch r.URL.Path {
	case "/v1/chat/completions":
		if body.Stream {
			s.streamChat(w, body.Model, reply)
			return
		}
		writeJSON(w, map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": time.Now().Unix(),
			"model": body.Model, "choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": reply}}},
			"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}})
	case "/v1/audio/transcriptions":
		if upload.data == nil {
			apiError(w, http.StatusBadRequest, "file is required")
			return
		}
		writeJSON(w, map[string]any{"text": Transcript, "usage": map[string]any{"type": "duration", "seconds": 3}})
	case "/v1/audio/speech":
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write(Audio)
	case "/v1/models":
		writeJSON(w, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "gpt-4o-mini", "object": "model", "created": 0, "owned_by": "standin"},
			map[string]any{"id": "tts-1", "object": "model", "created": 0, "owned_by": "standin"}}})
	default:
		apiError(w, http.StatusNotFound, "no route "+r.URL.Path)
	}
}

// streamChat answers a streamed chat as OpenAI does: server-sent chunks of
// the reply a few words at a time, a last chunk with the usage, then
// [DONE]. In the mode Broken it stops after the first words with an error
// event, as a proxy losing its upstream mid-answer does.
func (s *Server) streamChat(w http.ResponseWriter, model, reply string) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(v map[string]any) {
		v["id"], v["object"], v["created"], v["model"] = "chatcmpl-1", "chat.completion.chunk", time.Now().Unix(), model
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	words := strings.SplitAfter(reply, " ")
	for i := 0; i < len(words); i += 3 {
		piece := strings.Join(words[i:min(i+3, len(words))], "")
		chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": piece}}}})
		s.mu.Lock()
		broken := s.mode == Broken
		s.mu.Unlock()
		if broken {
			fmt.Fprint(w, "event: error\ndata: {\"error\":{\"message\":\"the upstream model went away\",\"type\":\"server_error\"}}\n\n")
			return
		}
	}
	chunk(map[string]any{"choices": []any{}, "usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "api_error", "code": nil, "param": nil}})
}
