package harness

import "crypto/rand"

// MadeUpWord is a random word of twelve letters: it shares few letter
// trigrams with any other text, so neither search ranker ties anything
// else to it and a test narrows a search to its own items.
func MadeUpWord() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}
