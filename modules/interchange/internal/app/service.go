// Package app is the interchange module's use cases: importing question
// files into drafts (never straight into the bank) and exporting a quiz's
// questions as a file.
package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
	"github.com/roundsedu/rounds/modules/media"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/storage"
)

// Drafts is the port to the drafts module: imported questions become a
// batch of pending drafts.
type Drafts interface {
	ImportDrafts(ctx context.Context, imp drafts.Import) (*drafts.ImportedBatch, error)
}

// Bank is the port to the question bank: a quiz's questions, answer side
// included, for export.
type Bank interface {
	QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*bank.QuizSnapshot, error)
}

// Ports are the facades interchange asks, filled once every module is built.
type Ports struct {
	Drafts     Drafts
	Bank       Bank
	Flashcards Flashcards
	Media      Media
}

// Config is the interchange section.
type Config struct {
	MaxImportBytes int64 `mapstructure:"max_import_bytes" validate:"gt=0"`
	MaxQuestions   int   `mapstructure:"max_questions" validate:"gt=0"`
	MaxFieldBytes  int   `mapstructure:"max_field_bytes" validate:"gt=0"`
	MaxOptions     int   `mapstructure:"max_options" validate:"gt=1"`

	MaxPackageBytes    int64         `mapstructure:"max_package_bytes" validate:"gt=0"`
	MaxUnpackedBytes   int64         `mapstructure:"max_unpacked_bytes" validate:"gt=0"`
	MaxPackageEntries  int           `mapstructure:"max_package_entries" validate:"gt=0"`
	MaxNotes           int           `mapstructure:"max_notes" validate:"gt=0"`
	MaxReviews         int           `mapstructure:"max_reviews" validate:"gt=0"`
	MaxRowBytes        int64         `mapstructure:"max_row_bytes" validate:"gt=0"`
	MaxReadBytes       int64         `mapstructure:"max_read_bytes" validate:"gt=0"`
	PackageReadTimeout time.Duration `mapstructure:"package_read_timeout" validate:"gt=0"`
	MaxMediaMapBytes   int64         `mapstructure:"max_media_map_bytes" validate:"gt=0"`
	MaxMediaFiles      int           `mapstructure:"max_media_files" validate:"gt=0"`
	MaxMediaFileBytes  int64         `mapstructure:"max_media_file_bytes" validate:"gt=0"`
	MaxMediaBytes      int64         `mapstructure:"max_media_bytes" validate:"gt=0"`
}

func (c Config) limits() format.Limits {
	return format.Limits{MaxQuestions: c.MaxQuestions, MaxFieldBytes: c.MaxFieldBytes, MaxOptions: c.MaxOptions,
		MaxPictureBytes: c.MaxMediaFileBytes}
}

// Format is a question file format: its name in routes and batches, its
// label, its reader and writer, the media type of its files, and whether
// they carry pictures.
type Format struct {
	Name      string
	Label     string
	MediaType string
	Ext       string
	Pictures  bool
	Read      func(io.Reader, format.Limits) (*format.Result, error)
	Write     func(io.Writer, []format.Question) error
}

// Formats are the question file formats, by route name.
var Formats = map[string]Format{
	"moodle-xml": {Name: "moodle_xml", Label: "Moodle XML", MediaType: "application/xml; charset=utf-8", Ext: "xml", Pictures: true,
		Read: format.ReadMoodle, Write: format.WriteMoodle},
	"gift": {Name: "gift", Label: "GIFT", MediaType: "text/plain; charset=utf-8", Ext: "gift.txt",
		Read: format.ReadGIFT, Write: format.WriteGIFT},
}

// Service holds the module's use cases.
type Service struct {
	db    *db.DB
	files Files
	ports *Ports
	cfg   Config
	log   *slog.Logger
}

// New builds the service.
func New(d *db.DB, files Files, ports *Ports, cfg Config, log *slog.Logger) *Service {
	return &Service{db: d, files: files, ports: ports, cfg: cfg, log: log}
}

// Log is the module's logger (a streamed export cut short is only logged).
func (s *Service) Log() *slog.Logger { return s.log }

// Config is the module's configuration.
func (s *Service) Config() Config { return s.cfg }

// Imported is the outcome of an import: the batch of drafts and each
// question of the file that was left out, with the reason.
type Imported struct {
	Batch   *drafts.ImportedBatch
	Refused []format.Refusal
}

// Import reads a question file and files what the bank can hold as one
// batch of pending drafts. A file that cannot be read, or of which no
// question can be imported, stores nothing.
func (s *Service) Import(ctx context.Context, p auth.Principal, f Format, filename string, body []byte, categoryID *int64) (*Imported, error) {
	res, err := f.Read(bytes.NewReader(body), s.cfg.limits())
	if err != nil {
		return nil, readError(f, err)
	}
	if len(res.Questions) == 0 {
		return nil, refusedAll(res.Refused, "questions")
	}
	// The questions' pictures are kept through media (sniffed, bounded,
	// decoded, stored) in the transaction that files the drafts.
	var imgs []media.NamedImage
	picture := func(pic *format.Picture) int {
		if pic == nil {
			return -1
		}
		imgs = append(imgs, media.NamedImage{Name: pic.Name, Data: pic.Data})
		return len(imgs) - 1
	}
	pics := make([][2]int, len(res.Questions))
	for i, q := range res.Questions {
		pics[i] = [2]int{picture(q.Image), picture(q.ExplanationImage)}
	}
	file := func(ctx context.Context, stored []media.StoredImage) (b *drafts.ImportedBatch, err error) {
		key := func(i int) string {
			if i < 0 {
				return ""
			}
			return stored[i].Path
		}
		imp := drafts.Import{By: p.UserID, Source: source(f, filename), Extractor: f.Name, CategoryID: categoryID,
			Drafts: make([]drafts.ImportedDraft, len(res.Questions))}
		for i, q := range res.Questions {
			imp.Drafts[i] = drafts.ImportedDraft{Type: q.Type, Text: q.Text, Options: q.Options,
				CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation, ImagePath: key(pics[i][0]),
				ExplanationImagePath: key(pics[i][1])}
		}
		return s.ports.Drafts.ImportDrafts(ctx, imp)
	}
	var b *drafts.ImportedBatch
	if len(imgs) == 0 {
		b, err = file(ctx, nil)
	} else {
		err = s.ports.Media.StoreImages(ctx, p, imgs, func(ctx context.Context, stored []media.StoredImage) error {
			b, err = file(ctx, stored)
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	return &Imported{Batch: b, Refused: res.Refused}, nil
}

func source(f Format, filename string) string {
	filename = strings.TrimSpace(filename)
	if filename == "" {
		return f.Label + " import"
	}
	const maxName = 200
	if r := []rune(filename); len(r) > maxName {
		filename = string(r[:maxName])
	}
	return fmt.Sprintf("%s (%s)", filename, f.Label)
}

// readError turns a reader's refusal of the whole file into the envelope.
func readError(f Format, err error) error {
	var tooMany format.ErrTooMany
	var malformed format.ErrMalformed
	switch {
	case errors.Is(err, format.ErrDoctype):
		return apperr.Invalidf("body", "%v; nothing was imported", err)
	case errors.As(err, &tooMany):
		return apperr.New(apperr.TooLarge, "%v; nothing was imported", err)
	case errors.As(err, &malformed):
		return apperr.BadRequestf("not a %s file: %v; nothing was imported", f.Label, err)
	}
	return err
}

// refusedAll is the 422 of a file none of whose items (questions, notes)
// can be imported, one field per refused item.
func refusedAll(refused []format.Refusal, items string) error {
	if len(refused) == 0 {
		return apperr.Invalidf("body", "the file holds no %s; nothing was imported", items)
	}
	out := &apperr.Error{Code: apperr.Invalid,
		Message: fmt.Sprintf("none of the file's %d %s can be imported; nothing was imported", len(refused), items)}
	for _, r := range refused {
		out.Fields = append(out.Fields, apperr.Field{Field: fmt.Sprintf("body.%s[%d]", items, r.Item),
			Message: r.Reason, Type: "value_error"})
	}
	return out
}

// Export writes the questions of a quiz p may see, answers and per-option
// feedback included, in the format.
func (s *Service) Export(ctx context.Context, p auth.Principal, f Format, quizID int64) (*bytes.Buffer, string, error) {
	quiz, err := s.ports.Bank.QuizForSitting(ctx, p, quizID)
	if errors.Is(err, bank.ErrNotFound) {
		return nil, "", apperr.NotFoundf("quiz %d not found", quizID)
	}
	if err != nil {
		return nil, "", err
	}
	qs := make([]format.Question, len(quiz.Questions))
	for i, q := range quiz.Questions {
		qs[i] = format.Question{Type: q.Type, Name: fmt.Sprintf("Question %d", q.ID), Text: q.Text,
			Options: q.Options, OptionFeedback: q.OptionExplanations, CorrectAnswer: q.CorrectAnswer,
			Explanation: q.Explanation, Category: q.CategoryName}
		if f.Pictures {
			if qs[i].Image, err = s.picture(ctx, q.ImagePath); err != nil {
				return nil, "", err
			}
			if qs[i].ExplanationImage, err = s.picture(ctx, q.ExplanationImagePath); err != nil {
				return nil, "", err
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, qs); err != nil {
		return nil, "", err
	}
	return &buf, fmt.Sprintf("quiz-%d.%s", quizID, f.Ext), nil
}

// picture reads a question's picture from storage for export (nil none);
// one missing from storage is left out, as in the QTI export. A picture is
// a still, bounded by media when it was stored.
func (s *Service) picture(ctx context.Context, key string) (*format.Picture, error) {
	if key == "" {
		return nil, nil
	}
	rc, err := s.files.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("interchange: question image %s: %w", key, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, s.cfg.MaxMediaFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("interchange: question image %s: %w", key, err)
	}
	return &format.Picture{Name: path.Base(key), Data: data}, nil
}
