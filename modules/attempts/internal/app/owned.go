package app

import (
	"context"
	"strings"
	"time"

	"github.com/roundsedu/rounds/platform/apperr"
)

// maxCollectionQuestions bounds one collection.
const maxCollectionQuestions = 1000

// Folder is a learner's folder of collections.
type Folder struct {
	ID          int64
	Name        string
	Collections int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Collection is a learner's named list of questions.
type Collection struct {
	ID          int64
	FolderID    *int64
	Name        string
	Description string
	Questions   int
	QuestionIDs []int64 // filled by the single-collection read only
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Note is a learner's private note on a question.
type Note struct {
	ID         int64
	QuestionID int64
	Body       string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

func cleanName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", apperr.Invalidf(field, "the %s is empty", field)
	}
	return name, nil
}

// checkQuestions makes sure every id is a live bank question.
func (s *Service) checkQuestions(ctx context.Context, ids ...int64) error {
	filings, err := s.ports.Bank.QuestionFilings(ctx, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := filings[id]; !ok {
			return apperr.NotFoundf("question %d not found", id)
		}
	}
	return nil
}
