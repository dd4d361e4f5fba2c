package store

import (
	"context"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Categories loads the whole question-category tree (it is small: the
// service walks it in memory for branches, systems and grant coverage).
func (s *Store) Categories(ctx context.Context) ([]Category, error) {
	var rows []Category
	err := s.db.Conn(ctx).Raw(`SELECT id, name, description, parent_id, system_id, created_at, updated_at
		FROM bank.question_categories ORDER BY name, id`).Scan(&rows).Error
	return rows, err
}

// Category loads one category; with lock it takes the row lock.
// db.IsNotFound on a miss.
func (s *Store) Category(ctx context.Context, id int64, lock bool) (*Category, error) {
	sql := `SELECT id, name, description, parent_id, system_id, created_at, updated_at
		FROM bank.question_categories WHERE id = ?`
	if lock {
		sql += ` FOR UPDATE`
	}
	var rows []Category
	if err := s.db.Conn(ctx).Raw(sql, id).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, gorm.ErrRecordNotFound
	}
	return &rows[0], nil
}

// LockCategoryTree serialises changes to the tree's shape (a move must not
// race another move into a cycle).
func (s *Store) LockCategoryTree(ctx context.Context) error {
	return s.db.Conn(ctx).Exec(`LOCK TABLE bank.question_categories IN SHARE ROW EXCLUSIVE MODE`).Error
}

// CategoryCounts counts live questions filed directly in each category.
func (s *Store) CategoryCounts(ctx context.Context) (map[int64]int, error) {
	var rows []struct {
		CategoryID int64
		N          int
	}
	err := s.db.Conn(ctx).Raw(`SELECT question_category_id AS category_id, count(*) AS n FROM bank.questions
		WHERE deleted_at IS NULL AND question_category_id IS NOT NULL GROUP BY question_category_id`).Scan(&rows).Error
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.CategoryID] = r.N
	}
	return out, err
}

// InsertCategory stores c, filling its id and times; db.IsUniqueViolation
// when a sibling has the name.
func (s *Store) InsertCategory(ctx context.Context, c *Category) error {
	return s.row(ctx, `INSERT INTO bank.question_categories (name, description, parent_id, system_id)
		VALUES (?, ?, ?, ?) RETURNING id, created_at, updated_at`, c.Name, c.Description, c.ParentID, c.SystemID).
		Scan(&c.ID, &c.CreatedAt, &c.UpdatedAt)
}

// SaveCategory writes c's fields; db.IsUniqueViolation when a sibling has
// the name.
func (s *Store) SaveCategory(ctx context.Context, c *Category) error {
	return s.row(ctx, `UPDATE bank.question_categories SET name = ?, description = ?, parent_id = ?,
		system_id = ?, updated_at = now() WHERE id = ? RETURNING updated_at`,
		c.Name, c.Description, c.ParentID, c.SystemID, c.ID).Scan(&c.UpdatedAt)
}

// Reparent moves the children of one category under another (nil = root).
func (s *Store) Reparent(ctx context.Context, from int64, to *int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE bank.question_categories SET parent_id = ?, updated_at = now()
		WHERE parent_id = ?`, to, from).Error
}

// DeleteCategory removes an empty category.
func (s *Store) DeleteCategory(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM bank.question_categories WHERE id = ?`, id).Error
}

// LiveQuestionIDsIn lists the live questions filed in any of the
// categories, oldest first.
func (s *Store) LiveQuestionIDsIn(ctx context.Context, categories []int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT id FROM bank.questions WHERE deleted_at IS NULL
		AND question_category_id = ANY(?::bigint[]) ORDER BY id`, db.IDArray(categories)).Scan(&ids).Error
	return ids, err
}

// QuizCategoryCount is a quiz category with the number of quizzes in it.
type QuizCategoryCount struct {
	QuizCategory
	QuizCount int
}

// QuizCategories lists quiz categories by name with their live quiz counts
// (published ones only when asked).
func (s *Store) QuizCategories(ctx context.Context, publishedOnly bool) ([]QuizCategoryCount, error) {
	cond := `z.deleted_at IS NULL`
	if publishedOnly {
		cond += ` AND z.is_published`
	}
	var rows []QuizCategoryCount
	err := s.db.Conn(ctx).Raw(`SELECT c.id, c.name, c.created_at, count(z.id) AS quiz_count
		FROM bank.quiz_categories c LEFT JOIN bank.quizzes z ON z.category_id = c.id AND ` + cond + `
		GROUP BY c.id ORDER BY c.name, c.id`).Scan(&rows).Error
	return rows, err
}

// InsertQuizCategory stores c; db.IsUniqueViolation on a taken name.
func (s *Store) InsertQuizCategory(ctx context.Context, c *QuizCategory) error {
	return s.row(ctx, `INSERT INTO bank.quiz_categories (name) VALUES (?) RETURNING id, created_at`, c.Name).
		Scan(&c.ID, &c.CreatedAt)
}

// QuizCategoryExists reports whether a quiz category exists, share-locking
// it so it cannot be deleted before the caller's transaction ends.
func (s *Store) QuizCategoryExists(ctx context.Context, id int64) (bool, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`SELECT id FROM bank.quiz_categories WHERE id = ? FOR SHARE`, id).Scan(&ids).Error
	return len(ids) > 0, err
}

// LockCategories returns the question categories among ids that exist,
// share-locked so none is deleted before the caller's transaction ends.
func (s *Store) LockCategories(ctx context.Context, ids []int64) ([]int64, error) {
	out := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT id FROM bank.question_categories WHERE id = ANY(?::bigint[])
		ORDER BY id FOR SHARE`, db.IDArray(ids)).Scan(&out).Error
	return out, err
}

// DeleteQuizCategory removes a quiz category; its quizzes become
// unassigned (ON DELETE SET NULL). Reports whether it existed.
func (s *Store) DeleteQuizCategory(ctx context.Context, id int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM bank.quiz_categories WHERE id = ?`, id)
	return res.RowsAffected > 0, res.Error
}
