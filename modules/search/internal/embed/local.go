package embed

import (
	"context"
	"hash/fnv"
)

// LocalModel names the built-in embedder's vectors. Bump the suffix when the
// features change: stored vectors of the old version then count as another
// model and regeneration replaces them.
const LocalModel = "local-lexical-v1"

// Feature weights. A concept from the lexicon outweighs a plain word, so
// "high blood pressure" and "hypertension" land close; clinical filler is
// kept faint; character trigrams let "cardiomyopathies" and a misspelt
// "cardiomyopaty" still meet; word pairs keep a little of the word order.
const (
	weightConcept     = 1.6
	weightWord        = 1.0
	weightPhraseWord  = 0.5 // a word that is part of a matched phrase
	weightConceptWord = 0.7 // a single word that is also a concept ("kidney")
	weightFiller      = 0.25
	weightTrigram     = 0.15
	weightPair        = 0.3
)

// Local is the built-in embedder: feature hashing of stemmed words, lexicon
// concepts, word pairs and character trigrams into a signed vector of the
// configured size. It needs no network and no model file, so a fresh machine
// has working semantic search. It captures shared words, inflections,
// spelling slips and the synonyms and abbreviations in its lexicon; it does
// not capture meaning that shares no word or listed synonym (it cannot know
// that crushing chest pain with ST elevation describes an infarction).
type Local struct {
	dims int
	lx   *lexicon
}

// NewLocal makes the local embedder for vectors of dims floats.
func NewLocal(dims int) *Local { return &Local{dims: dims, lx: buildLexicon(conceptForms)} }

// Model implements Embedder.
func (l *Local) Model() string { return LocalModel }

// Provider implements Embedder.
func (l *Local) Provider() string { return "local" }

// Dims implements Embedder.
func (l *Local) Dims() int { return l.dims }

// Embed implements Embedder; it never fails.
func (l *Local) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = l.Vector(t)
	}
	return out, nil
}

// Vector embeds one text; nil when it has nothing to embed.
func (l *Local) Vector(text string) []float32 {
	v := make([]float32, l.dims)
	add := func(feature string, w float64) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(feature))
		x := h.Sum64()
		idx := int(x % uint64(l.dims))
		if x>>63 == 1 {
			w = -w
		}
		v[idx] += float32(w)
	}
	raw := words(Truncate(text))
	stems := make([]string, len(raw))
	for i, w := range raw {
		stems[i] = stem(w)
	}
	prev := ""
	unit := func(u string) {
		if prev != "" {
			add("p:"+prev+"|"+u, weightPair)
		}
		prev = u
	}
	word := func(i int, w float64) {
		s := stems[i]
		add("w:"+s, w)
		if len(s) >= 4 {
			g := "^" + s + "$"
			for j := 0; j+3 <= len(g); j++ {
				add("g:"+g[j:j+3], weightTrigram)
			}
		}
	}
	for i := 0; i < len(stems); {
		if concept, n := l.lx.match(stems, i); n > 0 {
			add("c:"+concept, weightConcept)
			for j := i; j < i+n; j++ {
				if !stopWords[raw[j]] {
					if n == 1 {
						word(j, weightConceptWord)
					} else {
						word(j, weightPhraseWord)
					}
				}
			}
			unit("c:" + concept)
			i += n
			continue
		}
		w := raw[i]
		switch {
		case stopWords[w] || isNumber(w) || len(w) < 2:
		case fillerWords[w] || fillerWords[stems[i]]:
			add("w:"+stems[i], weightFiller)
		default:
			word(i, weightWord)
			unit("w:" + stems[i])
		}
		i++
	}
	return normalize(v)
}
