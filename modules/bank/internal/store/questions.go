package store

import (
	"cmp"
	"context"
	"slices"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// InsertQuestion stores q, filling its id, version and times.
func (s *Store) InsertQuestion(ctx context.Context, q *Question) error {
	return s.row(ctx, `INSERT INTO bank.questions (question_type, question_text, options, correct_answer,
		explanation, option_explanations, key_points, attending_tip, explanation_image_path, image_path, figures,
		question_category_id, created_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id, version, created_at, updated_at`,
		q.QuestionType, q.QuestionText, q.Options, q.CorrectAnswer, q.Explanation, q.OptionExplanations,
		q.KeyPoints, q.AttendingTip, q.ExplanationImagePath, q.ImagePath, q.Figures, q.QuestionCategoryID,
		q.CreatedBy).Scan(&q.ID, &q.Version, &q.CreatedAt, &q.UpdatedAt)
}

// Question loads one question, trashed or not; with lock it takes the row
// lock for the rest of the transaction. db.IsNotFound on a miss.
func (s *Store) Question(ctx context.Context, id int64, lock bool) (*QuestionWithFiling, error) {
	sql := `SELECT ` + filedCols + `
		FROM bank.questions q LEFT JOIN bank.question_categories c ON c.id = q.question_category_id
		WHERE q.id = ?`
	if lock {
		sql += ` FOR UPDATE OF q`
	}
	var rows []QuestionWithFiling
	if err := s.db.Conn(ctx).Raw(sql, id).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, gorm.ErrRecordNotFound
	}
	return &rows[0], nil
}

// LiveQuestions loads the live questions among ids (any order).
func (s *Store) LiveQuestions(ctx context.Context, ids []int64) ([]QuestionWithFiling, error) {
	var rows []QuestionWithFiling
	err := s.db.Conn(ctx).Raw(`SELECT `+filedCols+`
		FROM bank.questions q LEFT JOIN bank.question_categories c ON c.id = q.question_category_id
		WHERE q.id = ANY(?::bigint[]) AND q.deleted_at IS NULL`, db.IDArray(ids)).Scan(&rows).Error
	return rows, err
}

// LockLive returns the live questions among ids, share-locked so they
// cannot be purged before the caller's transaction ends.
func (s *Store) LockLive(ctx context.Context, ids []int64) ([]int64, error) {
	out := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT id FROM bank.questions WHERE id = ANY(?::bigint[]) AND deleted_at IS NULL
		ORDER BY id FOR SHARE`, db.IDArray(ids)).Scan(&out).Error
	return out, err
}

// SaveContent writes the versioned fields of q, bumps its version and
// returns the new version and update time in q.
func (s *Store) SaveContent(ctx context.Context, q *Question) error {
	return s.row(ctx, `UPDATE bank.questions SET question_type = ?, question_text = ?, options = ?,
		correct_answer = ?, explanation = ?, option_explanations = ?, key_points = ?, attending_tip = ?,
		explanation_image_path = ?, image_path = ?, figures = ?, version = version + 1, updated_at = now()
		WHERE id = ? RETURNING version, updated_at`,
		q.QuestionType, q.QuestionText, q.Options, q.CorrectAnswer, q.Explanation, q.OptionExplanations,
		q.KeyPoints, q.AttendingTip, q.ExplanationImagePath, q.ImagePath, q.Figures, q.ID).Scan(&q.Version, &q.UpdatedAt)
}

// File moves the live questions among ids into category (nil =
// uncategorised) and returns the rows that changed, in id order.
func (s *Store) File(ctx context.Context, ids []int64, category *int64) ([]Question, error) {
	var rows []Question
	err := s.db.Conn(ctx).Raw(`UPDATE bank.questions SET question_category_id = ?, version = version + 1, updated_at = now()
		WHERE id = ANY(?::bigint[]) AND deleted_at IS NULL AND question_category_id IS DISTINCT FROM ?
		RETURNING `+questionCols, category, db.IDArray(ids), category).Scan(&rows).Error
	sortQuestions(rows)
	return rows, err
}

// MoveCategory refiles every question of category from into to and returns
// the rows that changed (live and trashed: the category is going away).
func (s *Store) MoveCategory(ctx context.Context, from int64, to *int64) ([]Question, error) {
	var rows []Question
	err := s.db.Conn(ctx).Raw(`UPDATE bank.questions SET question_category_id = ?, version = version + 1, updated_at = now()
		WHERE question_category_id = ? RETURNING `+questionCols, to, from).Scan(&rows).Error
	sortQuestions(rows)
	return rows, err
}

// SetDeleted trashes (at the database's now) or restores a question, bumps
// its version and reads back its version and times.
func (s *Store) SetDeleted(ctx context.Context, q *Question, trashed bool) error {
	return s.row(ctx, `UPDATE bank.questions SET deleted_at = CASE WHEN ? THEN now() END, version = version + 1,
		updated_at = now() WHERE id = ? RETURNING version, updated_at, deleted_at`, trashed, q.ID).
		Scan(&q.Version, &q.UpdatedAt, &q.DeletedAt)
}

// PurgeQuestion removes a question for good; its versions, tags, links and
// favourites go with it (ON DELETE CASCADE). The id is never reissued.
func (s *Store) PurgeQuestion(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.questions WHERE id = ?`, id).Error
}

// TrashPage lists trashed questions, most recently trashed first.
func (s *Store) TrashPage(ctx context.Context, limit, offset int) ([]QuestionWithFiling, int64, error) {
	var total int64
	conn := s.db.Conn(ctx)
	if err := conn.Raw(`SELECT count(*) FROM bank.questions WHERE deleted_at IS NOT NULL`).Scan(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []QuestionWithFiling
	err := conn.Raw(`SELECT `+filedCols+`
		FROM bank.questions q LEFT JOIN bank.question_categories c ON c.id = q.question_category_id
		WHERE q.deleted_at IS NOT NULL ORDER BY q.deleted_at DESC, q.id DESC LIMIT ? OFFSET ?`,
		limit, offset).Scan(&rows).Error
	return rows, total, err
}

// InLiveQuiz reports whether the question is linked to any of the live
// quizzes among quizIDs.
func (s *Store) InLiveQuiz(ctx context.Context, questionID int64, quizIDs []int64) (bool, error) {
	if len(quizIDs) == 0 {
		return false, nil
	}
	var ok bool
	err := s.db.Conn(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM bank.quiz_questions qq
		JOIN bank.quizzes z ON z.id = qq.quiz_id AND z.deleted_at IS NULL
		WHERE qq.question_id = ? AND qq.quiz_id = ANY(?::bigint[]))`, questionID, db.IDArray(quizIDs)).Scan(&ok).Error
	return ok, err
}

// InsertVersion stores a snapshot.
func (s *Store) InsertVersion(ctx context.Context, v *Version) error {
	return s.row(ctx, `INSERT INTO bank.question_versions (question_id, snapshot, edited_by)
		VALUES (?, ?, ?) RETURNING id, created_at`, v.QuestionID, string(v.Snapshot), v.EditedBy).
		Scan(&v.ID, &v.CreatedAt)
}

// Versions lists a question's snapshots, newest first.
func (s *Store) Versions(ctx context.Context, questionID int64, limit, offset int) ([]Version, error) {
	var rows []Version
	err := s.db.Conn(ctx).Raw(`SELECT id, question_id, snapshot, edited_by, created_at FROM bank.question_versions
		WHERE question_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, questionID, limit, offset).Scan(&rows).Error
	return rows, err
}

// VersionOf loads one snapshot of a question; db.IsNotFound on a miss.
func (s *Store) VersionOf(ctx context.Context, questionID, versionID int64) (*Version, error) {
	var rows []Version
	err := s.db.Conn(ctx).Raw(`SELECT id, question_id, snapshot, edited_by, created_at FROM bank.question_versions
		WHERE question_id = ? AND id = ?`, questionID, versionID).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, gorm.ErrRecordNotFound
	}
	return &rows[0], nil
}

// sortQuestions orders RETURNING rows by id, so events go out in a stable
// order.
func sortQuestions(rows []Question) {
	slices.SortFunc(rows, func(a, b Question) int { return cmp.Compare(a.ID, b.ID) })
}
