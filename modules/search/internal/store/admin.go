package store

import (
	"context"
	"database/sql"
	"errors"
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
	rows, err := s.q(ctx).QueryContext(ctx, `SELECT kind,
			count(*),
			count(*) FILTER (WHERE embedding IS NOT NULL AND embedded_hash = content_hash AND embedding_model = $1),
			count(*) FILTER (WHERE embedded_hash IS DISTINCT FROM content_hash),
			count(*) FILTER (WHERE embedded_hash IS DISTINCT FROM content_hash AND embed_error IS NOT NULL),
			count(*) FILTER (WHERE embedded_hash = content_hash AND embedding IS NOT NULL AND embedding_model IS DISTINCT FROM $1),
			count(*) FILTER (WHERE embedded_hash = content_hash AND embedding IS NULL)
		FROM search.documents WHERE live GROUP BY kind ORDER BY kind`, model)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []KindHealth
	for rows.Next() {
		var h KindHealth
		if err := rows.Scan(&h.Kind, &h.Live, &h.Current, &h.Missing, &h.Failed, &h.OtherModel, &h.Empty); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// LastFailure is the most recent embedding failure still unresolved.
func (s *Store) LastFailure(ctx context.Context) (msg string, at *time.Time, err error) {
	var t time.Time
	err = s.q(ctx).QueryRowContext(ctx, `SELECT embed_error, embed_failed_at FROM search.documents
		WHERE NOT purged AND embed_error IS NOT NULL AND embedded_hash IS DISTINCT FROM content_hash
		ORDER BY embed_failed_at DESC LIMIT 1`).Scan(&msg, &t)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	return msg, &t, nil
}

// LockRegeneration reads the latest regeneration job (nil if none) under a
// row lock, so two admins asking at once do not start two jobs. Call inside
// a transaction.
func (s *Store) LockRegeneration(ctx context.Context) (*uuid.UUID, error) {
	return s.regenerationJob(ctx, `SELECT regeneration_job FROM search.state FOR UPDATE`)
}

// LatestRegeneration reads the latest regeneration job (nil if none)
// without a lock.
func (s *Store) LatestRegeneration(ctx context.Context) (*uuid.UUID, error) {
	return s.regenerationJob(ctx, `SELECT regeneration_job FROM search.state`)
}

func (s *Store) regenerationJob(ctx context.Context, query string) (*uuid.UUID, error) {
	var id uuid.NullUUID
	if err := s.q(ctx).QueryRowContext(ctx, query).Scan(&id); err != nil || !id.Valid {
		return nil, err
	}
	return &id.UUID, nil
}

// SetRegeneration records a new regeneration job.
func (s *Store) SetRegeneration(ctx context.Context, id uuid.UUID, at time.Time) error {
	_, err := s.q(ctx).ExecContext(ctx,
		`UPDATE search.state SET regeneration_job = $1, regeneration_requested = $2`, id, at)
	return err
}

// VectorDims is the dimension of the embedding column.
func (s *Store) VectorDims(ctx context.Context) (int, error) {
	var n int
	err := s.q(ctx).QueryRowContext(ctx, `SELECT atttypmod FROM pg_attribute
		WHERE attrelid = 'search.documents'::regclass AND attname = 'embedding'`).Scan(&n)
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
		q := s.q(ctx)
		if _, err := q.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, resizeLock); err != nil {
			return err
		}
		cur, err := s.VectorDims(ctx)
		if err != nil || cur == dims {
			return err
		}
		res, err := q.ExecContext(ctx, `UPDATE search.documents SET embedding = NULL, embedding_model = NULL,
			embedded_hash = NULL, embedded_at = NULL WHERE embedding IS NOT NULL`)
		if err != nil {
			return err
		}
		dropped, _ = res.RowsAffected()
		_, err = q.ExecContext(ctx, fmt.Sprintf(`ALTER TABLE search.documents ALTER COLUMN embedding TYPE vector(%d)`, dims))
		return err
	})
	return dropped, err
}
