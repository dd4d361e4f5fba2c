package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Folder is a row of attempts.folders.
type Folder struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TableName places the row in the module's schema.
func (Folder) TableName() string { return "attempts.folders" }

// FolderWithCount is a folder and how many collections it holds.
type FolderWithCount struct {
	Folder
	Collections int
}

// InsertFolder creates a folder (ErrDuplicate for a name the user has).
func (s *Store) InsertFolder(ctx context.Context, f *Folder) error {
	return duplicate(s.db.Conn(ctx).Raw(`INSERT INTO attempts.folders (user_id, name) VALUES (?, ?) RETURNING *`,
		f.UserID, f.Name).Scan(f).Error)
}

// Folder loads one of the user's folders under lock.
func (s *Store) Folder(ctx context.Context, userID, id int64, lock db.Lock) (*Folder, error) {
	return ownedRow[Folder](ctx, s, "id", id, userID, lock)
}

// Folders lists the user's folders by name, with their collection counts.
func (s *Store) Folders(ctx context.Context, userID int64, limit, offset int) ([]FolderWithCount, error) {
	var out []FolderWithCount
	err := s.db.Conn(ctx).Raw(`SELECT f.*, (SELECT count(*) FROM attempts.collections c WHERE c.folder_id = f.id)
		  AS collections
		FROM attempts.folders f WHERE f.user_id = ? ORDER BY lower(f.name), f.id LIMIT ? OFFSET ?`,
		userID, limit, offset).Scan(&out).Error
	return out, err
}

// RenameFolder sets a folder's name (ErrDuplicate for a name the user has).
func (s *Store) RenameFolder(ctx context.Context, f *Folder) error {
	return duplicate(s.db.Conn(ctx).Raw(`UPDATE attempts.folders SET name = ?, updated_at = now() WHERE id = ? RETURNING *`,
		f.Name, f.ID).Scan(f).Error)
}

// DeleteFolder removes one of the user's folders (its collections stay,
// unfiled), reporting whether there was one.
func (s *Store) DeleteFolder(ctx context.Context, userID, id int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.folders WHERE id = ? AND user_id = ?`, id, userID)
	return res.RowsAffected > 0, res.Error
}

// Collection is a row of attempts.collections.
type Collection struct {
	ID          int64 `gorm:"primaryKey"`
	UserID      int64
	FolderID    *int64
	Name        string
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName places the row in the module's schema.
func (Collection) TableName() string { return "attempts.collections" }

// CollectionWithCount is a collection and how many questions it holds.
type CollectionWithCount struct {
	Collection
	Questions int
}

// InsertCollection creates a collection.
func (s *Store) InsertCollection(ctx context.Context, c *Collection) error {
	return s.db.Conn(ctx).Raw(`INSERT INTO attempts.collections (user_id, folder_id, name, description)
		VALUES (?, ?, ?, ?) RETURNING *`, c.UserID, c.FolderID, c.Name, c.Description).Scan(c).Error
}

// Collection loads one of the user's collections under lock.
func (s *Store) Collection(ctx context.Context, userID, id int64, lock db.Lock) (*Collection, error) {
	return ownedRow[Collection](ctx, s, "id", id, userID, lock)
}

// CollectionFilter narrows the user's collections to one folder, or to the
// unfiled ones.
type CollectionFilter struct {
	FolderID *int64
	Unfiled  bool
}

// Collections lists the user's collections, most recently changed first,
// with their question counts.
func (s *Store) Collections(ctx context.Context, userID int64, f CollectionFilter, limit, offset int) ([]CollectionWithCount, error) {
	var out []CollectionWithCount
	err := s.db.Conn(ctx).Raw(`SELECT c.*,
		  (SELECT count(*) FROM attempts.collection_questions q WHERE q.collection_id = c.id) AS questions
		FROM attempts.collections c
		WHERE c.user_id = ? AND (?::bigint IS NULL OR c.folder_id = ?) AND (NOT ? OR c.folder_id IS NULL)
		ORDER BY c.updated_at DESC, c.id DESC LIMIT ? OFFSET ?`,
		userID, f.FolderID, f.FolderID, f.Unfiled, limit, offset).Scan(&out).Error
	return out, err
}

// UpdateCollection writes a collection's name, description and folder.
func (s *Store) UpdateCollection(ctx context.Context, c *Collection) error {
	return s.db.Conn(ctx).Raw(`UPDATE attempts.collections SET name = ?, description = ?, folder_id = ?,
		updated_at = now() WHERE id = ? RETURNING *`, c.Name, c.Description, c.FolderID, c.ID).Scan(c).Error
}

// TouchCollection marks a collection changed now.
func (s *Store) TouchCollection(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`UPDATE attempts.collections SET updated_at = now() WHERE id = ?`, id).Error
}

// DeleteCollection removes one of the user's collections and its question
// list, reporting whether there was one.
func (s *Store) DeleteCollection(ctx context.Context, userID, id int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.collections WHERE id = ? AND user_id = ?`, id, userID)
	return res.RowsAffected > 0, res.Error
}

// CollectionQuestionIDs lists a collection's question ids in the order
// added.
func (s *Store) CollectionQuestionIDs(ctx context.Context, collectionID int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT question_id FROM attempts.collection_questions
		WHERE collection_id = ? ORDER BY added_at, question_id`, collectionID).Scan(&ids).Error
	return ids, err
}

// CountCollectionQuestions counts a collection's questions.
func (s *Store) CountCollectionQuestions(ctx context.Context, collectionID int64) (int, error) {
	var n int
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM attempts.collection_questions WHERE collection_id = ?`,
		collectionID).Scan(&n).Error
	return n, err
}

// AddCollectionQuestion puts a question in a collection, reporting whether
// it was not there yet.
func (s *Store) AddCollectionQuestion(ctx context.Context, collectionID, questionID int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`INSERT INTO attempts.collection_questions (collection_id, question_id)
		VALUES (?, ?) ON CONFLICT DO NOTHING`, collectionID, questionID)
	return res.RowsAffected > 0, res.Error
}

// RemoveCollectionQuestion takes a question out of a collection, reporting
// whether it was there.
func (s *Store) RemoveCollectionQuestion(ctx context.Context, collectionID, questionID int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.collection_questions WHERE collection_id = ? AND question_id = ?`,
		collectionID, questionID)
	return res.RowsAffected > 0, res.Error
}

// Note is a row of attempts.notes.
type Note struct {
	ID         int64 `gorm:"primaryKey"`
	UserID     int64
	QuestionID int64
	Body       string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// TableName places the row in the module's schema.
func (Note) TableName() string { return "attempts.notes" }

// PutNote writes the user's note on a question (one per question).
func (s *Store) PutNote(ctx context.Context, n *Note) error {
	return s.db.Conn(ctx).Raw(`INSERT INTO attempts.notes (user_id, question_id, body) VALUES (?, ?, ?)
		ON CONFLICT (user_id, question_id) DO UPDATE SET body = EXCLUDED.body, updated_at = now()
		RETURNING *`, n.UserID, n.QuestionID, n.Body).Scan(n).Error
}

// Note loads the user's note on a question.
func (s *Store) Note(ctx context.Context, userID, questionID int64) (*Note, error) {
	var n Note
	if err := s.db.Conn(ctx).Where("user_id = ? AND question_id = ?", userID, questionID).Take(&n).Error; err != nil {
		return nil, err
	}
	return &n, nil
}

// Notes lists the user's notes, most recently changed first, on the given
// questions when questionIDs is not empty.
func (s *Store) Notes(ctx context.Context, userID int64, questionIDs []int64, limit, offset int) ([]Note, error) {
	var out []Note
	q := s.db.Conn(ctx).Where("user_id = ?", userID)
	if len(questionIDs) > 0 {
		q = q.Where("question_id = ANY(?::bigint[])", db.IDArray(questionIDs))
	}
	err := q.Order("updated_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, err
}

// DeleteNote removes the user's note on a question, reporting whether there
// was one.
func (s *Store) DeleteNote(ctx context.Context, userID, questionID int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`DELETE FROM attempts.notes WHERE user_id = ? AND question_id = ?`, userID, questionID)
	return res.RowsAffected > 0, res.Error
}

// ForgetUser removes everything a user owns here: notes, collections with
// their question lists, folders, the reminder schedule, saved progress and
// attempts with their answers and tallies. Repeating it changes nothing.
func (s *Store) ForgetUser(ctx context.Context, userID int64) error {
	for _, table := range []string{"notes", "collections", "folders", "review_schedule", "saved_progress", "attempts",
		"question_tallies", "day_tallies"} {
		if err := s.db.Conn(ctx).Exec(`DELETE FROM attempts.`+table+` WHERE user_id = ?`, userID).Error; err != nil {
			return err
		}
	}
	return nil
}
