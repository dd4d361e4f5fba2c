package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/openai/openai-go/v3"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/text"
)

// Embed asks an embeddings model for one vector per text, in the texts'
// order (OpenAI's POST /embeddings). A reply that does not carry exactly
// one vector per text is a failure, not retried.
func (g *Gateway) Embed(ctx context.Context, t Target, texts []string) ([][]float64, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	defer cancel()
	c := g.client(t)
	res, err := c.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(t.Model),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	})
	if err != nil {
		return nil, upstream(t.Model, err)
	}
	if len(res.Data) != len(texts) {
		return nil, mismatch(t.Model, "%d vectors for %d texts", len(res.Data), len(texts))
	}
	out := make([][]float64, len(texts))
	for _, d := range res.Data {
		if d.Index < 0 || int(d.Index) >= len(texts) || out[d.Index] != nil {
			return nil, mismatch(t.Model, "an unexpected index %d", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// MaxRerankDocuments is the most documents one rerank call may carry.
const MaxRerankDocuments = 1000

type rerankRequest struct {
	Model     string   `json:"model"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n"`
}

type rerankReply struct {
	Results []struct {
		Index *int     `json:"index"`
		Score *float64 `json:"relevance_score"`
	} `json:"results"`
}

// Rerank asks a rerank model to score each document against query
// (Cohere's protocol, POST /rerank, as LiteLLM serves it) and returns one
// score per document in the documents' order. A reply that does not score
// every document exactly once with a finite score is a failure.
func (g *Gateway) Rerank(ctx context.Context, t Target, query string, docs []string) ([]float64, error) {
	if t.BaseURL == "" {
		return nil, noProxy()
	}
	if len(docs) == 0 || len(docs) > MaxRerankDocuments {
		return nil, fmt.Errorf("gateway: rerank takes 1 to %d documents, not %d", MaxRerankDocuments, len(docs))
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	defer cancel()
	c := g.client(t)
	var raw json.RawMessage
	if err := c.Post(ctx, "rerank", rerankRequest{Model: t.Model, Query: query, Documents: docs, TopN: len(docs)}, &raw); err != nil {
		return nil, upstream(t.Model, err)
	}
	var r rerankReply
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, mismatch(t.Model, "not a rerank reply: %s", text.Clip(string(raw), 200))
	}
	if len(r.Results) != len(docs) {
		return nil, mismatch(t.Model, "%d results for %d documents", len(r.Results), len(docs))
	}
	scores := make([]float64, len(docs))
	seen := make([]bool, len(docs))
	for _, res := range r.Results {
		if res.Index == nil || res.Score == nil {
			return nil, mismatch(t.Model, "a result lacks index or relevance_score")
		}
		i := *res.Index
		if i < 0 || i >= len(docs) || seen[i] {
			return nil, mismatch(t.Model, "an unexpected index %d", i)
		}
		if math.IsNaN(*res.Score) || math.IsInf(*res.Score, 0) {
			return nil, mismatch(t.Model, "a non-finite score")
		}
		seen[i], scores[i] = true, *res.Score
	}
	return scores, nil
}

// Audio is a recording to transcribe.
type Audio struct {
	Body        io.Reader
	Filename    string // the proxy infers the format from its extension
	ContentType string
}

// Transcribe asks a speech-to-text model for the text of a recording
// (OpenAI's POST /audio/transcriptions).
func (g *Gateway) Transcribe(ctx context.Context, t Target, a Audio) (string, error) {
	if t.BaseURL == "" {
		return "", noProxy()
	}
	ctx, cancel := context.WithTimeout(ctx, g.timeout(t))
	defer cancel()
	c := g.client(t)
	res, err := c.Audio.Transcriptions.New(ctx, openai.AudioTranscriptionNewParams{
		Model: openai.AudioModel(t.Model), File: openai.File(a.Body, a.Filename, a.ContentType),
		ResponseFormat: openai.AudioResponseFormatJSON,
	})
	if err != nil {
		return "", upstream(t.Model, err)
	}
	return res.Text, nil
}

// mismatch is a reply that does not fit the protocol: the model answered,
// so sending the same call again would not help.
func mismatch(model, format string, args ...any) error {
	return &Failure{err: apperr.New(apperr.UpstreamFailed, "model %s answered with %s", model, fmt.Sprintf(format, args...))}
}
