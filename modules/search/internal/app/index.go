package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/search/internal/store"
)

// QuestionChanged is the bank's bank.question_changed.v1 payload as search
// reads it: search never imports the bank, so it declares the same JSON
// shape itself.
type QuestionChanged struct {
	ID          int64    `json:"id"`
	Change      string   `json:"change"`
	Live        bool     `json:"live"`
	Text        string   `json:"text"`
	Options     []string `json:"options,omitempty"`
	Explanation string   `json:"explanation,omitempty"`
	Version     int64    `json:"version"`
}

// TopicQuestionChanged is the bank's topic.
const TopicQuestionChanged = "bank.question_changed.v1"

// OnQuestionChanged keeps the question's index row in step. It runs in the
// event's transaction and is idempotent: a repeated or older version changes
// nothing, and a purge is final. A new or changed text is embedded here, off
// the request path; a failure is recorded on the row (never retried by
// failing the event) and retry_missing_embeddings fills it in.
func (s *Service) OnQuestionChanged(ctx context.Context, e QuestionChanged) error {
	if e.Change == "purged" {
		return s.store.Purge(ctx, "question", e.ID)
	}
	doc := store.Document{
		Kind: "question", ID: e.ID, Version: e.Version,
		Live:  e.Live && e.Change != "deleted",
		Title: e.Text, Body: strings.Join(e.Options, "\n"), Hidden: e.Explanation,
	}
	return s.index(ctx, doc)
}

// Item is one item of another module's kind (search.IndexChanged).
type Item struct {
	Kind                string
	ID, Version         int64
	Live, Purged        bool
	Title, Body, Hidden string
}

// OnIndexChanged keeps an item's index row in step, under the same rules
// as OnQuestionChanged.
func (s *Service) OnIndexChanged(ctx context.Context, it Item) error {
	if it.Purged {
		return s.store.Purge(ctx, it.Kind, it.ID)
	}
	return s.index(ctx, store.Document{Kind: it.Kind, ID: it.ID, Version: it.Version, Live: it.Live,
		Title: it.Title, Body: it.Body, Hidden: it.Hidden})
}

// index writes one document, embedding its text when the stored vector does
// not match it.
func (s *Service) index(ctx context.Context, doc store.Document) error {
	text := embedText(doc.Title)
	doc.ContentHash = contentHash(text)
	cur, err := s.store.Current(ctx, doc.Kind, doc.ID)
	if err != nil {
		return err
	}
	if cur != nil && (cur.Purged || cur.Version >= doc.Version) {
		return nil // stale or repeated
	}
	var emb *store.Embedding
	if cur == nil || cur.EmbeddedHash != doc.ContentHash || cur.Model != s.embedder.Model() {
		vecs, err := s.embedder.Embed(ctx, []string{text})
		if err != nil {
			s.log.Warn("search: embedding failed; the retry job will try again",
				"kind", doc.Kind, "id", doc.ID, "error", err)
			emb = &store.Embedding{Err: err.Error()}
		} else {
			emb = &store.Embedding{Vector: vecs[0], Model: s.embedder.Model()}
		}
	}
	return s.store.Apply(ctx, doc, emb)
}
