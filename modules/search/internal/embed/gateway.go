package embed

import (
	"context"
	"errors"
)

// Models is the embedding half of the gateway port (search's app.Models).
type Models interface {
	Embed(ctx context.Context, model string, texts []string) ([][]float64, error)
}

// Gateway embeds with a named model through the AI module's gateway, which
// owns the client, the key, the timeout and the retries. It checks what
// comes back against search's own needs: the configured dimension and
// finite values.
type Gateway struct {
	models Models
	model  string
	dims   int
}

// NewGateway makes the embedder of model, whose vectors have dims floats.
func NewGateway(m Models, model string, dims int) *Gateway {
	return &Gateway{models: m, model: model, dims: dims}
}

// Model implements Embedder.
func (g *Gateway) Model() string { return g.model }

// Provider implements Embedder.
func (g *Gateway) Provider() string { return "gateway" }

// Dims implements Embedder.
func (g *Gateway) Dims() int { return g.dims }

// Embed implements Embedder. Blank texts are not sent (the API refuses
// them) and come back nil.
func (g *Gateway) Embed(ctx context.Context, texts []string) ([][]float32, error) {
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
	vecs, err := g.models.Embed(ctx, g.model, send)
	if err != nil {
		var t interface{ Transient() bool }
		return nil, &Error{Transient: errors.As(err, &t) && t.Transient(), Msg: "embedding", Err: err}
	}
	if len(vecs) != len(send) {
		return nil, &Error{Msg: "model " + g.model + " returned a vector count that does not match the texts"}
	}
	for i, d := range vecs {
		v := make([]float32, len(d))
		for j, x := range d {
			v[j] = float32(x)
		}
		if err := checkVector(v, g.dims); err != nil {
			return nil, &Error{Msg: "model " + g.model + " returned an unusable vector", Err: err}
		}
		if v = normalize(v); v == nil {
			return nil, &Error{Msg: "model " + g.model + " returned a zero vector"}
		}
		out[at[i]] = v
	}
	return out, nil
}
