package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// KindHealth is the embedding coverage of one kind's live items.
type KindHealth struct {
	Kind       string
	Live       int // searchable items
	Current    int // with a vector of the current model for their current text
	Missing    int // text without a vector for it (not yet embedded, or failed)
	Failed     int // of Missing: the last attempt failed
	OtherModel int // vector made by another model (awaiting regeneration)
	Empty      int // text with nothing to embed
}

// Health counts coverage per kind. A sequential pass over the index: an
// admin page, not a hot path.
func (s *Store) Health(ctx context.Context, model string) ([]KindHealth, error) {
	var out []KindHealth
	err := s.conn(ctx).Raw(`SELECT kind,
			count(*) AS live,
			count(*) FILTER (WHERE embedding IS NOT NULL AND embedded_hash = content_hash AND embedding_model = ?) AS current,
			count(*) FILTER (WHERE embedded_hash IS DISTINCT FROM content_hash) AS missing,
			count(*) FILTER (WHERE embedded_hash IS DISTINCT FROM content_hash AND embed_error IS NOT NULL) AS failed,
			count(*) FILTER (WHERE embedded_hash = content_hash AND embedding IS NOT NULL
				AND embedding_model IS DISTINCT FROM ?) AS other_model,
			count(*) FILTER (WHERE embedded_hash = content_hash AND embedding IS NULL) AS empty
		FROM search.documents WHERE live GROUP BY kind ORDER BY kind`, model, model).Scan(&out).Error
	return out, err
}

// LastFailure is the most recent embedding failure still unresolved.
func (s *Store) LastFailure(ctx context.Context) (msg string, at *time.Time, err error) {
	var rows []struct {
		EmbedError    string
		EmbedFailedAt time.Time
	}
	err = s.conn(ctx).Raw(`SELECT embed_error, embed_failed_at FROM search.documents
		WHERE NOT purged AND embed_error IS NOT NULL AND embedded_hash IS DISTINCT FROM content_hash
		ORDER BY embed_failed_at DESC LIMIT 1`).Scan(&rows).Error
	if err != nil || len(rows) == 0 {
		return "", nil, err
	}
	return rows[0].EmbedError, &rows[0].EmbedFailedAt, nil
}

// LatestRegeneration reads the latest regeneration job (nil if none).
func (s *Store) LatestRegeneration(ctx context.Context) (*uuid.UUID, error) {
	var row struct{ RegenerationJob *uuid.UUID }
	err := s.conn(ctx).Raw(`SELECT regeneration_job FROM search.state`).Scan(&row).Error
	return row.RegenerationJob, err
}

// SetRegeneration records a new regeneration job.
func (s *Store) SetRegeneration(ctx context.Context, id uuid.UUID, at time.Time) error {
	return s.conn(ctx).Exec(`UPDATE search.state SET regeneration_job = ?, regeneration_requested = ?`, id, at).Error
}

// LockEmbedJob reads the queued embed_pending job (nil if none) under a row
// lock. Call inside a transaction.
func (s *Store) LockEmbedJob(ctx context.Context) (*uuid.UUID, error) {
	var row struct{ EmbedJob *uuid.UUID }
	err := s.conn(ctx).Raw(`SELECT embed_job FROM search.state FOR UPDATE`).Scan(&row).Error
	return row.EmbedJob, err
}

// SetEmbedJob records the queued embed_pending job.
func (s *Store) SetEmbedJob(ctx context.Context, id uuid.UUID) error {
	return s.conn(ctx).Exec(`UPDATE search.state SET embed_job = ?`, id).Error
}

// ClaimEmbedJob clears the queued job if it is id: from then on a new
// index event queues another. The update waits for any event transaction
// that saw id queued, so the job's scan sees what that event wrote.
func (s *Store) ClaimEmbedJob(ctx context.Context, id uuid.UUID) error {
	return s.conn(ctx).Exec(`UPDATE search.state SET embed_job = NULL WHERE embed_job = ?`, id).Error
}

// VectorDims is the dimension of the embedding column.
func (s *Store) VectorDims(ctx context.Context) (int, error) {
	var n int
	err := s.conn(ctx).Raw(`SELECT atttypmod FROM pg_attribute
		WHERE attrelid = 'search.documents'::regclass AND attname = 'embedding'`).Scan(&n).Error
	return n, err
}

// resizeLock serialises the resize between replicas starting together.
const resizeLock = 7_470_201

// ResizeVectors makes the embedding column hold dims floats. Stored vectors
// of the old size cannot be compared with new ones, so they are dropped
// (their rows become "missing" for the retry job and regeneration); the
// HNSW indexes are rebuilt by the type change. It reports how many vectors
// were dropped.
func (s *Store) ResizeVectors(ctx context.Context, dims int) (int64, error) {
	var dropped int64
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.conn(ctx).Exec(`SELECT pg_advisory_xact_lock(?)`, resizeLock).Error; err != nil {
			return err
		}
		cur, err := s.VectorDims(ctx)
		if err != nil || cur == dims {
			return err
		}
		res := s.conn(ctx).Exec(`UPDATE search.documents SET embedding = NULL, embedding_model = NULL,
			embedded_hash = NULL, embedded_at = NULL WHERE embedding IS NOT NULL`)
		if res.Error != nil {
			return res.Error
		}
		dropped = res.RowsAffected
		return s.conn(ctx).Exec(fmt.Sprintf(`ALTER TABLE search.documents ALTER COLUMN embedding TYPE vector(%d)`, dims)).Error
	})
	return dropped, err
}
