package store

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/platform/db"
)

// Text match modes of the bank listing.
const (
	MatchNone     = ""         // no text: newest first
	MatchKeyword  = "keyword"  // full text, best rank first
	MatchSemantic = "semantic" // only SemanticIDs, in their order
	MatchHybrid   = "hybrid"   // SemanticIDs first in their order, then keyword matches by rank
)

// BankQuery is one bank listing request, already resolved by the service:
// categories expanded to their branches, system tags turned into the
// categories that carry them, the caller's reach worked out.
type BankQuery struct {
	// Restricted limits rows to the caller's reach: questions filed under
	// ReachCategories, or among ReachIDs (favourites and the questions of
	// quiz grants, listed beforehand).
	Restricted      bool
	ReachCategories []int64
	ReachIDs        []int64

	// EditAll, EditCategories and EditQuizzes say which rows the caller may
	// edit (the answer side is shown for those only).
	EditAll        bool
	EditCategories []int64
	EditQuizzes    []int64

	UserID        int64
	QuizID        *int64
	Categories    []int64 // OR; with Uncategorized also matches unfiled questions
	HasCategories bool
	Uncategorized bool
	FavoritesOnly bool
	Type          string    // canonical question type; "" for every type
	Difficulties  []string  // OR: rated any of these levels
	DirectTags    []int64   // AND over bank.question_tags
	SystemTags    [][]int64 // AND: each entry is the categories carrying one system tag
	Never         bool      // a filter no question can satisfy (a retired or unknown tag)

	Match       string
	Text        string
	SemanticIDs []int64 // ranked best first

	// ShowAllQuizzes names unpublished quizzes in quiz_id/quiz_title too.
	ShowAllQuizzes bool
}

// BankRow is one listed question.
type BankRow struct {
	ID                   int64
	QuestionText         string
	QuestionType         string
	Options              Strings
	CorrectAnswer        string
	Explanation          string
	ImagePath            string
	Difficulty           *string
	QuestionCategoryID   *int64
	QuestionCategoryName *string
	QuizID               *int64
	QuizTitle            *string
	CanEdit              bool
	Total                int64 // every match, when the page counted them
}

// tsQuery is the parsed, accent-folded search text.
const tsQuery = `websearch_to_tsquery('pg_catalog.english', bank.fold(?))`

type where struct {
	parts []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.parts = append(w.parts, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string { return strings.Join(w.parts, "\n  AND ") }

// source is the FROM of the listing. For a restricted caller it is the
// reach as two disjoint parts, the branch's categories and the listed ids
// filed elsewhere: the planner pushes every filter into each part, so each
// is answered from its own index (an OR of the two would scan everything).
func (q *BankQuery) source() (string, []any) {
	if !q.Restricted {
		return `bank.questions q`, nil
	}
	var parts []string
	var args []any
	if len(q.ReachCategories) > 0 {
		parts = append(parts, `SELECT * FROM bank.questions WHERE question_category_id = ANY(?::bigint[])`)
		args = append(args, db.IDArray(q.ReachCategories))
	}
	if len(q.ReachIDs) > 0 {
		part := `SELECT * FROM bank.questions WHERE id = ANY(?::bigint[])`
		args = append(args, db.IDArray(q.ReachIDs))
		if len(q.ReachCategories) > 0 {
			part += ` AND (question_category_id IS NULL OR NOT question_category_id = ANY(?::bigint[]))`
			args = append(args, db.IDArray(q.ReachCategories))
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		parts = append(parts, `SELECT * FROM bank.questions WHERE false`)
	}
	return `(` + strings.Join(parts, "\n  UNION ALL ") + `) q`, args
}

// filters renders the WHERE clause shared by the page, the count and the ids.
func (q *BankQuery) filters() *where {
	w := &where{}
	w.add(`q.deleted_at IS NULL`)
	if q.Never {
		w.add(`false`)
	}
	if q.QuizID != nil {
		w.add(`q.id IN (SELECT qq.question_id FROM bank.quiz_questions qq
			JOIN bank.quizzes z ON z.id = qq.quiz_id AND z.deleted_at IS NULL WHERE qq.quiz_id = ?)`, *q.QuizID)
	}
	switch {
	case q.HasCategories && q.Uncategorized:
		w.add(`(q.question_category_id = ANY(?::bigint[]) OR q.question_category_id IS NULL)`, db.IDArray(q.Categories))
	case q.HasCategories:
		w.add(`q.question_category_id = ANY(?::bigint[])`, db.IDArray(q.Categories))
	case q.Uncategorized:
		w.add(`q.question_category_id IS NULL`)
	}
	if q.Type != "" {
		w.add(`q.question_type = ?`, q.Type)
	}
	if len(q.Difficulties) > 0 {
		w.add(`q.difficulty IN ?`, q.Difficulties)
	}
	if q.FavoritesOnly {
		w.add(`EXISTS (SELECT 1 FROM bank.favorites f WHERE f.user_id = ? AND f.question_id = q.id)`, q.UserID)
	}
	// One semi-join per tag: the planner drives from whichever filter is
	// narrowest (a hash of the tag's index, or a primary-key probe per row).
	for _, tag := range q.DirectTags {
		w.add(`EXISTS (SELECT 1 FROM bank.question_tags qt WHERE qt.question_id = q.id AND qt.tag_id = ?)`, tag)
	}
	for _, cats := range q.SystemTags {
		w.add(`q.question_category_id = ANY(?::bigint[])`, db.IDArray(cats))
	}
	switch q.Match {
	case MatchKeyword:
		w.add(`q.search_document @@ `+tsQuery, q.Text)
	case MatchSemantic:
		w.add(`q.id = ANY(?::bigint[])`, db.IDArray(q.SemanticIDs))
	case MatchHybrid:
		w.add(`(q.id = ANY(?::bigint[]) OR q.search_document @@ `+tsQuery+`)`, db.IDArray(q.SemanticIDs), q.Text)
	}
	return w
}

// ordering returns the ranking columns the page selects, their arguments,
// and the ORDER BY over those columns (aliased on p in the outer query).
func (q *BankQuery) ordering() (cols string, args []any, order string) {
	switch q.Match {
	case MatchKeyword:
		return `, ts_rank(q.search_document, ` + tsQuery + `) AS rank`, []any{q.Text}, `%[1]s.rank DESC, %[1]s.id DESC`
	case MatchSemantic:
		return `, array_position(?::bigint[], q.id) AS pos`, []any{db.IDArray(q.SemanticIDs)}, `%[1]s.pos`
	case MatchHybrid:
		return `, array_position(?::bigint[], q.id) AS pos, ts_rank(q.search_document, ` + tsQuery + `) AS rank`,
			[]any{db.IDArray(q.SemanticIDs), q.Text}, `%[1]s.pos NULLS LAST, %[1]s.rank DESC, %[1]s.id DESC`
	}
	return ``, nil, `%[1]s.id DESC`
}

// BankPage returns one page of the listing and the total matching. With
// text, every match is ranked anyway, so one pass ranks, counts (a window
// over the matches) and picks the page. Without text the count is its own
// query, answered from indexes, and the page walks the id index. A read
// replica may answer it.
func (s *Store) BankPage(ctx context.Context, q *BankQuery, limit, offset int) (rows []BankRow, total int64, err error) {
	err = s.db.ReplicaTx(ctx, func(ctx context.Context) error {
		if err := s.customPlans(ctx); err != nil {
			return err
		}
		rows, total, err = s.bankPage(ctx, q, limit, offset)
		return err
	})
	return rows, total, err
}

// customPlans makes the rest of the transaction plan each statement for
// its actual values. A cached generic plan cannot know how many questions
// a category list, a tag or a search text matches, and picks badly.
func (s *Store) customPlans(ctx context.Context) error {
	return s.db.Conn(ctx).Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error
}

func (s *Store) bankPage(ctx context.Context, q *BankQuery, limit, offset int) ([]BankRow, int64, error) {
	conn := s.db.Conn(ctx)
	var total int64
	if q.Match == MatchNone {
		countSQL, countArgs := q.CountSQL()
		if err := conn.Raw(countSQL, countArgs...).Scan(&total).Error; err != nil {
			return nil, 0, err
		}
		if total == 0 || offset >= int(total) {
			return nil, total, nil
		}
	}
	var rows []BankRow
	pageSQL, pageArgs := q.PageSQL(limit, offset)
	if err := conn.Raw(pageSQL, pageArgs...).Scan(&rows).Error; err != nil {
		return nil, 0, err
	}
	if q.Match == MatchNone {
		return rows, total, nil
	}
	if len(rows) > 0 {
		return rows, rows[0].Total, nil
	}
	if offset == 0 {
		return rows, 0, nil
	}
	// Past the last page: the window had no row to report the total on.
	countSQL, countArgs := q.CountSQL()
	err := conn.Raw(countSQL, countArgs...).Scan(&total).Error
	return rows, total, err
}

// CountSQL renders the count query (exposed for EXPLAIN in benchmarks).
func (q *BankQuery) CountSQL() (string, []any) {
	w := q.filters()
	from, args := q.source()
	return `SELECT count(*) FROM ` + from + ` WHERE ` + w.sql(), append(args, w.args...)
}

// PageSQL renders the page query: the page of ids is chosen first (with
// text, counting every match on the way), then only those rows are joined
// to their category and first visible quiz and marked editable (exposed
// for EXPLAIN in benchmarks).
func (q *BankQuery) PageSQL(limit, offset int) (string, []any) {
	w := q.filters()
	cols, rankArgs, order := q.ordering()
	editQuizzes := `EXISTS (SELECT 1 FROM bank.quiz_questions eq JOIN bank.quizzes ez ON ez.id = eq.quiz_id
		AND ez.deleted_at IS NULL WHERE eq.question_id = q.id AND eq.quiz_id = ANY(?::bigint[]))`
	quizVisible := `z.is_published`
	if q.ShowAllQuizzes {
		quizVisible = `true`
	}
	total := `0::bigint`
	if q.Match != MatchNone {
		total = `count(*) OVER ()`
	}
	from, fromArgs := q.source()
	sql := `WITH p AS (
  SELECT q.id` + cols + `, ` + total + ` AS total
  FROM ` + from + `
  WHERE ` + w.sql() + `
  ORDER BY ` + orderBy(order, "") + `
  LIMIT ? OFFSET ?)
SELECT p.total, q.id, q.question_text, q.question_type, q.options, q.correct_answer, q.explanation, q.image_path,
  q.difficulty,
  q.question_category_id, c.name AS question_category_name, fq.quiz_id, fq.quiz_title,
  (? OR q.question_category_id = ANY(?::bigint[]) OR ` + editQuizzes + `) AS can_edit
FROM p
JOIN bank.questions q ON q.id = p.id
LEFT JOIN bank.question_categories c ON c.id = q.question_category_id
LEFT JOIN LATERAL (
  SELECT z.id AS quiz_id, z.title AS quiz_title FROM bank.quiz_questions qq
  JOIN bank.quizzes z ON z.id = qq.quiz_id AND z.deleted_at IS NULL
  WHERE qq.question_id = q.id AND (` + quizVisible + ` OR z.id = ANY(?::bigint[]))
  ORDER BY z.id LIMIT 1) fq ON true
ORDER BY ` + orderBy(order, "p")
	args := append([]any{}, rankArgs...)
	args = append(args, fromArgs...)
	args = append(args, w.args...)
	args = append(args, limit, offset, q.EditAll, db.IDArray(q.EditCategories), db.IDArray(q.EditQuizzes),
		db.IDArray(q.EditQuizzes))
	return sql, args
}

// ReachExtras lists the questions a user reaches besides their category
// grants: their favourites and the questions of the live quizzes they hold
// grants on.
func (s *Store) ReachExtras(ctx context.Context, userID int64, quizzes []int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT question_id FROM bank.favorites WHERE user_id = ?
		UNION SELECT qq.question_id FROM bank.quiz_questions qq
		JOIN bank.quizzes z ON z.id = qq.quiz_id AND z.deleted_at IS NULL
		WHERE qq.quiz_id = ANY(?::bigint[])`, userID, db.IDArray(quizzes)).Scan(&ids).Error
	return ids, err
}

// BankIDs returns every matching id, newest first.
func (s *Store) BankIDs(ctx context.Context, q *BankQuery) (ids []int64, err error) {
	w := q.filters()
	from, args := q.source()
	ids = []int64{}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.customPlans(ctx); err != nil {
			return err
		}
		return s.db.Conn(ctx).Raw(`SELECT q.id FROM `+from+` WHERE `+w.sql()+` ORDER BY q.id DESC`,
			append(args, w.args...)...).Scan(&ids).Error
	})
	return ids, err
}

// orderBy renders an ordering over the page's columns: unqualified inside
// the page, qualified with alias outside it.
func orderBy(order, alias string) string {
	if alias == "" {
		return strings.ReplaceAll(order, "%[1]s.", "")
	}
	return strings.ReplaceAll(order, "%[1]s", alias)
}
