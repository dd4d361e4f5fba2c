package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/jobs"
)

// KindHealth is how far one kind of document is embedded.
type KindHealth = store.KindHealth

// Names of the background work.
const (
	JobRegenerate   = "regenerate_embeddings"
	JobEmbedPending = "embed_pending"
	TaskRetry       = "retry_missing_embeddings"
)

// embedBatch embeds a batch and stores what it could. A transient failure
// (endpoint down, slow, rate-limited) is recorded on the whole batch and
// returned, so the caller stops hammering; any other failure is narrowed
// down item by item, so one refused text does not block its neighbours.
// It returns how many items got a vector (or were found to have nothing to
// embed) and how many failed.
func (s *Service) embedBatch(ctx context.Context, e embed.Embedder, items []store.Pending) (ok, failed int, err error) {
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = embedText(it.Title)
	}
	vecs, err := e.Embed(ctx, texts)
	if err == nil {
		return len(items), 0, s.store.SaveEmbeddings(ctx, items, vecs, e.Model())
	}
	if embed.IsTransient(err) || len(items) == 1 {
		if rerr := s.store.RecordFailures(ctx, items, err.Error()); rerr != nil {
			return 0, 0, rerr
		}
		if embed.IsTransient(err) {
			return 0, len(items), err
		}
		return 0, 1, nil
	}
	for i := range items {
		o, f, err := s.embedBatch(ctx, e, items[i:i+1])
		ok, failed = ok+o, failed+f
		if err != nil {
			return ok, failed, err
		}
	}
	return ok, failed, nil
}

// RetryMissing is retry_missing_embeddings: it embeds items whose vector is
// missing or older than their text, at most RetryMaxPerRun per run, and
// stops early while the endpoint is failing.
func (s *Service) RetryMissing(ctx context.Context) error {
	e, err := s.embedder(ctx)
	if err != nil {
		return err
	}
	after := store.Key{}
	var done, failed int
	for done+failed < s.tuning.RetryMaxPerRun {
		items, err := s.store.Missing(ctx, after, min(s.tuning.BatchSize, s.tuning.RetryMaxPerRun-done-failed), false)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			break
		}
		after = items[len(items)-1].Key
		o, f, err := s.embedBatch(ctx, e, items)
		done, failed = done+o, failed+f
		if err != nil {
			s.log.Warn("search: retry_missing_embeddings stopped: endpoint failing", "embedded", done, "error", err)
			return nil
		}
	}
	if done+failed > 0 {
		s.log.Info("search: retry_missing_embeddings", "embedded", done, "failed", failed)
	}
	return nil
}

// EmbedResult is embed_pending's stored result.
type EmbedResult struct {
	Embedded int `json:"embedded"`
	Failed   int `json:"failed"`
}

// EmbedPending is the embed_pending job, queued by index events: it embeds
// every item whose text has no vector yet and no failed attempt, outside
// any transaction, and stores each batch in one statement (an edit made
// meanwhile wins: SaveEmbeddings checks the text is still the one
// embedded). A failing endpoint stops it; the failures are recorded and
// retry_missing_embeddings takes over. Safe to run again.
func (s *Service) EmbedPending(ctx context.Context, run *jobs.Run[EmbedPendingArgs]) (any, error) {
	if err := s.store.ClaimEmbedJob(ctx, run.ID); err != nil {
		return nil, err
	}
	e, err := s.embedder(ctx)
	if err != nil {
		return nil, err
	}
	var res EmbedResult
	after := store.Key{}
	for {
		items, err := s.store.Missing(ctx, after, s.tuning.BatchSize, true)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return res, nil
		}
		after = items[len(items)-1].Key
		o, f, err := s.embedBatch(ctx, e, items)
		res.Embedded, res.Failed = res.Embedded+o, res.Failed+f
		if err != nil {
			s.log.Warn("search: embed_pending stopped: endpoint failing; the retry job takes over",
				"embedded", res.Embedded, "error", err)
			return res, nil
		}
	}
}

// EmbedPendingArgs is an embed_pending job: it takes no input.
type EmbedPendingArgs struct{}

func (EmbedPendingArgs) Kind() string { return JobEmbedPending }

// RegeneratePayload is the job's input.
type RegeneratePayload struct {
	// RequestedAt: vectors made at or after it by the current model are
	// already regenerated (a job taken up again skips them).
	RequestedAt time.Time `json:"requested_at"`
}

func (RegeneratePayload) Kind() string { return JobRegenerate }

// RegenerateResult is the job's stored result.
type RegenerateResult struct {
	Model    string `json:"model"`
	Total    int    `json:"total"`
	Embedded int    `json:"embedded"`
	Failed   int    `json:"failed"`
}

// stepEvery spaces progress steps: clients poll them, they need not see
// every batch.
const stepEvery = 2 * time.Second

// Regenerate is the regenerate_embeddings job: it re-embeds every indexed
// item with the current model in batches, each stored as it completes. Old
// vectors keep answering searches until their replacement lands, so search
// stays usable throughout. Safe to run again: finished items are skipped.
func (s *Service) Regenerate(ctx context.Context, run *jobs.Run[RegeneratePayload]) (any, error) {
	p := run.Args
	e, err := s.embedder(ctx)
	if err != nil {
		return nil, err
	}
	model := e.Model()
	total, err := s.store.CountIndexed(ctx)
	if err != nil {
		return nil, err
	}
	if err := run.Step(ctx, "started", fmt.Sprintf("re-embedding %d items with %s", total, model)); err != nil {
		return nil, err
	}
	res := RegenerateResult{Model: model, Total: total}
	after := store.Key{}
	last := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		items, err := s.store.NotEmbeddedSince(ctx, after, model, p.RequestedAt, s.tuning.BatchSize)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			break
		}
		after = items[len(items)-1].Key
		o, f, err := s.embedBatch(ctx, e, items)
		res.Embedded, res.Failed = res.Embedded+o, res.Failed+f
		if err != nil {
			return nil, fmt.Errorf("embeddings endpoint failing after %d of %d items: %w", res.Embedded, total, err)
		}
		if time.Since(last) >= stepEvery {
			last = time.Now()
			if err := run.Step(ctx, "embedding", fmt.Sprintf("%d of %d", res.Embedded+res.Failed, total)); err != nil {
				return nil, err
			}
		}
	}
	if err := run.Step(ctx, "completed", fmt.Sprintf("%d embedded, %d failed", res.Embedded, res.Failed)); err != nil {
		return nil, err
	}
	return res, nil
}

// RegenerationStarted is the answer to a regeneration request.
type RegenerationStarted struct {
	JobID  uuid.UUID
	Status jobs.Status
}

// StartRegeneration queues regenerate_embeddings unless one is already
// pending or running (409): the kind is unique (River's unique jobs), so
// two admins asking together start one job. A model other than the one in
// use is checked first, outside the transaction (its failure is a 502 and
// changes nothing), and becomes embedding_model in the job's transaction:
// queries then compare only its vectors, so items not yet re-embedded are
// found by keyword until the job reaches them.
func (s *Service) StartRegeneration(ctx context.Context, by int64, model string) (RegenerationStarted, error) {
	var out RegenerationStarted
	current, err := s.embeddingModel(ctx)
	if err != nil {
		return out, err
	}
	switchTo := model != "" && model != current
	if switchTo {
		if _, err := probe(ctx, s.embedderOf(model), ""); err != nil {
			return out, err
		}
	}
	err = s.store.DB().Tx(ctx, func(ctx context.Context) error {
		now := time.Now().UTC()
		id, err := s.queue.Enqueue(ctx, &by, RegeneratePayload{RequestedAt: now})
		switch {
		case errors.Is(err, jobs.ErrDuplicate):
			status := jobs.Pending
			if rec, err := s.queue.Get(ctx, id); err == nil {
				status = rec.Status
			}
			return apperr.Conflictf("a regeneration is already %s (job %s)", status, id)
		case errors.Is(err, jobs.ErrQueueFull):
			return apperr.New(apperr.Unavailable, "the job queue cannot accept a regeneration now; try again later")
		case err != nil:
			return err
		}
		out = RegenerationStarted{JobID: id, Status: jobs.Pending}
		if switchTo {
			if err := s.settings.Change(ctx, by, SettingEmbeddingModel, model); err != nil {
				return err
			}
		}
		return s.store.SetRegeneration(ctx, id, now)
	})
	return out, err
}

// Health is the embedding coverage report.
type Health struct {
	Provider     string
	Model        string
	Dims         int
	Totals       store.KindHealth
	Kinds        []store.KindHealth
	LastError    string
	LastErrorAt  *time.Time
	Regeneration *jobs.Record
}

// Health reports how much of the index has a vector of the current model.
func (s *Service) Health(ctx context.Context) (Health, error) {
	e, err := s.embedder(ctx)
	if err != nil {
		return Health{}, err
	}
	h := Health{Provider: e.Provider(), Model: e.Model(), Dims: e.Dims()}
	kinds, err := s.store.Health(ctx, h.Model)
	if err != nil {
		return h, err
	}
	h.Kinds = kinds
	for _, k := range kinds {
		h.Totals.Live += k.Live
		h.Totals.Current += k.Current
		h.Totals.Missing += k.Missing
		h.Totals.Failed += k.Failed
		h.Totals.OtherModel += k.OtherModel
		h.Totals.Empty += k.Empty
	}
	if h.LastError, h.LastErrorAt, err = s.store.LastFailure(ctx); err != nil {
		return h, err
	}
	reg, err := s.store.LatestRegeneration(ctx)
	if err != nil {
		return h, err
	}
	if reg != nil {
		rec, err := s.queue.Get(ctx, *reg)
		if err != nil && !errors.Is(err, jobs.ErrNotFound) {
			return h, err
		}
		h.Regeneration = rec
	}
	return h, nil
}
