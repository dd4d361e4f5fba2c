package store

import (
	"context"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// quizSelect reads quizzes with their live question count (kept by the
// bank.quiz_contents triggers) and category name.
const quizSelect = `SELECT z.id, z.section_id, z.user_id, z.title, z.mode, z.time_limit_minutes, z.is_published,
	z.category_id, z.created_at, z.updated_at, z.deleted_at, c.name AS category_name, k.questions_count
FROM bank.quizzes z JOIN bank.quiz_contents k ON k.quiz_id = z.id
LEFT JOIN bank.quiz_categories c ON c.id = z.category_id`

// InsertQuiz stores z, filling its id and times.
func (s *Store) InsertQuiz(ctx context.Context, z *Quiz) error {
	return s.row(ctx, `INSERT INTO bank.quizzes (section_id, user_id, title, mode, time_limit_minutes,
		is_published, category_id) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id, created_at, updated_at`,
		z.SectionID, z.UserID, z.Title, z.Mode, z.TimeLimitMinutes, z.IsPublished, z.CategoryID).
		Scan(&z.ID, &z.CreatedAt, &z.UpdatedAt)
}

// LinkQuestions appends questions to a quiz in the given order.
func (s *Store) LinkQuestions(ctx context.Context, quizID int64, questionIDs []int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO bank.quiz_questions (quiz_id, question_id, position)
		SELECT ?, u.id, (SELECT coalesce(max(position), 0) FROM bank.quiz_questions WHERE quiz_id = ?) + u.ord
		FROM unnest(?::bigint[]) WITH ORDINALITY AS u(id, ord)
		ON CONFLICT DO NOTHING`, quizID, quizID, db.IDArray(questionIDs)).Error
}

// Quiz loads one quiz, trashed or not; with lock it takes the row lock.
// db.IsNotFound on a miss.
func (s *Store) Quiz(ctx context.Context, id int64, lock bool) (*QuizSummary, error) {
	sql := quizSelect + ` WHERE z.id = ?`
	if lock {
		sql += ` FOR UPDATE OF z`
	}
	var rows []QuizSummary
	if err := s.db.Conn(ctx).Raw(sql, id).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, gorm.ErrRecordNotFound
	}
	return &rows[0], nil
}

// QuizVersioned is a quiz with what opening it needs: the version of what
// its read shows of its questions (bank.quiz_contents: its triggers move
// it on every write that can change that list or its count) and, for a
// learner's saved test, whose it is.
type QuizVersioned struct {
	QuizSummary
	Version int64
	SavedBy *int64 // the learner whose saved test it is; nil for other quizzes
}

// QuizWithVersion loads a quiz (trashed or not) with its content version,
// live question count and saved-test owner in one query that reads no
// question; db.ErrNotFound on a miss. Explicit scan targets: this is every
// quiz read's first query.
func (s *Store) QuizWithVersion(ctx context.Context, id int64) (*QuizVersioned, error) {
	var z QuizVersioned
	err := s.row(ctx, `SELECT z.id, z.section_id, z.user_id, z.title, z.mode, z.time_limit_minutes, z.is_published,
		z.category_id, z.created_at, z.updated_at, z.deleted_at, c.name, k.questions_count, k.version,
		(SELECT st.user_id FROM bank.saved_tests st WHERE st.quiz_id = z.id)
	FROM bank.quizzes z JOIN bank.quiz_contents k ON k.quiz_id = z.id
	LEFT JOIN bank.quiz_categories c ON c.id = z.category_id
	WHERE z.id = ?`, id).Scan(&z.ID, &z.SectionID, &z.UserID, &z.Title, &z.Mode, &z.TimeLimitMinutes,
		&z.IsPublished, &z.CategoryID, &z.CreatedAt, &z.UpdatedAt, &z.DeletedAt, &z.CategoryName, &z.QuestionsCount,
		&z.Version, &z.SavedBy)
	if err != nil {
		return nil, err
	}
	return &z, nil
}

// QuizFilter selects quizzes for a listing.
type QuizFilter struct {
	Trashed       bool // the trash instead of live quizzes
	PublishedOnly bool
	Limit, Offset int
}

// Quizzes lists quizzes, newest first (the trash: most recently trashed first).
func (s *Store) Quizzes(ctx context.Context, f QuizFilter) ([]QuizSummary, error) {
	sql := quizSelect + ` WHERE z.deleted_at IS NULL`
	order := ` ORDER BY z.id DESC`
	if f.Trashed {
		sql = quizSelect + ` WHERE z.deleted_at IS NOT NULL`
		order = ` ORDER BY z.deleted_at DESC, z.id DESC`
	}
	sql += ` AND NOT EXISTS (SELECT 1 FROM bank.saved_tests st WHERE st.quiz_id = z.id)`
	if f.PublishedOnly {
		sql += ` AND z.is_published`
	}
	var rows []QuizSummary
	err := s.db.Conn(ctx).Raw(sql+order+` LIMIT ? OFFSET ?`, f.Limit, f.Offset).Scan(&rows).Error
	return rows, err
}

// CountQuizzes counts live quizzes (published ones only when asked), not
// learners' saved tests.
func (s *Store) CountQuizzes(ctx context.Context, publishedOnly bool) (int, error) {
	var n int
	sql := `SELECT count(*) FROM bank.quizzes z WHERE deleted_at IS NULL
		AND NOT EXISTS (SELECT 1 FROM bank.saved_tests st WHERE st.quiz_id = z.id)`
	if publishedOnly {
		sql += ` AND is_published`
	}
	err := s.db.Conn(ctx).Raw(sql).Scan(&n).Error
	return n, err
}

// QuizQuestions lists the live questions of a quiz in order, with the
// quiz's content version read by the same statement (one snapshot), so
// the list is exactly what that version shows; 0 when there are none.
func (s *Store) QuizQuestions(ctx context.Context, quizID int64) ([]QuestionWithFiling, int64, error) {
	var rows []struct {
		QuestionWithFiling
		ContentVersion int64
	}
	err := s.db.Conn(ctx).Raw(`SELECT `+filedCols+`,
		  (SELECT k.version FROM bank.quiz_contents k WHERE k.quiz_id = ?) AS content_version
		FROM bank.quiz_questions qq JOIN bank.questions q ON q.id = qq.question_id AND q.deleted_at IS NULL
		LEFT JOIN bank.question_categories c ON c.id = q.question_category_id
		WHERE qq.quiz_id = ? ORDER BY qq.position, q.id`, quizID, quizID).Scan(&rows).Error
	out := make([]QuestionWithFiling, len(rows))
	var version int64
	for i := range rows {
		out[i], version = rows[i].QuestionWithFiling, rows[i].ContentVersion
	}
	return out, version, err
}

// Linked reports whether a question is linked to a quiz.
func (s *Store) Linked(ctx context.Context, quizID, questionID int64) (bool, error) {
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM bank.quiz_questions WHERE quiz_id = ? AND question_id = ?)`,
		quizID, questionID).Scan(&ok).Error
	return ok, err
}

// OtherLinks counts the quizzes other than quizID (trashed ones included:
// they can come back) that link the question.
func (s *Store) OtherLinks(ctx context.Context, quizID, questionID int64) (int, error) {
	var n int
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM bank.quiz_questions WHERE question_id = ? AND quiz_id <> ?`,
		questionID, quizID).Scan(&n).Error
	return n, err
}

// Unlink removes a question from a quiz.
func (s *Store) Unlink(ctx context.Context, quizID, questionID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.quiz_questions WHERE quiz_id = ? AND question_id = ?`,
		quizID, questionID).Error
}

// SetQuizTitle renames a quiz.
func (s *Store) SetQuizTitle(ctx context.Context, id int64, title string) error {
	return s.db.Conn(ctx).Exec(`UPDATE bank.quizzes SET title = ?, updated_at = now() WHERE id = ?`, title, id).Error
}

// SetQuizPublished publishes or unpublishes a quiz.
func (s *Store) SetQuizPublished(ctx context.Context, id int64, published bool) error {
	return s.db.Conn(ctx).Exec(`UPDATE bank.quizzes SET is_published = ?, updated_at = now() WHERE id = ?`,
		published, id).Error
}

// SetQuizDeleted trashes (at the database's now) or restores a quiz.
func (s *Store) SetQuizDeleted(ctx context.Context, id int64, trashed bool) error {
	return s.db.Conn(ctx).Exec(`UPDATE bank.quizzes SET deleted_at = CASE WHEN ? THEN now() END, updated_at = now()
		WHERE id = ?`, trashed, id).Error
}

// SetQuizCategory files a quiz under a quiz category (nil = none).
func (s *Store) SetQuizCategory(ctx context.Context, id int64, category *int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE bank.quizzes SET category_id = ?, updated_at = now() WHERE id = ?`,
		category, id).Error
}

// PurgeQuiz removes a quiz for good; its links go with it, its questions
// stay in the bank.
func (s *Store) PurgeQuiz(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.quizzes WHERE id = ?`, id).Error
}

// QuizMatch is one quiz found by a quiz search.
type QuizMatch struct {
	QuizSummary
	TitleMatch bool
	// MatchingIDs and MatchingTexts are the matching live questions, best
	// first (parallel arrays).
	MatchingIDs   Int64s
	MatchingTexts Strings
}

// QuizSearch is a quiz search request.
type QuizSearch struct {
	Text          string
	Titles        bool
	Questions     bool
	SemanticIDs   []int64 // questions the vector ranker matched
	PublishedOnly bool
	PerQuiz       int // matching questions kept per quiz
	Limit         int
}

// SearchQuizzes finds live quizzes by title (accent- and case-insensitive
// substring) and/or by their questions (full text, plus SemanticIDs): title
// matches first, then by how many questions match.
func (s *Store) SearchQuizzes(ctx context.Context, f QuizSearch) ([]QuizMatch, error) {
	visible := `z.deleted_at IS NULL`
	if f.PublishedOnly {
		visible += ` AND z.is_published`
	}
	sql := `WITH hits AS (
  SELECT qq.quiz_id, q.id, q.question_text,
    CASE WHEN q.id = ANY(?::bigint[]) THEN 1 ELSE 0 END + ts_rank(q.search_document, ` + tsQuery + `) AS score
  FROM bank.questions q JOIN bank.quiz_questions qq ON qq.question_id = q.id
  WHERE ? AND q.deleted_at IS NULL AND (q.search_document @@ ` + tsQuery + ` OR q.id = ANY(?::bigint[]))
), per_quiz AS (
  SELECT quiz_id, count(*) AS n,
    to_jsonb((array_agg(id ORDER BY score DESC, id))[1:?]) AS ids,
    to_jsonb((array_agg(question_text ORDER BY score DESC, id))[1:?]) AS texts
  FROM hits GROUP BY quiz_id
), found AS (
  SELECT z.id, (? AND bank.fold(z.title) LIKE '%' || bank.fold(?) || '%' ESCAPE '\') AS title_match,
    coalesce(pq.n, 0) AS n, pq.ids, pq.texts
  FROM bank.quizzes z LEFT JOIN per_quiz pq ON pq.quiz_id = z.id
  WHERE ` + visible + `
    AND ((? AND bank.fold(z.title) LIKE '%' || bank.fold(?) || '%' ESCAPE '\') OR pq.quiz_id IS NOT NULL)
)
SELECT s.*, f.title_match, coalesce(f.ids, '[]') AS matching_ids, coalesce(f.texts, '[]') AS matching_texts
FROM found f JOIN (` + quizSelect + `) s ON s.id = f.id
ORDER BY f.title_match DESC, f.n DESC, f.id DESC
LIMIT ?`
	pattern := db.LikeEscape(f.Text)
	sem := db.IDArray(f.SemanticIDs)
	var rows []QuizMatch
	err := s.db.Conn(ctx).Raw(sql, sem, f.Text, f.Questions, f.Text, sem,
		f.PerQuiz, f.PerQuiz, f.Titles, pattern, f.Titles, pattern, f.Limit).Scan(&rows).Error
	return rows, err
}
