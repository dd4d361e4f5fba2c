// Package gateway is the one client Rounds uses to reach models: an
// OpenAI-compatible proxy (LiteLLM or any server speaking the protocol)
// for chat, speech and model discovery. Timeouts, retries and the mapping
// of upstream failures to the error envelope live here and nowhere else.
package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Target is where one call goes: the proxy, the key and the model.
type Target struct {
	BaseURL string // up to and including /v1
	APIKey  string
	Model   string
	// Timeout replaces the gateway's for this target's task (0: the
	// gateway's); extraction reads pages for longer than a tutor answers.
	Timeout time.Duration
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
	// HTTPClient is the transport (tests point it at a stand-in).
	HTTPClient *http.Client
}

func (g *Gateway) client(t Target) openai.Client {
	key := t.APIKey
	if key == "" {
		key = "none" // proxies without auth still expect the header
	}
	opts := []option.RequestOption{option.WithBaseURL(t.BaseURL), option.WithAPIKey(key),
		option.WithMaxRetries(g.Retries), option.WithRequestTimeout(g.timeout(t))}
	if g.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(g.HTTPClient))
	}
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
		return nil, apperr.New(apperr.Unavailable, "no model proxy is configured (ai.base_url)")
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	defer cancel()
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
	c := g.client(t)
	res, err := c.Chat.Completions.New(ctx, params)
	if err != nil {
		return nil, upstream(t.Model, err)
	}
	if len(res.Choices) == 0 {
		return nil, apperr.New(apperr.UpstreamFailed, "model %s answered without a choice", t.Model)
	}
	return &Reply{Text: res.Choices[0].Message.Content, PromptTokens: res.Usage.PromptTokens,
		CompletionTokens: res.Usage.CompletionTokens}, nil
}

// Speak asks a speech model for audio/mpeg; the caller streams and closes
// the body. The timeout covers the whole read of the body.
func (g *Gateway) Speak(ctx context.Context, t Target, voice, text string) (io.ReadCloser, error) {
	if t.BaseURL == "" {
		return nil, apperr.New(apperr.Unavailable, "no model proxy is configured (ai.base_url)")
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
		return nil, apperr.New(apperr.Unavailable, "no model proxy is configured (ai.base_url)")
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
		return apperr.New(apperr.UpstreamFailed, "%s answered %d: %s", who, api.StatusCode, clip(msg, 500))
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
		return apperr.New(apperr.UpstreamFailed, "%s did not answer in time", who)
	}
	return apperr.New(apperr.UpstreamFailed, "%s is unreachable: %s", who, clip(err.Error(), 300))
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
