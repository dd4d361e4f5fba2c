// Package store is the flashcards module's persistence: decks, cards, each
// learner's FSRS state of a card, the review log, and learners' settings
// and exam dates.
package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/roundsedu/rounds/platform/db"
)

// Deck is a row of flashcards.decks.
type Deck struct {
	ID            int64 `gorm:"primaryKey"`
	Title         string
	Description   string
	CategoryID    *int64
	UserID        int64
	IsShared      bool
	IgnoreAccents bool
	DeletedAt     *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	CardCount     int64 `gorm:"->;-:migration"` // filled by listings
}

// TableName places the row in the module's schema.
func (Deck) TableName() string { return "flashcards.decks" }

// Card is a row of flashcards.cards.
type Card struct {
	ID          int64 `gorm:"primaryKey"`
	DeckID      int64
	CardType    string
	Front       string
	Back        string
	ClozeNumber *int
	PairID      *int64
	PictureID   *int64
	Mask        *Mask // the shape an image occlusion card hides
	QuestionID  *int64
	ArticleID   *int64
	SectionID   *int64
	CreatedBy   int64
	CreatedAt   time.Time
}

// TableName places the row in the module's schema.
func (Card) TableName() string { return "flashcards.cards" }

// State is a learner's FSRS state of a card.
type State struct {
	UserID        int64 `gorm:"primaryKey"`
	CardID        int64 `gorm:"primaryKey"`
	DeckID        int64
	Due           time.Time
	Stability     float64
	Difficulty    float64
	ElapsedDays   int
	ScheduledDays int
	Reps          int
	Lapses        int
	State         int
	LastReview    *time.Time
}

// TableName places the row in the module's schema.
func (State) TableName() string { return "flashcards.card_states" }

// ReviewLog is one review as FSRS optimisers read it.
type ReviewLog struct {
	ID            int64 `gorm:"primaryKey"`
	UserID        int64
	CardID        int64
	DeckID        int64
	Rating        int
	State         int
	ElapsedDays   int
	ScheduledDays int
	ReviewedAt    time.Time
	DurationMs    *int
	Prior         *Prior // the state before the review (nil: logged before undo existed, or imported)
}

// TableName places the row in the module's schema.
func (ReviewLog) TableName() string { return "flashcards.review_logs" }

// Store reads and writes the flashcards schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// InsertDeck stores a new deck; the database sets id and times.
func (s *Store) InsertDeck(ctx context.Context, d *Deck) error {
	return s.db.Conn(ctx).Raw(`INSERT INTO flashcards.decks (title, description, category_id, user_id, ignore_accents)
		VALUES (?, ?, ?, ?, ?) RETURNING *`, d.Title, d.Description, d.CategoryID, d.UserID, d.IgnoreAccents).Scan(d).Error
}

// Deck reads a deck, live or binned, optionally under a row lock
// (db.ErrNotFound when missing).
func (s *Store) Deck(ctx context.Context, id int64, lock db.Lock) (*Deck, error) {
	var d Deck
	if err := s.db.Locking(ctx, lock).Where("id = ?", id).Take(&d).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// CountCards counts a deck's stored cards.
func (s *Store) CountCards(ctx context.Context, deckID int64) (int64, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Card{}).Where("deck_id = ?", deckID).Count(&n).Error
	return n, err
}

// UpdateDeck writes a deck's editable fields and share and bin marks.
func (s *Store) UpdateDeck(ctx context.Context, d *Deck) error {
	return s.db.Conn(ctx).Raw(`UPDATE flashcards.decks SET title = ?, description = ?, category_id = ?,
		ignore_accents = ?, is_shared = ?, deleted_at = ?, updated_at = now() WHERE id = ? RETURNING *`,
		d.Title, d.Description, d.CategoryID, d.IgnoreAccents, d.IsShared, d.DeletedAt, d.ID).Scan(d).Error
}

// DeleteDeck removes a deck for good with its cards, states and exams.
func (s *Store) DeleteDeck(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM flashcards.decks WHERE id = ?`, id).Error
}

// Reach is what a caller may see beyond the shared decks: everything
// (moderators), or their own decks and those their grants cover.
type Reach struct {
	All        bool
	UserID     int64
	DeckIDs    []int64
	Categories []int64
}

// visible narrows a deck query (alias d) to live decks within reach.
func (r Reach) visible(q string) (string, []any) {
	q += " AND d.deleted_at IS NULL"
	if r.All {
		return q, nil
	}
	return q + ` AND (d.is_shared OR d.user_id = ? OR d.id = ANY(CAST(? AS bigint[]))
		OR d.category_id = ANY(CAST(? AS bigint[])))`, []any{r.UserID, db.IDArray(r.DeckIDs), db.IDArray(r.Categories)}
}

// ListDecks lists the live decks within reach, optionally of one category,
// newest first, with their card counts and the total.
func (s *Store) ListDecks(ctx context.Context, r Reach, categoryID int64, limit, offset int) ([]Deck, int64, error) {
	where, args := r.visible("WHERE true")
	if categoryID != 0 {
		where += " AND d.category_id = ?"
		args = append(args, categoryID)
	}
	var total int64
	if err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM flashcards.decks d `+where, args...).Scan(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Deck
	err := s.db.Conn(ctx).Raw(`SELECT d.*, (SELECT count(*) FROM flashcards.cards c WHERE c.deck_id = d.id) AS card_count
		FROM flashcards.decks d `+where+` ORDER BY d.updated_at DESC, d.id DESC LIMIT ? OFFSET ?`,
		append(args, limit, offset)...).Scan(&out).Error
	return out, total, err
}

// Trash lists binned decks, most recently binned first.
func (s *Store) Trash(ctx context.Context, limit, offset int) ([]Deck, int64, error) {
	q := s.db.Conn(ctx).Model(&Deck{}).Where("deleted_at IS NOT NULL")
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Deck
	err := q.Order("deleted_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// UnsharedCategories are the distinct categories of live unshared decks
// (what a category-branch grant may cover).
func (s *Store) UnsharedCategories(ctx context.Context) ([]int64, error) {
	var out []int64
	err := s.db.Conn(ctx).Raw(`SELECT DISTINCT category_id FROM flashcards.decks
		WHERE deleted_at IS NULL AND NOT is_shared AND category_id IS NOT NULL`).Scan(&out).Error
	return out, err
}

// LiveCategories are the distinct categories of live decks.
func (s *Store) LiveCategories(ctx context.Context) ([]int64, error) {
	var out []int64
	err := s.db.Conn(ctx).Raw(`SELECT DISTINCT category_id FROM flashcards.decks
		WHERE deleted_at IS NULL AND category_id IS NOT NULL`).Scan(&out).Error
	return out, err
}

// LiveDeckIDs lists the live decks among ids or filed in categories, in id
// order.
func (s *Store) LiveDeckIDs(ctx context.Context, ids, categories []int64) ([]int64, error) {
	out := []int64{}
	err := s.db.Conn(ctx).Raw(`SELECT id FROM flashcards.decks WHERE deleted_at IS NULL
		AND (id = ANY(CAST(? AS bigint[])) OR category_id = ANY(CAST(? AS bigint[]))) ORDER BY id`,
		db.IDArray(ids), db.IDArray(categories)).Scan(&out).Error
	return out, err
}

// InsertCards stores cards in order and fills in each one's id and
// created_at as stored (the database's clock); a reversed pair's rows both
// get the first row's id as pair_id.
func (s *Store) InsertCards(ctx context.Context, cards []Card) error {
	stored := clause.Returning{Columns: []clause.Column{{Name: "id"}, {Name: "created_at"}}}
	if err := s.db.Conn(ctx).Omit("ID", "CreatedAt").Clauses(stored).Create(&cards).Error; err != nil {
		return err
	}
	if len(cards) == 2 && cards[0].CardType == "reversed" {
		pair := cards[0].ID
		cards[0].PairID, cards[1].PairID = &pair, &pair
		return s.db.Conn(ctx).Exec(`UPDATE flashcards.cards SET pair_id = ? WHERE id IN (?, ?)`,
			pair, cards[0].ID, cards[1].ID).Error
	}
	return nil
}

// Cards lists a deck's cards in the order written, and their total.
func (s *Store) Cards(ctx context.Context, deckID int64, limit, offset int) ([]Card, int64, error) {
	q := s.db.Conn(ctx).Model(&Card{}).Where("deck_id = ?", deckID)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Card
	err := q.Order("id").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Card reads one card (db.ErrNotFound when missing).
func (s *Store) Card(ctx context.Context, id int64) (*Card, error) {
	var c Card
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// DeleteCard removes a card and, for half of a reversed pair, its other
// half; it returns how many rows went.
func (s *Store) DeleteCard(ctx context.Context, c *Card) (int64, error) {
	q := s.db.Conn(ctx).Where("id = ?", c.ID)
	if c.PairID != nil {
		q = s.db.Conn(ctx).Where("id = ? OR pair_id = ?", c.ID, *c.PairID)
	}
	res := q.Delete(&Card{})
	return res.RowsAffected, res.Error
}

// SetLink sets (or with nil clears) a card's question or article link.
func (s *Store) SetLink(ctx context.Context, cardID int64, fields map[string]any) error {
	return s.db.Conn(ctx).Model(&Card{}).Where("id = ?", cardID).Updates(fields).Error
}
