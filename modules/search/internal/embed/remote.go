package embed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// RemoteConfig is an OpenAI-compatible embeddings endpoint.
type RemoteConfig struct {
	BaseURL string // up to and including /v1, e.g. http://litellm:4000/v1
	APIKey  string
	Model   string
	Dims    int
	Timeout time.Duration // per request
}

// Remote embeds through POST {base}/embeddings (OpenAI's wire protocol, as
// served by LiteLLM and most model proxies).
type Remote struct {
	cfg    RemoteConfig
	client openai.Client
}

// NewRemote makes the remote embedder. The client does not retry by itself:
// a failed embedding is recorded and retry_missing_embeddings comes back to
// it, so a request never waits on backoff.
func NewRemote(cfg RemoteConfig) *Remote {
	key := cfg.APIKey
	if key == "" {
		key = "none" // proxies without auth still expect the header
	}
	return &Remote{cfg: cfg, client: openai.NewClient(
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
		option.WithRequestTimeout(cfg.Timeout),
	)}
}

// Model implements Embedder.
func (r *Remote) Model() string { return r.cfg.Model }

// Provider implements Embedder.
func (r *Remote) Provider() string { return "remote" }

// Dims implements Embedder.
func (r *Remote) Dims() int { return r.cfg.Dims }

// Embed implements Embedder. Blank texts are not sent (the API refuses
// them) and come back nil.
func (r *Remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var send []string
	var at []int
	for i, t := range texts {
		if len(words(t)) == 0 {
			continue
		}
		send = append(send, Truncate(t))
		at = append(at, i)
	}
	if len(send) == 0 {
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	res, err := r.client.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(r.cfg.Model),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: send},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	})
	if err != nil {
		return nil, classify(err)
	}
	if len(res.Data) != len(send) {
		return nil, &Error{Msg: fmt.Sprintf("embeddings endpoint returned %d vectors for %d texts", len(res.Data), len(send))}
	}
	seen := make([]bool, len(send))
	for _, d := range res.Data {
		if d.Index < 0 || int(d.Index) >= len(send) || seen[d.Index] {
			return nil, &Error{Msg: fmt.Sprintf("embeddings endpoint returned an unexpected index %d", d.Index)}
		}
		seen[d.Index] = true
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		if err := checkVector(v, r.cfg.Dims); err != nil {
			return nil, &Error{Msg: "embeddings endpoint returned an unusable vector", Err: err}
		}
		v = normalize(v)
		if v == nil {
			return nil, &Error{Msg: "embeddings endpoint returned a zero vector"}
		}
		out[at[d.Index]] = v
	}
	return out, nil
}

// classify sorts a client error into transient (worth retrying as it is)
// or not, keeping the upstream message for the operator.
func classify(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		transient := apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode >= 500 ||
			apiErr.StatusCode == http.StatusRequestTimeout
		msg := fmt.Sprintf("embeddings endpoint answered %d", apiErr.StatusCode)
		if apiErr.Message != "" {
			msg += ": " + apiErr.Message
		}
		return &Error{Transient: transient, Msg: msg}
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return &Error{Transient: true, Msg: "embeddings endpoint timed out", Err: err}
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Transient: true, Msg: "embeddings endpoint unreachable", Err: err}
	}
	// A body that is not the expected JSON, or any other failure.
	return &Error{Msg: "embeddings endpoint failed", Err: err}
}
