package store

import (
	"context"

	"github.com/roundsedu/rounds/platform/db"
)

// TagsByID loads the tags among ids.
func (s *Store) TagsByID(ctx context.Context, ids []int64) ([]Tag, error) {
	var rows []Tag
	err := s.db.Conn(ctx).Raw(`SELECT id, type, name, created_at FROM bank.tags WHERE id = ANY(?::bigint[])`,
		db.IDArray(ids)).Scan(&rows).Error
	return rows, err
}

// TagCount is a tag with the live questions carrying it directly.
type TagCount struct {
	Tag
	QuestionCount int
}

// TagCounts lists every tag by name with its direct live-question count
// (zero for system tags, which questions carry through their category).
func (s *Store) TagCounts(ctx context.Context) ([]TagCount, error) {
	var rows []TagCount
	err := s.db.Conn(ctx).Raw(`SELECT t.id, t.type, t.name, t.created_at, count(q.id) AS question_count
		FROM bank.tags t
		LEFT JOIN bank.question_tags qt ON qt.tag_id = t.id
		LEFT JOIN bank.questions q ON q.id = qt.question_id AND q.deleted_at IS NULL
		GROUP BY t.id ORDER BY t.name, t.id`).Scan(&rows).Error
	return rows, err
}

// QuestionTags lists the tags a question carries directly.
func (s *Store) QuestionTags(ctx context.Context, questionID int64) ([]Tag, error) {
	var rows []Tag
	err := s.db.Conn(ctx).Raw(`SELECT t.id, t.type, t.name, t.created_at FROM bank.question_tags qt
		JOIN bank.tags t ON t.id = qt.tag_id WHERE qt.question_id = ? ORDER BY t.type, t.name`, questionID).
		Scan(&rows).Error
	return rows, err
}

// EnsureTag returns the id of the tag of that type and name, creating it.
func (s *Store) EnsureTag(ctx context.Context, typ, name string) (int64, error) {
	var id int64
	err := s.db.Conn(ctx).Raw(`WITH ins AS (
		INSERT INTO bank.tags (type, name) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id)
		SELECT id FROM ins UNION ALL
		SELECT id FROM bank.tags WHERE type = ? AND bank.fold(name) = bank.fold(?) LIMIT 1`,
		typ, name, typ, name).Scan(&id).Error
	return id, err
}

// TagQuestion attaches tags to a question (offline classification and the
// demo data; no route assigns tags).
func (s *Store) TagQuestion(ctx context.Context, questionID int64, tagIDs []int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO bank.question_tags (question_id, tag_id)
		SELECT ?, unnest(?::bigint[]) ON CONFLICT DO NOTHING`, questionID, db.IDArray(tagIDs)).Error
}

// TagsOfTypes lists the tags of the given types by id.
func (s *Store) TagsOfTypes(ctx context.Context, types ...string) ([]Tag, error) {
	var rows []Tag
	err := s.db.Conn(ctx).Where("type IN ?", types).Order("id").Find(&rows).Error
	return rows, err
}

// QuestionText is the text of a live question the tagger reads.
type QuestionText struct {
	ID            int64
	QuestionText  string
	CorrectAnswer string
	Explanation   string
}

// QuestionTexts reads up to limit live questions after afterID, by id (a
// keyset page: a long classification never skips or repeats a question).
func (s *Store) QuestionTexts(ctx context.Context, afterID int64, limit int) ([]QuestionText, error) {
	var rows []QuestionText
	err := s.db.Conn(ctx).Table("bank.questions").Select("id, question_text, correct_answer, explanation").
		Where("deleted_at IS NULL AND id > ?", afterID).Order("id").Limit(limit).Find(&rows).Error
	return rows, err
}

// CountLive counts the live questions.
func (s *Store) CountLive(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Table("bank.questions").Where("deleted_at IS NULL").Count(&n).Error
	return n, err
}

// AddQuestionTags attaches tagIDs[i] to questionIDs[i], keeping pairs
// already there, and returns how many were new.
func (s *Store) AddQuestionTags(ctx context.Context, questionIDs, tagIDs []int64) (int64, error) {
	res := s.db.Conn(ctx).Exec(`INSERT INTO bank.question_tags (question_id, tag_id)
		SELECT * FROM unnest(?::bigint[], ?::bigint[]) ON CONFLICT DO NOTHING`,
		db.IDArray(questionIDs), db.IDArray(tagIDs))
	return res.RowsAffected, res.Error
}
