// Package store is the media module's persistence: gorm rows of schema
// "media" and the queries the service runs.
package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Place is a section an asset was shown in before it was binned.
type Place struct {
	ArticleID  int64  `json:"article_id"`
	SectionKey string `json:"section_id"`
}

// Shape is one vector annotation of an image overlay, in image
// coordinates: a rect (x, y, w, h), an ellipse (x, y = centre; w, h =
// diameters), or a polygon (points).
type Shape struct {
	Kind   string       `json:"kind"`
	X      float64      `json:"x,omitempty"`
	Y      float64      `json:"y,omitempty"`
	W      float64      `json:"w,omitempty"`
	H      float64      `json:"h,omitempty"`
	Points [][2]float64 `json:"points,omitempty"`
	Label  string       `json:"label,omitempty"`
}

// Asset is a row of media.assets.
type Asset struct {
	ID          int64 `gorm:"primaryKey"`
	Path        string
	Title       string
	Caption     string
	AltText     string
	Source      string
	SourceURL   string `gorm:"column:source_url"`
	License     string
	Overlay     db.JSONList[Shape]
	Kind        string
	ContentType string
	Modality    *string
	Spec        json.RawMessage `gorm:"type:jsonb"`
	LibraryID   *int64
	Storage     string
	ByteSize    int64
	Width       int
	Height      int
	CategoryID  *int64
	Places      db.JSONList[Place]
	CreatedBy   int64
	CreatedAt   time.Time
	UpdatedAt   time.Time
	DeletedAt   *time.Time
	PurgedAt    *time.Time
}

// TableName places the row in the module's schema.
func (Asset) TableName() string { return "media.assets" }

// Library is a row of media.libraries: a named collection of images.
type Library struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	CreatedAt time.Time
}

// TableName places the row in the module's schema.
func (Library) TableName() string { return "media.libraries" }

// Store reads and writes the media schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Insert stores a new asset.
func (s *Store) Insert(ctx context.Context, a *Asset) error {
	if a.Spec == nil {
		return s.db.Conn(ctx).Omit("Spec").Create(a).Error
	}
	return s.db.Conn(ctx).Create(a).Error
}

// Asset loads one asset (binned ones too).
func (s *Store) Asset(ctx context.Context, id int64, lock db.Lock) (*Asset, error) {
	var a Asset
	if err := s.db.Locking(ctx, lock).Where("id = ?", id).Take(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// ByPath loads the asset stored at path.
func (s *Store) ByPath(ctx context.Context, path string) (*Asset, error) {
	var a Asset
	if err := s.db.Conn(ctx).Where("path = ?", path).Take(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// Save writes an asset's editable fields and bin state.
func (s *Store) Save(ctx context.Context, a *Asset) error {
	return s.db.Conn(ctx).Model(a).Select("Title", "Caption", "AltText", "Source", "SourceURL", "License",
		"Overlay", "Modality", "LibraryID", "CategoryID", "Places", "UpdatedAt", "DeletedAt", "PurgedAt").
		Updates(a).Error
}

// Filter narrows the asset list.
type Filter struct {
	Q          string
	Kind       string
	Modality   string
	LibraryID  *int64
	CategoryID *int64
	Binned     bool
}

// List pages through assets, newest first, with their total.
func (s *Store) List(ctx context.Context, f Filter, limit, offset int) ([]Asset, int64, error) {
	q := s.db.Conn(ctx).Model(&Asset{}).Where("purged_at IS NULL")
	if f.Binned {
		q = q.Where("deleted_at IS NOT NULL")
	} else {
		q = q.Where("deleted_at IS NULL")
	}
	if f.Q != "" {
		like := "%" + escapeLike(f.Q) + "%"
		q = q.Where("(title ILIKE ? OR caption ILIKE ? OR source ILIKE ?)", like, like, like)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	if f.Modality != "" {
		q = q.Where("modality = ?", f.Modality)
	}
	if f.LibraryID != nil {
		q = q.Where("library_id = ?", *f.LibraryID)
	}
	if f.CategoryID != nil {
		q = q.Where("category_id = ?", *f.CategoryID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Asset
	err := q.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&out).Error
	return out, total, err
}

// Expired lists binned assets whose bytes are still stored and were binned
// before cutoff.
func (s *Store) Expired(ctx context.Context, cutoff time.Time, limit int) ([]Asset, error) {
	var out []Asset
	err := s.db.Conn(ctx).Where("deleted_at < ? AND purged_at IS NULL", cutoff).Order("deleted_at, id").
		Limit(limit).Find(&out).Error
	return out, err
}

// MarkPurged records that an asset's bytes are gone.
func (s *Store) MarkPurged(ctx context.Context, id int64, at time.Time) error {
	return s.db.Conn(ctx).Exec(`UPDATE media.assets SET purged_at = ? WHERE id = ?`, at, id).Error
}

// LibraryExists reports whether an image library exists.
func (s *Store) LibraryExists(ctx context.Context, id int64) (bool, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Library{}).Where("id = ?", id).Count(&n).Error
	return n > 0, err
}

// InsertLibrary stores a new image library.
func (s *Store) InsertLibrary(ctx context.Context, l *Library) error {
	return s.db.Conn(ctx).Create(l).Error
}

// Libraries lists the image libraries by name.
func (s *Store) Libraries(ctx context.Context) ([]Library, error) {
	var out []Library
	err := s.db.Conn(ctx).Order("lower(name)").Find(&out).Error
	return out, err
}

func escapeLike(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] == '_' || s[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
