package bank

import "time"

// TopicQuestionChanged carries every change to a bank question, in order, on
// one topic (so a consumer never sees a deletion before the creation it
// follows). Published inside the write transaction.
const TopicQuestionChanged = "bank.question_changed.v1"

// Change names what happened to a question.
type Change string

// The changes.
const (
	QuestionCreated  Change = "created"
	QuestionUpdated  Change = "updated"
	QuestionDeleted  Change = "deleted"  // moved to the trash: hide from search
	QuestionRestored Change = "restored" // back from the trash
	QuestionPurged   Change = "purged"   // removed for good
)

// QuestionChanged is the payload. For purged questions only ID, Change and
// At are set. Text fields are what a search index needs.
type QuestionChanged struct {
	ID          int64     `json:"id"`
	Change      Change    `json:"change"`
	Live        bool      `json:"live"` // false while trashed or once purged
	Text        string    `json:"text"` // the stem
	Options     []string  `json:"options,omitempty"`
	Explanation string    `json:"explanation,omitempty"`
	CategoryID  *int64    `json:"category_id,omitempty"`
	Version     int       `json:"version"` // increases with every change
	At          time.Time `json:"at"`
}
