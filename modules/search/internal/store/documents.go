package store

import (
	"context"
	"encoding/json"
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

// Apply writes the item's text unless the index already holds this or a
// later version, or the item was purged, and reports whether the item now
// needs a vector (its embedded text is new or changed). The stored vector
// is kept until its replacement lands, so the item stays findable; a
// changed text also clears the last embedding failure, so it gets a fresh
// attempt.
func (s *Store) Apply(ctx context.Context, d Document) (needsVector bool, err error) {
	var rows []bool
	err = s.conn(ctx).Raw(`INSERT INTO search.documents AS t (kind, id, version, live, title, body, hidden, content_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, id) DO UPDATE SET version = EXCLUDED.version, live = EXCLUDED.live,
			title = EXCLUDED.title, body = EXCLUDED.body, hidden = EXCLUDED.hidden,
			content_hash = EXCLUDED.content_hash, updated_at = now(),
			embed_error = CASE WHEN t.content_hash = EXCLUDED.content_hash THEN t.embed_error END,
			embed_failures = CASE WHEN t.content_hash = EXCLUDED.content_hash THEN t.embed_failures ELSE 0 END,
			embed_failed_at = CASE WHEN t.content_hash = EXCLUDED.content_hash THEN t.embed_failed_at END
		WHERE NOT t.purged AND t.version < EXCLUDED.version
		RETURNING embedded_hash IS DISTINCT FROM content_hash`,
		d.Kind, d.ID, d.Version, d.Live, d.Title, d.Body, d.Hidden, d.ContentHash).Scan(&rows).Error
	return len(rows) == 1 && rows[0], err
}

// Purge turns the item into a tombstone: no text, no vector, and no later
// event brings it back (ids are never reissued).
func (s *Store) Purge(ctx context.Context, kind string, id int64) error {
	return s.conn(ctx).Exec(`INSERT INTO search.documents AS t (kind, id, live, purged)
		VALUES (?, ?, false, true)
		ON CONFLICT (kind, id) DO UPDATE SET live = false, purged = true, title = '', body = '', hidden = '',
			content_hash = '', embedding = NULL, embedding_model = NULL, embedded_hash = NULL,
			embed_error = NULL, updated_at = now()`, kind, id).Error
}

// Pending is an item whose text needs a vector.
type Pending struct {
	Key
	Title       string // the embedded text
	ContentHash string
}

// Missing lists items after `after` (in key order) whose vector is missing
// or older than their text; with untried, only those no attempt has failed
// for yet (failures are the scheduled retry's).
func (s *Store) Missing(ctx context.Context, after Key, limit int, untried bool) ([]Pending, error) {
	return s.pending(ctx, `SELECT kind, id, title, content_hash FROM search.documents
		WHERE NOT purged AND embedded_hash IS DISTINCT FROM content_hash AND (kind, id) > (?, ?)
		  AND (NOT ? OR embed_error IS NULL)
		ORDER BY kind, id LIMIT ?`, after.Kind, after.ID, untried, limit)
}

// NotEmbeddedSince lists items after `after` whose vector was not made by
// model at or after since: the regeneration's work list.
func (s *Store) NotEmbeddedSince(ctx context.Context, after Key, model string, since time.Time, limit int) ([]Pending, error) {
	return s.pending(ctx, `SELECT kind, id, title, content_hash FROM search.documents
		WHERE NOT purged AND (kind, id) > (?, ?)
		  AND (embedded_at IS NULL OR embedded_at < ? OR embedding_model IS DISTINCT FROM ?
		       OR embedded_hash IS DISTINCT FROM content_hash)
		ORDER BY kind, id LIMIT ?`, after.Kind, after.ID, since, model, limit)
}

// CountIndexed counts the items that can hold a vector.
func (s *Store) CountIndexed(ctx context.Context) (int, error) {
	var n int
	err := s.conn(ctx).Raw(`SELECT count(*) FROM search.documents WHERE NOT purged`).Scan(&n).Error
	return n, err
}

func (s *Store) pending(ctx context.Context, query string, args ...any) ([]Pending, error) {
	var out []Pending
	err := s.conn(ctx).Raw(query, args...).Scan(&out).Error
	return out, err
}

// SaveEmbeddings stores vectors for items whose text is still the one that
// was embedded (an edit in between wins; its own embedding follows). A nil
// vector marks text with nothing to embed. One statement for the batch, its
// rows passed as one JSON array.
func (s *Store) SaveEmbeddings(ctx context.Context, items []Pending, vecs [][]float32, model string) error {
	if len(items) == 0 {
		return nil
	}
	type row struct {
		Kind      string  `json:"kind"`
		ID        int64   `json:"id"`
		Hash      string  `json:"hash"`
		Embedding *string `json:"embedding"`
	}
	rows := make([]row, len(items))
	for i, it := range items {
		rows[i] = row{Kind: it.Kind, ID: it.ID, Hash: it.ContentHash}
		if vecs[i] != nil {
			v := pgvector.NewVector(vecs[i]).String()
			rows[i].Embedding = &v
		}
	}
	batch, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	return s.conn(ctx).Exec(`UPDATE search.documents AS t
		SET embedding = v.embedding::vector, embedding_model = ?, embedded_hash = v.hash, embedded_at = now(),
			embed_error = NULL, embed_failures = 0, embed_failed_at = NULL
		FROM `+lockedBatch("kind text, id bigint, hash text, embedding text")+`
		WHERE t.kind = v.kind AND t.id = v.id AND t.content_hash = v.hash AND NOT t.purged`,
		model, string(batch)).Error
}

// RecordFailures notes an embedding failure on items.
func (s *Store) RecordFailures(ctx context.Context, items []Pending, msg string) error {
	if len(items) == 0 {
		return nil
	}
	keys, err := json.Marshal(keysOf(items))
	if err != nil {
		return err
	}
	return s.conn(ctx).Exec(`UPDATE search.documents AS t
		SET embed_error = ?, embed_failures = embed_failures + 1, embed_failed_at = now()
		FROM `+lockedBatch("kind text, id bigint")+`
		WHERE t.kind = v.kind AND t.id = v.id`, msg, string(keys)).Error
}

// lockedBatch is the rows a batch write names (a JSON array of records
// with cols, the statement's second parameter), locked in key order. Every
// write of several documents locks them in that one order, so two writers
// whose batches overlap (two embed_pending jobs side by side, the retry
// job) wait for each other instead of deadlocking: an UPDATE ... FROM the
// records alone locks in its plan's order, which for a hash join is where
// the rows lie in the table, and rows move as they are rewritten.
func lockedBatch(cols string) string {
	return `(SELECT v.* FROM search.documents d
		JOIN jsonb_to_recordset(?::jsonb) AS v(` + cols + `) ON d.kind = v.kind AND d.id = v.id
		ORDER BY d.kind, d.id FOR UPDATE OF d) AS v`
}

// keysOf lists the items' keys as JSON records {kind, id}.
func keysOf(items []Pending) []map[string]any {
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = map[string]any{"kind": it.Kind, "id": it.ID}
	}
	return out
}
