// Package gateway is the one client Rounds uses to reach models: an
// OpenAI-compatible proxy (LiteLLM or any server speaking the protocol)
// for chat, speech, transcription, embeddings, rerank and model discovery. Timeouts, retries and the mapping
// of upstream failures to the error envelope live here and nowhere else.
package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/text"
)

// Target is where one call goes: the proxy, the key and the model.
type Target struct {
	BaseURL string // up to and including /v1
	APIKey  string
	Model   string
	// Timeout replaces the gateway's for this target's task (0: the
	// gateway's); extraction reads pages for longer than a tutor answers.
	Timeout time.Duration
	// NoRetry makes one attempt only: for calls whose failure costs little
	// and whose caller is waiting (search's rerank keeps the fused order).
	NoRetry bool
}

func (g *Gateway) timeout(t Target) time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return g.Timeout
}

// Gateway makes calls with the configured timeouts and retries.
type Gateway struct {
	// Timeout bounds one call, retries included: a stalled model never holds
	// a request longer.
	Timeout time.Duration
	// Retries after a 429 or 5xx, with the client's exponential backoff.
	Retries int
	// HTTPClient is the transport; nil is the guarded one (egress.go), which
	// refuses metadata and link-local addresses at connect time.
	HTTPClient *http.Client
}

// guarded is the transport of every gateway without its own.
var guarded = GuardedClient()

func (g *Gateway) client(t Target) openai.Client {
	key := t.APIKey
	if key == "" {
		key = "none" // proxies without auth still expect the header
	}
	retries := g.Retries
	if t.NoRetry {
		retries = 0
	}
	// A proxy asking to wait longer than the call may last (Retry-After)
	// is not waited for: its own answer (429 and its message) is returned.
	opts := []option.RequestOption{option.WithBaseURL(t.BaseURL), option.WithAPIKey(key),
		option.WithMaxRetries(retries), option.WithRequestTimeout(g.timeout(t)), option.WithMaxRetryDelay(g.timeout(t))}
	hc := g.HTTPClient
	if hc == nil {
		hc = guarded
	}
	opts = append(opts, option.WithHTTPClient(hc))
	return openai.NewClient(opts...)
}

// Message is one turn of a conversation.
type Message struct {
	Role    string // system, user or assistant
	Content string
}

// Reply is a chat answer and what it cost.
type Reply struct {
	Text             string
	PromptTokens     int64
	CompletionTokens int64
}

// Chat asks the model for one completion.
func (g *Gateway) Chat(ctx context.Context, t Target, msgs []Message, maxTokens int64) (*Reply, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	defer cancel()
	c := g.client(t)
	res, err := c.Chat.Completions.New(ctx, chatParams(t, msgs, maxTokens))
	if err != nil {
		return nil, upstream(t.Model, err)
	}
	if len(res.Choices) == 0 {
		return nil, apperr.New(apperr.UpstreamFailed, "model %s answered without a choice", t.Model)
	}
	return &Reply{Text: res.Choices[0].Message.Content, PromptTokens: res.Usage.PromptTokens,
		CompletionTokens: res.Usage.CompletionTokens}, nil
}

// noProxy is transient for callers that retry (search's embedding jobs):
// it says nothing about the input, and a later call may find one.
func noProxy() error {
	return &Failure{err: apperr.New(apperr.Unavailable, "no model proxy is configured (ai.base_url)"), transient: true}
}

// Failure is a call that failed: the envelope error (502 upstream_failed,
// or 503 with no proxy) and whether the same call could succeed later as
// it is (unreachable, too slow, 408, 429, 5xx), which background callers
// use to stop early instead of trying their inputs one by one.
type Failure struct {
	err       *apperr.Error
	transient bool
}

func (f *Failure) Error() string { return f.err.Message }

// Unwrap lets apperr.As find the envelope error.
func (f *Failure) Unwrap() error { return f.err }

// Transient reports a failure that says nothing about the input.
func (f *Failure) Transient() bool { return f.transient }

func chatParams(t Target, msgs []Message, maxTokens int64) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{Model: t.Model}
	if maxTokens > 0 {
		params.MaxTokens = openai.Int(maxTokens)
	}
	for _, m := range msgs {
		switch m.Role {
		case "system":
			params.Messages = append(params.Messages, openai.SystemMessage(m.Content))
		case "assistant":
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		default:
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	return params
}

// Stream is a chat answer arriving in pieces. The timeout covers the whole
// stream; Close ends it early.
type Stream struct {
	s      *ssestream.Stream[openai.ChatCompletionChunk]
	cancel context.CancelFunc
	model  string
	first  *string // the piece read by ChatStream to know the call was taken
	err    error
	reply  Reply
}

// ChatStream asks for a completion streamed as it is written. It returns
// once the first piece has come, so a refused call (no proxy, the model's
// 4xx or 5xx) is an error here, before the caller has answered anything.
func (g *Gateway) ChatStream(ctx context.Context, t Target, msgs []Message, maxTokens int64) (*Stream, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	params := chatParams(t, msgs, maxTokens)
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	c := g.client(t)
	st := &Stream{s: c.Chat.Completions.NewStreaming(ctx, params), cancel: cancel, model: t.Model}
	piece, ok := st.next()
	if !ok && st.err != nil {
		st.Close()
		return nil, st.err
	}
	if ok {
		st.first = &piece
	}
	return st, nil
}

// Next gives the next piece of text; false at the end or on a failure
// (Err tells which).
func (st *Stream) Next() (string, bool) {
	if st.first != nil {
		piece := *st.first
		st.first = nil
		return piece, true
	}
	return st.next()
}

func (st *Stream) next() (string, bool) {
	for st.s.Next() {
		chunk := st.s.Current()
		if chunk.Usage.TotalTokens > 0 {
			st.reply.PromptTokens, st.reply.CompletionTokens = chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			piece := chunk.Choices[0].Delta.Content
			st.reply.Text += piece
			return piece, true
		}
	}
	if err := st.s.Err(); err != nil {
		st.err = upstream(st.model, err)
	}
	return "", false
}

// Err is why the stream stopped early (a 502 envelope error), or nil.
func (st *Stream) Err() error { return st.err }

// Reply is the whole text so far and the usage the model reported.
func (st *Stream) Reply() Reply { return st.reply }

// Close ends the stream and frees its connection.
func (st *Stream) Close() {
	_ = st.s.Close()
	st.cancel()
}

// Speak asks a speech model for audio/mpeg; the caller streams and closes
// the body. The timeout covers the whole read of the body.
func (g *Gateway) Speak(ctx context.Context, t Target, voice, text string) (io.ReadCloser, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.Timeout)
	c := g.client(t)
	res, err := c.Audio.Speech.New(ctx, openai.AudioSpeechNewParams{Input: text, Model: t.Model,
		Voice:          openai.AudioSpeechNewParamsVoiceUnion{OfString: openai.String(voice)},
		ResponseFormat: openai.AudioSpeechNewParamsResponseFormatMP3})
	if err != nil {
		cancel()
		return nil, upstream(t.Model, err)
	}
	return &cancelOnClose{ReadCloser: res.Body, cancel: cancel}, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// Models lists the model ids the proxy serves.
func (g *Gateway) Models(ctx context.Context, t Target) ([]string, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.Timeout)
	defer cancel()
	c := g.client(t)
	page, err := c.Models.List(ctx)
	if err != nil {
		return nil, upstream("", err)
	}
	out := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		out = append(out, m.ID)
	}
	return out, nil
}

// upstream turns a failed call into 502 upstream_failed carrying what the
// upstream said, so an admin sees the proxy's own reason.
func upstream(model string, err error) error {
	var api *openai.Error
	var nerr net.Error
	var serr *ssestream.StreamError
	who := "the model proxy"
	if model != "" {
		who = "model " + model
	}
	switch {
	case errors.As(err, &api):
		msg := strings.TrimSpace(api.Message)
		if msg == "" {
			msg = http.StatusText(api.StatusCode)
		}
		transient := api.StatusCode == http.StatusTooManyRequests || api.StatusCode == http.StatusRequestTimeout ||
			api.StatusCode >= 500
		return &Failure{err: apperr.New(apperr.UpstreamFailed, "%s answered %d: %s", who, api.StatusCode, text.Clip(msg, 500)),
			transient: transient}
	case errors.As(err, &serr):
		return &Failure{err: apperr.New(apperr.UpstreamFailed, "%s stopped mid-answer: %s", who, text.Clip(serr.Message, 500)),
			transient: true}
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
		return &Failure{err: apperr.New(apperr.UpstreamFailed, "%s did not answer in time", who), transient: true}
	case isTransport(err):
		return &Failure{err: apperr.New(apperr.UpstreamFailed, "%s is unreachable: %s", who, text.Clip(err.Error(), 300)),
			transient: true}
	}
	// A body that is not the protocol's JSON, or any other failure.
	return &Failure{err: apperr.New(apperr.UpstreamFailed, "%s failed: %s", who, text.Clip(err.Error(), 300))}
}

// isTransport reports a connection that failed or dropped.
func isTransport(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED)
}
