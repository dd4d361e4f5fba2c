// Package embed turns text into vectors for the vector ranker. Two
// implementations share one interface: Local (built in, no network, hashed
// lexical features) and Gateway (a named model through the AI module's
// gateway to an OpenAI-compatible proxy such as LiteLLM).
package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Embedder turns texts into unit vectors of Dims() floats, one per text, in
// order. A text with nothing to embed (blank, or only stop words for the
// local embedder) yields a nil vector rather than an error.
type Embedder interface {
	// Model names what produces the vectors; vectors of different models are
	// never compared.
	Model() string
	// Provider is "local" or "gateway".
	Provider() string
	Dims() int
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Error is an embedding failure. Transient ones (unreachable, slow,
// rate-limited, server errors) are worth retrying later as they are;
// the others (a refused input, a reply that does not fit) are not helped
// by sending the same batch again.
type Error struct {
	Transient bool
	Msg       string
	Err       error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// IsTransient reports a failure that says nothing about the input.
func IsTransient(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.Transient
	}
	return errors.Is(err, context.DeadlineExceeded)
}

// MaxInputChars bounds what is sent for one text; stems and options are far
// shorter, and the models' input limits are about 8k tokens.
const MaxInputChars = 8000

// Truncate cuts s to MaxInputChars without splitting a UTF-8 sequence.
func Truncate(s string) string {
	if len(s) <= MaxInputChars {
		return s
	}
	cut := MaxInputChars
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// normalize scales v to unit length; a zero vector becomes nil.
func normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return nil
	}
	n := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= n
	}
	return v
}

// Cosine is the cosine similarity of two vectors of equal length.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// checkVector refuses a vector that pgvector could not use.
func checkVector(v []float32, dims int) error {
	if len(v) != dims {
		return fmt.Errorf("vector has %d dimensions, search.embedding_dims is %d", len(v), dims)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return errors.New("vector holds a non-finite value")
		}
	}
	return nil
}
