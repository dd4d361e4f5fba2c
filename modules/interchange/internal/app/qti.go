package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/storage"
)

// Files is the stored files' port (platform/storage): a question image's
// bytes by the key the bank gives.
type Files interface {
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Size(ctx context.Context, key string) (int64, error)
}

// QTIExport is a quiz read and ready to stream as a QTI 2.1 package.
type QTIExport struct {
	Filename string
	testID   string
	title    string
	items    []format.QTIItem
	images   []qtiImage
	files    Files
}

type qtiImage struct{ path, key string }

// Write streams the package; the quiz was read before, so a failure here
// is the connection's or the storage's, and the archive is cut short.
func (e *QTIExport) Write(ctx context.Context, w io.Writer) error {
	files := make([]format.File, len(e.images))
	for i, img := range e.images {
		files[i] = format.File{Name: img.path, Open: func() (io.ReadCloser, error) { return e.files.Open(ctx, img.key) }}
	}
	return format.WriteQTI(w, e.testID, e.title, e.items, files)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ExportQTI reads a quiz p may see (moderators: answers included) and its
// question images' sizes, so that every refusal comes before the first byte
// is streamed. An image missing from storage is left out of the package.
func (s *Service) ExportQTI(ctx context.Context, p auth.Principal, quizID int64) (*QTIExport, error) {
	quiz, err := s.ports.Bank.QuizForSitting(ctx, p, quizID)
	if errors.Is(err, bank.ErrNotFound) {
		return nil, apperr.NotFoundf("quiz %d not found", quizID)
	}
	if err != nil {
		return nil, err
	}
	out := &QTIExport{Filename: fmt.Sprintf("quiz-%d-qti.zip", quizID), testID: fmt.Sprintf("quiz_%d", quizID),
		title: quiz.Title, items: make([]format.QTIItem, len(quiz.Questions)), files: s.files}
	names := map[string]string{} // storage key → package path ("" when missing)
	image := func(key string) (string, error) {
		if key == "" {
			return "", nil
		}
		if name, ok := names[key]; ok {
			return name, nil
		}
		_, err := s.files.Size(ctx, key)
		if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrBadKey) {
			names[key] = ""
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("interchange: question image %s: %w", key, err)
		}
		name := fmt.Sprintf("images/%d-%s", len(out.images)+1, unsafeName.ReplaceAllString(path.Base(key), "_"))
		names[key] = name
		out.images = append(out.images, qtiImage{path: name, key: key})
		return name, nil
	}
	for i, q := range quiz.Questions {
		it := format.QTIItem{ID: fmt.Sprintf("item_%d", q.ID), Question: format.Question{Type: q.Type,
			Name: fmt.Sprintf("Question %d", q.ID), Text: q.Text, Options: q.Options, OptionFeedback: q.OptionExplanations,
			CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation}}
		if it.Image, err = image(q.ImagePath); err != nil {
			return nil, err
		}
		if it.ExplanationImage, err = image(q.ExplanationImagePath); err != nil {
			return nil, err
		}
		out.items[i] = it
	}
	return out, nil
}
