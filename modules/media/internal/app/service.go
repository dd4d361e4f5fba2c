// Package app is the media module's logic: assets and their metadata,
// figures uploaded or drawn (placed in articles through the library),
// the bin and its purge, and serving stored files with per-file
// authorisation and WebP thumbnails.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/modules/media/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/storage"
)

// Filter picks the assets of the media library.
type Filter = store.Filter

// Config is the media section.
type Config struct {
	MaxStillBytes int64         `mapstructure:"max_still_bytes" validate:"gte=1024"`
	MaxClipBytes  int64         `mapstructure:"max_clip_bytes" validate:"gte=1024"`
	MaxSVGBytes   int           `mapstructure:"max_svg_bytes" validate:"gte=1024"`
	MaxSide       int           `mapstructure:"max_side" validate:"gte=16"`
	MaxPixels     int64         `mapstructure:"max_pixels" validate:"gte=256"`
	BinRetention  time.Duration `mapstructure:"bin_retention" validate:"gt=0"`
	PurgeHour     uint          `mapstructure:"purge_hour" validate:"lte=23"`
}

// CardPictures is what flashcards offers: whether p may study a deck with
// a card showing the asset.
type CardPictures interface {
	SeesCardPicture(ctx context.Context, p auth.Principal, assetID int64) (bool, error)
}

// QuestionImages is what the bank offers: whether p may see a stored file
// as a question image outside an attempt (the question detail's rule).
type QuestionImages interface {
	SeesQuestionImage(ctx context.Context, p auth.Principal, key string) (bool, error)
}

// Ports are the facades the media module asks, filled once every module is
// built. Cards is optional (without flashcards no asset is a card picture).
type Ports struct {
	Library   library.Figures
	Attempts  attempts.Facade
	Questions QuestionImages
	Cards     []CardPictures
}

// Service holds the media rules.
type Service struct {
	db     *db.DB
	store  *store.Store
	files  *storage.Store
	ports  *Ports
	cfg    Config
	log    *slog.Logger
	thumbs singleflight.Group
}

// New builds the service.
func New(d *db.DB, files *storage.Store, ports *Ports, cfg Config, log *slog.Logger) *Service {
	return &Service{db: d, store: store.New(d), files: files, ports: ports, cfg: cfg, log: log}
}

// Asset is an asset as the service gives it.
type Asset = store.Asset

// Modalities are the values an asset's modality may take.
var Modalities = []string{"radiograph", "ultrasound", "ct", "mri", "fluoroscopy", "nuclear", "photograph",
	"histology", "illustration", "diagram", "chart"}

// Meta is what an editor says about an asset.
type Meta struct {
	Title, Caption, Source, SourceURL, License string
	Modality                                   *string
	LibraryID, CategoryID                      *int64
}

// attribution matches licences that oblige a credit (the spec's list, any
// case and spacing around the words).
var attribution = regexp.MustCompile(`(?i)cc[\s-]*by|gfdl|attribution`)

// noDerivatives matches licences that forbid derivatives (CC BY-ND,
// BY-NC-ND, "no derivatives").
var noDerivatives = regexp.MustCompile(`(?i)(^|[^a-z])nd([^a-z]|$)|no[\s-]*deriv`)

func noNUL(field, v string) error {
	if strings.IndexByte(v, 0) >= 0 {
		return apperr.Invalidf(field, "%s must not contain NUL bytes", field)
	}
	return nil
}

// checkMeta applies the figure rules to what an editor sent: a caption is
// required (it becomes the alt text), a credit when the licence demands
// attribution, a modality from the vocabulary, an existing library.
func (s *Service) checkMeta(ctx context.Context, m *Meta) error {
	m.Title, m.Caption = strings.TrimSpace(m.Title), strings.TrimSpace(m.Caption)
	m.Source, m.SourceURL, m.License = strings.TrimSpace(m.Source), strings.TrimSpace(m.SourceURL), strings.TrimSpace(m.License)
	for f, v := range map[string]string{"title": m.Title, "caption": m.Caption, "credit": m.Source,
		"source_url": m.SourceURL, "license": m.License} {
		if err := noNUL(f, v); err != nil {
			return err
		}
		if len(v) > 2000 {
			return apperr.Invalidf(f, "%s is at most 2,000 bytes", f)
		}
	}
	if m.Caption == "" {
		return apperr.Invalidf("caption", "a figure needs a caption (it becomes the alt text)")
	}
	if m.Source == "" && attribution.MatchString(m.License) {
		return apperr.Invalidf("credit", "licence %q requires a credit", m.License)
	}
	if m.SourceURL != "" && !strings.HasPrefix(m.SourceURL, "https://") && !strings.HasPrefix(m.SourceURL, "http://") {
		return apperr.Invalidf("source_url", "source_url must be an http or https address")
	}
	if m.Modality != nil && !slices.Contains(Modalities, *m.Modality) {
		return apperr.Invalidf("modality", "modality must be one of %s", strings.Join(Modalities, ", "))
	}
	if m.LibraryID != nil {
		ok, err := s.store.LibraryExists(ctx, *m.LibraryID)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Invalidf("library_id", "image library %d does not exist", *m.LibraryID)
		}
	}
	return nil
}

// newKey makes a fresh storage key for a file of the given extension.
func newKey(ext string, now time.Time) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "media/" + now.UTC().Format("2006/01") + "/" + hex.EncodeToString(b) + "." + ext
}

// Lookup loads an asset; binned ones only for moderators.
func (s *Service) Lookup(ctx context.Context, id int64, moderator bool) (*Asset, error) {
	a, err := s.store.Asset(ctx, id, db.NoLock)
	if db.IsNotFound(err) || (err == nil && (a.PurgedAt != nil || (a.DeletedAt != nil && !moderator))) {
		return nil, errAssetNotFound()
	}
	return a, err
}

// CardPicture checks an asset p puts on a card (usable by p, an image)
// and gives its overlay shapes, from which image cards take their masks.
func (s *Service) CardPicture(ctx context.Context, p auth.Principal, id int64) ([]Shape, error) {
	a, err := s.Usable(ctx, p, id, db.NoLock)
	if err != nil {
		return nil, err
	}
	if a.Kind != "image" {
		return nil, apperr.Invalidf("body.picture_id", "media asset %d is a clip: a card picture is an image", id)
	}
	return a.Overlay, nil
}

// List pages through assets (moderators), newest first; search matches
// title, caption and credit and is not reranked.
func (s *Service) List(ctx context.Context, f store.Filter, limit, offset int) ([]Asset, int64, error) {
	return s.store.List(ctx, f, limit, offset)
}

// Log is the module's logger.
func (s *Service) Log() *slog.Logger { return s.log }

// Library is an image library.
type Library = store.Library

// CreateLibrary makes an image library (moderators); names are unique in
// any case.
func (s *Service) CreateLibrary(ctx context.Context, name string) (*Library, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return nil, apperr.Invalidf("name", "a library name is 1 to 200 characters")
	}
	l := &Library{Name: name}
	if err := s.store.InsertLibrary(ctx, l); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, apperr.Conflictf("an image library named %q exists", name)
		}
		return nil, err
	}
	return l, nil
}

// Libraries lists the image libraries by name.
func (s *Service) Libraries(ctx context.Context) ([]Library, error) { return s.store.Libraries(ctx) }
