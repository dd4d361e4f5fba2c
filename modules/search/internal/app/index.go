package app

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Item is one item of another module's kind (search.IndexChanged).
type Item struct {
	Kind                string
	ID, Version         int64
	Live, Purged        bool
	Title, Body, Hidden string
}

// OnIndexChanged keeps an item's index row in step. It runs in the event's
// transaction and is idempotent: a repeated or older version changes
// nothing, and a purge is final. A new or changed text is embedded after
// the transaction, by embed_pending (see index).
func (s *Service) OnIndexChanged(ctx context.Context, it Item) error {
	if it.Purged {
		return s.store.Purge(ctx, it.Kind, it.ID)
	}
	return s.index(ctx, store.Document{Kind: it.Kind, ID: it.ID, Version: it.Version, Live: it.Live,
		Title: it.Title, Body: it.Body, Hidden: it.Hidden})
}

// index writes one document in the event's transaction. A new or changed
// text is not embedded here (no remote call inside a transaction): the
// write queues embed_pending, which embeds it once the transaction has
// committed.
func (s *Service) index(ctx context.Context, doc store.Document) error {
	doc.ContentHash = contentHash(embedText(doc.Title))
	needs, err := s.store.Apply(ctx, doc)
	if err != nil || !needs {
		return err
	}
	return s.queueEmbedding(ctx)
}

// queueEmbedding makes sure one embed_pending job is queued and not yet
// started (it then sees every write committed before it started). A full
// job queue queues nothing: retry_missing_embeddings finds the item later.
func (s *Service) queueEmbedding(ctx context.Context) error {
	prev, err := s.store.LockEmbedJob(ctx)
	if err != nil {
		return err
	}
	if rec, err := s.unfinished(ctx, prev); err != nil || rec != nil {
		return err
	}
	id, err := s.queue.Enqueue(ctx, nil, EmbedPendingArgs{})
	if errors.Is(err, jobs.ErrQueueFull) {
		s.log.Warn("search: job queue full; retry_missing_embeddings will embed the new text")
		return nil
	}
	if err != nil {
		return err
	}
	return s.store.SetEmbedJob(ctx, id)
}

// unfinished is the job id names while it has not ended: nil when id is
// nil, the job ended or its record is gone. The caller holds the row lock
// that names it, so two callers never both find none and both queue one.
func (s *Service) unfinished(ctx context.Context, id *uuid.UUID) (*jobs.Record, error) {
	if id == nil {
		return nil, nil
	}
	rec, err := s.queue.Get(ctx, *id)
	if errors.Is(err, jobs.ErrNotFound) || err == nil && rec.Status.Terminal() {
		return nil, nil
	}
	return rec, err
}
