// Package store is the labs module's persistence: reference values and the
// flashcards linked to them.
package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Value is a row of labs.lab_values.
type Value struct {
	ID                int64 `gorm:"primaryKey"`
	Name              string
	GroupName         string
	ReferenceRange    string
	Units             string
	ConventionalRange *string
	ConventionalUnits *string
	AgeGroup          string
	Specimen          string
	Source            string
	SourceURL         *string `gorm:"column:source_url"`
	ArticleID         *int64
	ArticleSectionID  *string
	IsPublished       bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
	CardIDs           []int64 `gorm:"-"`
}

// TableName places the row in the module's schema.
func (Value) TableName() string { return "labs.lab_values" }

// Store reads and writes the labs schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// listingOrder is the spec's order: group, then name, then id (insertion
// order within a test).
const listingOrder = "group_name, name, id"

// Insert stores a new value; the database sets id and times.
func (s *Store) Insert(ctx context.Context, v *Value) error {
	return s.db.Conn(ctx).Omit("id", "created_at", "updated_at").Create(v).Error
}

// InsertAll stores many values in one statement batch (demo data).
func (s *Store) InsertAll(ctx context.Context, vs []Value) error {
	return s.db.Conn(ctx).Omit("id", "created_at", "updated_at").CreateInBatches(vs, 200).Error
}

// Replace overwrites every field of value v.ID (db.ErrNotFound when missing).
func (s *Store) Replace(ctx context.Context, v *Value) error {
	res := s.db.Conn(ctx).Raw(`UPDATE labs.lab_values SET name = ?, group_name = ?, reference_range = ?, units = ?,
		conventional_range = ?, conventional_units = ?, age_group = ?, specimen = ?, source = ?, source_url = ?,
		article_id = ?, article_section_id = ?, is_published = ?, updated_at = now() WHERE id = ? RETURNING *`,
		v.Name, v.GroupName, v.ReferenceRange, v.Units, v.ConventionalRange, v.ConventionalUnits, v.AgeGroup,
		v.Specimen, v.Source, v.SourceURL, v.ArticleID, v.ArticleSectionID, v.IsPublished, v.ID).Scan(v)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Delete removes a value and its card links; db.ErrNotFound when missing.
func (s *Store) Delete(ctx context.Context, id int64) error {
	res := s.db.Conn(ctx).Exec(`DELETE FROM labs.lab_values WHERE id = ?`, id)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Get loads one value with its card ids (db.ErrNotFound when missing).
func (s *Store) Get(ctx context.Context, id int64) (*Value, error) {
	var v Value
	if err := s.db.Conn(ctx).Where("id = ?", id).Take(&v).Error; err != nil {
		return nil, err
	}
	vs := []Value{v}
	if err := s.withCards(ctx, vs); err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// Exists reports whether value id exists, holding a share lock on it so a
// concurrent delete waits for the caller's transaction.
func (s *Store) Exists(ctx context.Context, id int64) (bool, error) {
	var n int64
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM (SELECT 1 FROM labs.lab_values WHERE id = ? FOR SHARE) x`, id).Scan(&n).Error
	return n > 0, err
}

// Tab is one group and how many values it holds.
type Tab struct {
	GroupName string
	Count     int
}

// List gives at most limit values in listing order and the tabs (every
// group with its count, whatever the limit); drafts only when asked.
func (s *Store) List(ctx context.Context, drafts bool, limit int) ([]Value, []Tab, error) {
	visible := func() *gorm.DB {
		q := s.db.Conn(ctx).Model(&Value{})
		if !drafts {
			q = q.Where("is_published")
		}
		return q
	}
	var tabs []Tab
	if err := visible().Select("group_name, count(*) AS count").Group("group_name").
		Order("group_name").Scan(&tabs).Error; err != nil {
		return nil, nil, err
	}
	var out []Value
	if err := visible().Order(listingOrder).Limit(limit).Find(&out).Error; err != nil {
		return nil, nil, err
	}
	return out, tabs, s.withCards(ctx, out)
}

// Empty reports whether no value is stored (demo seeding).
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var n int64
	err := s.db.Conn(ctx).Raw(`SELECT count(*) FROM (SELECT 1 FROM labs.lab_values LIMIT 1) x`).Scan(&n).Error
	return n == 0, err
}

// Lock takes a transaction-scoped advisory lock (seeding on several
// replicas at once).
func (s *Store) Lock(ctx context.Context, key int64) error {
	return s.db.Conn(ctx).Exec(`SELECT pg_advisory_xact_lock(?)`, key).Error
}

// LinkCard links a card to a value; linking twice changes nothing.
func (s *Store) LinkCard(ctx context.Context, id, cardID int64) error {
	return s.db.Conn(ctx).Exec(`INSERT INTO labs.lab_value_cards (lab_value_id, card_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, id, cardID).Error
}

// UnlinkCard removes a link, if there is one.
func (s *Store) UnlinkCard(ctx context.Context, id, cardID int64) error {
	return s.db.Conn(ctx).Exec(`DELETE FROM labs.lab_value_cards WHERE lab_value_id = ? AND card_id = ?`, id, cardID).Error
}

// withCards fills each value's card ids, in link order.
func (s *Store) withCards(ctx context.Context, vs []Value) error {
	if len(vs) == 0 {
		return nil
	}
	ids := make([]int64, len(vs))
	at := make(map[int64]int, len(vs))
	for i := range vs {
		ids[i] = vs[i].ID
		at[vs[i].ID] = i
		vs[i].CardIDs = []int64{}
	}
	var links []struct{ LabValueID, CardID int64 }
	err := s.db.Conn(ctx).Raw(`SELECT lab_value_id, card_id FROM labs.lab_value_cards
		WHERE lab_value_id = ANY(CAST(? AS bigint[])) ORDER BY created_at, card_id`, db.IDArray(ids)).Scan(&links).Error
	for _, l := range links {
		v := &vs[at[l.LabValueID]]
		v.CardIDs = append(v.CardIDs, l.CardID)
	}
	return err
}
