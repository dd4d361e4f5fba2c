package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/pgvector/pgvector-go"

	"github.com/roundsedu/rounds/modules/search/internal/rank"
	"github.com/roundsedu/rounds/platform/db"
)

// KeywordScan bounds how many matching items the keyword ranker scores.
// Scoring reads every match's tsvector, so a query of common words over a
// large bank would cost tens of milliseconds; past this many matches the
// ranker scores the first KeywordScan found (the vector ranker still brings
// the closest ones). Queries with fewer matches are ranked exactly.
const KeywordScan = 1000

// Keyword ranks live items of kind by full-text match: all the words first
// (websearch syntax: "quoted phrases", -excluded, or); when nothing has
// them all, any of the words. It matches the public text (title and body),
// or with hidden also the answer-side text: only for callers who may read
// it (see rank.Restrict).
func (s *Store) Keyword(ctx context.Context, kind, text string, limit int, hidden bool) ([]rank.Scored, error) {
	scan := max(KeywordScan, limit)
	hits, err := s.scored(ctx, keywordSQL("websearch_to_tsquery", kind, scan, hidden), text, limit)
	if err != nil || len(hits) > 0 {
		return hits, err
	}
	any := anyWords(text)
	if any == "" {
		return nil, nil
	}
	return s.scored(ctx, keywordSQL("to_tsquery", kind, scan, hidden), any, limit)
}

// keywordSQL ranks at most scan matches of the query parsed by parse, over
// the public full-text vector or, with hidden, the one that adds the
// answer-side text.
func keywordSQL(parse, kind string, scan int, hidden bool) string {
	col := "tsv"
	if hidden {
		col = "tsv_all"
	}
	return fmt.Sprintf(`WITH typed AS (SELECT %[1]s('english', ?) AS q)
		SELECT m.id, ts_rank(m.%[4]s, typed.q) AS score
		FROM typed, LATERAL (SELECT id, %[4]s FROM search.documents
			WHERE kind = %[2]s AND live AND %[4]s @@ typed.q LIMIT %[3]d) m
		ORDER BY score DESC, m.id LIMIT ?`, parse, kindSQL(kind), scan, col)
}

// plainWords keeps the letters and digits of text as lower-case words, safe
// to splice into tsquery syntax.
func plainWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// anyWords is the tsquery "w1 | w2 | ...".
func anyWords(text string) string {
	ws := plainWords(text)
	if len(ws) < 2 {
		return "" // one word: the first query already tried it
	}
	return strings.Join(ws, " | ")
}

// VectorQuery tunes one nearest-neighbour search.
type VectorQuery struct {
	Kind   string
	Vector []float32
	Model  string // only vectors of this model are comparable
	Limit  int
	// EfSearch is the HNSW candidate list size (recall against speed).
	EfSearch int
	// MinSimilarity drops hits below this cosine similarity.
	MinSimilarity float64
}

// Vector ranks live items of kind by cosine similarity through the HNSW
// index. The iterative scan keeps reading the graph when the model filter
// or the limit needs more than one candidate list.
func (s *Store) Vector(ctx context.Context, vq VectorQuery) ([]rank.Scored, error) {
	ef := max(vq.EfSearch, vq.Limit)
	ef = min(ef, 1000) // pgvector's ceiling
	var out []rank.Scored
	err := s.db.ReplicaTx(ctx, func(ctx context.Context) error {
		// SET LOCAL both in one round trip.
		if err := s.conn(ctx).Exec(`SELECT set_config('hnsw.ef_search', ?, true),
			set_config('hnsw.iterative_scan', 'relaxed_order', true)`, fmt.Sprint(ef)).Error; err != nil {
			return err
		}
		vec := pgvector.NewVector(vq.Vector)
		var err error
		out, err = s.scored(ctx, fmt.Sprintf(`WITH nn AS MATERIALIZED (
				SELECT id, embedding <=> ?::vector AS dist FROM search.documents
				WHERE kind = %s AND live AND embedding_model = ?
				ORDER BY embedding <=> ?::vector LIMIT ?)
			SELECT id, 1 - dist AS score FROM nn WHERE 1 - dist >= ? ORDER BY dist, id`, kindSQL(vq.Kind)),
			vec, vq.Model, vec, vq.Limit, vq.MinSimilarity)
		return err
	})
	return out, err
}

// ExactVector is Vector without the index (a sequential scan): the ground
// truth the benchmark measures the index's recall against.
func (s *Store) ExactVector(ctx context.Context, vq VectorQuery) ([]rank.Scored, error) {
	var out []rank.Scored
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.conn(ctx).Exec(`SET LOCAL enable_indexscan = off`).Error; err != nil {
			return err
		}
		vec := pgvector.NewVector(vq.Vector)
		var err error
		out, err = s.scored(ctx, fmt.Sprintf(`SELECT id, 1 - (embedding <=> ?::vector) AS score FROM search.documents
			WHERE kind = %s AND live AND embedding_model = ?
			ORDER BY embedding <=> ?::vector, id LIMIT ?`, kindSQL(vq.Kind)),
			vec, vq.Model, vec, vq.Limit)
		return err
	})
	return out, err
}

// scored runs a ranking query whose rows are (id, score); a read replica
// may answer it.
func (s *Store) scored(ctx context.Context, query string, args ...any) ([]rank.Scored, error) {
	var out []rank.Scored
	err := s.db.Replica(ctx).Raw(query, args...).Scan(&out).Error
	return out, err
}

// Text is an item's stored text.
type Text struct {
	ID    int64
	Title string
	Body  string
}

// Texts reads the text of the given items of kind (missing ids are left out).
func (s *Store) Texts(ctx context.Context, kind string, ids []int64) (map[int64]Text, error) {
	out := make(map[int64]Text, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []Text
	if err := s.db.Replica(ctx).Raw(`SELECT id, title, body FROM search.documents
		WHERE kind = ? AND id = ANY(?::bigint[])`, kind, db.IDArray(ids)).Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, t := range rows {
		out[t.ID] = t
	}
	return out, nil
}

// Suggestion is one typeahead match.
type Suggestion struct {
	Kind  string
	ID    int64
	Title string
}

// suggestScan bounds how many matches of a short prefix are ranked: typeahead
// must stay fast when "a" matches half the bank.
const suggestScan = 500

// Suggest finds live items of the kinds whose public words (title and
// body, never the hidden text) start with what was typed: every word but
// the last whole, the last as a prefix. Ranked by text match, shorter
// titles first on ties; never reranked.
func (s *Store) Suggest(ctx context.Context, kinds []string, typed string, limit int) ([]Suggestion, error) {
	ws := plainWords(typed)
	if len(ws) == 0 || len(kinds) == 0 {
		return nil, nil
	}
	head := strings.Join(ws[:len(ws)-1], " & ")
	last := ws[len(ws)-1]
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf(`(SELECT kind, id, title, tsv FROM search.documents
			WHERE kind = %s AND live AND tsv @@ (SELECT q FROM typed) LIMIT %d)`, kindSQL(k), suggestScan)
	}
	query := `WITH typed AS (SELECT
			CASE WHEN ? = '' THEN ''::tsquery ELSE to_tsquery('english', ?) END &&
			(to_tsquery('simple', ? || ':*') || to_tsquery('english', ? || ':*')) AS q)
		SELECT kind, id, title FROM (` + strings.Join(parts, " UNION ALL ") + `) m
		ORDER BY ts_rank(tsv, (SELECT q FROM typed)) DESC, length(title), id LIMIT ?`
	var out []Suggestion
	err := s.db.Replica(ctx).Raw(query, head, head, last, last, limit).Scan(&out).Error
	return out, err
}
