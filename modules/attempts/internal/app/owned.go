package app

import (
	"strings"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// maxCollectionQuestions bounds one collection.
const maxCollectionQuestions = 1000

// Folder is a learner's folder of collections with how many it holds: the
// stored row, since the service shows exactly it.
type Folder = store.FolderWithCount

// Collection is a learner's named list of questions: the stored row with
// its count, and the question ids when one collection is read.
type Collection struct {
	store.CollectionWithCount
	QuestionIDs []int64 // filled by the single-collection read only
}

// Note is a learner's note on a question: the stored row.
type Note = store.Note

func cleanName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", apperr.Invalidf(field, "the %s is empty", field)
	}
	return name, nil
}
