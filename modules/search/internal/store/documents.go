package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/pgvector/pgvector-go"
)

// Document is what a source module tells the index about one item.
type Document struct {
	Kind    string
	ID      int64
	Version int64
	Live    bool
	Title   string
	Body    string
	Hidden  string // answer-side text: matched only for callers who may read it
	// ContentHash identifies the embedded text (title and body).
	ContentHash string
}

// State is what the index holds for an item, enough to decide whether an
// event is stale and whether its text needs a new vector.
type State struct {
	Version      int64
	Purged       bool
	EmbeddedHash string
	Model        string
}

// Current reads an item's state; nil when the index has never seen it.
func (s *Store) Current(ctx context.Context, kind string, id int64) (*State, error) {
	var st State
	var embedded, model sql.NullString
	err := s.q(ctx).QueryRowContext(ctx, `SELECT version, purged, embedded_hash, embedding_model
		FROM search.documents WHERE kind = $1 AND id = $2`, kind, id).
		Scan(&st.Version, &st.Purged, &embedded, &model)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st.EmbeddedHash, st.Model = embedded.String, model.String
	return &st, nil
}

// Embedding is the outcome of embedding one item's text.
type Embedding struct {
	// Vector is nil when the text had nothing to embed.
	Vector []float32
	Model  string
	// Err is the failure when embedding failed (Vector and Model unused).
	Err string
}

func vectorArg(v []float32) any {
	if v == nil {
		return nil
	}
	return pgvector.NewVector(v)
}

// Apply writes the item unless the index already holds this or a later
// version, or the item was purged. A nil emb leaves the stored vector as it
// is (the embedded text did not change).
func (s *Store) Apply(ctx context.Context, d Document, emb *Embedding) error {
	const upsert = `INSERT INTO search.documents AS t (kind, id, version, live, title, body, hidden, content_hash,
			embedding, embedding_model, embedded_hash, embedded_at, embed_error, embed_failures, embed_failed_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::vector, $10, $11, $12, $13, $14, $15, now())
		ON CONFLICT (kind, id) DO UPDATE SET version = EXCLUDED.version, live = EXCLUDED.live,
			title = EXCLUDED.title, body = EXCLUDED.body, hidden = EXCLUDED.hidden,
			content_hash = EXCLUDED.content_hash, updated_at = now()`
	const guard = ` WHERE NOT t.purged AND t.version < EXCLUDED.version`
	var (
		query = upsert + guard
		args  []any
	)
	base := []any{d.Kind, d.ID, d.Version, d.Live, d.Title, d.Body, d.Hidden, d.ContentHash}
	now := time.Now().UTC()
	switch {
	case emb == nil:
		args = append(base, nil, nil, nil, nil, nil, 0, nil)
	case emb.Err != "":
		// Keep the old vector (the item stays findable by its previous
		// text) and record the failure for the retry job.
		query = upsert + `, embed_error = EXCLUDED.embed_error, embed_failures = t.embed_failures + 1,
			embed_failed_at = EXCLUDED.embed_failed_at` + guard
		args = append(base, nil, nil, nil, nil, emb.Err, 1, now)
	default:
		query = upsert + `, embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,
			embedded_hash = EXCLUDED.embedded_hash, embedded_at = EXCLUDED.embedded_at,
			embed_error = NULL, embed_failures = 0, embed_failed_at = NULL` + guard
		args = append(base, vectorArg(emb.Vector), emb.Model, d.ContentHash, now, nil, 0, nil)
	}
	_, err := s.q(ctx).ExecContext(ctx, query, args...)
	return err
}

// Purge turns the item into a tombstone: no text, no vector, and no later
// event brings it back (ids are never reissued).
func (s *Store) Purge(ctx context.Context, kind string, id int64) error {
	_, err := s.q(ctx).ExecContext(ctx, `INSERT INTO search.documents AS t (kind, id, live, purged)
		VALUES ($1, $2, false, true)
		ON CONFLICT (kind, id) DO UPDATE SET live = false, purged = true, title = '', body = '', hidden = '',
			content_hash = '', embedding = NULL, embedding_model = NULL, embedded_hash = NULL,
			embed_error = NULL, updated_at = now()`, kind, id)
	return err
}

// Pending is an item whose text needs a vector.
type Pending struct {
	Key
	Title       string // the embedded text
	ContentHash string
}

// Missing lists items after `after` (in key order) whose vector is missing
// or older than their text.
func (s *Store) Missing(ctx context.Context, after Key, limit int) ([]Pending, error) {
	return s.pending(ctx, `SELECT kind, id, title, content_hash FROM search.documents
		WHERE NOT purged AND embedded_hash IS DISTINCT FROM content_hash AND (kind, id) > ($1, $2)
		ORDER BY kind, id LIMIT $3`, after.Kind, after.ID, limit)
}

// NotEmbeddedSince lists items after `after` whose vector was not made by
// model at or after since: the regeneration's work list.
func (s *Store) NotEmbeddedSince(ctx context.Context, after Key, model string, since time.Time, limit int) ([]Pending, error) {
	return s.pending(ctx, `SELECT kind, id, title, content_hash FROM search.documents
		WHERE NOT purged AND (kind, id) > ($1, $2)
		  AND (embedded_at IS NULL OR embedded_at < $3 OR embedding_model IS DISTINCT FROM $4
		       OR embedded_hash IS DISTINCT FROM content_hash)
		ORDER BY kind, id LIMIT $5`, after.Kind, after.ID, since, model, limit)
}

// CountIndexed counts the items that can hold a vector.
func (s *Store) CountIndexed(ctx context.Context) (int, error) {
	var n int
	err := s.q(ctx).QueryRowContext(ctx, `SELECT count(*) FROM search.documents WHERE NOT purged`).Scan(&n)
	return n, err
}

func (s *Store) pending(ctx context.Context, query string, args ...any) ([]Pending, error) {
	rows, err := s.q(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		if err := rows.Scan(&p.Kind, &p.ID, &p.Title, &p.ContentHash); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SaveEmbeddings stores vectors for items whose text is still the one that
// was embedded (an edit in between wins; its own embedding follows). A nil
// vector marks text with nothing to embed. One statement for the batch.
func (s *Store) SaveEmbeddings(ctx context.Context, items []Pending, vecs [][]float32, model string) error {
	if len(items) == 0 {
		return nil
	}
	kinds := make([]string, len(items))
	ids := make([]int64, len(items))
	hashes := make([]string, len(items))
	vectors := make([]*string, len(items))
	for i, it := range items {
		kinds[i], ids[i], hashes[i] = it.Kind, it.ID, it.ContentHash
		if vecs[i] != nil {
			v := pgvector.NewVector(vecs[i]).String()
			vectors[i] = &v
		}
	}
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE search.documents AS t
		SET embedding = v.embedding::vector, embedding_model = $5, embedded_hash = v.hash, embedded_at = now(),
			embed_error = NULL, embed_failures = 0, embed_failed_at = NULL
		FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS v(kind, id, hash, embedding)
		WHERE t.kind = v.kind AND t.id = v.id AND t.content_hash = v.hash AND NOT t.purged`,
		kinds, ids, hashes, vectors, model)
	return err
}

// RecordFailures notes an embedding failure on items.
func (s *Store) RecordFailures(ctx context.Context, items []Pending, msg string) error {
	if len(items) == 0 {
		return nil
	}
	kinds := make([]string, len(items))
	ids := make([]int64, len(items))
	for i, it := range items {
		kinds[i], ids[i] = it.Kind, it.ID
	}
	_, err := s.q(ctx).ExecContext(ctx, `UPDATE search.documents AS t
		SET embed_error = $3, embed_failures = embed_failures + 1, embed_failed_at = now()
		FROM unnest($1::text[], $2::bigint[]) AS v(kind, id)
		WHERE t.kind = v.kind AND t.id = v.id`, kinds, ids, msg)
	return err
}
