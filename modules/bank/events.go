package bank

import (
	"context"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/events"
)

// TopicQuestionChanged carries every change to a bank question, in order, on
// one topic (so a consumer never sees a deletion before the creation it
// follows). Published inside the write transaction.
var TopicQuestionChanged = events.NewTopic[QuestionChanged]("bank.question_changed.v1")

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

// QuestionChanged is the payload of TopicQuestionChanged (version 1: a
// change of shape that old consumers cannot read gets a new topic, .v2).
// For purged questions only ID, Change and At are set. Consumers decode it
// with this type; the bank's tests decode every published event with it.
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

// IndexOf is what the bank tells search about a question after change e:
// the search index contract (search.IndexChanged on
// search.TopicIndexChanged), so search keeps no copy of the bank's payload.
// The stem is the title (embedded and matched), the options the body, the
// explanation hidden text: matched only for callers who may edit the
// question (the bank answers through search.Reach).
func IndexOf(e QuestionChanged) search.IndexChanged {
	return search.IndexChanged{Kind: search.KindQuestion, ID: e.ID, Version: int64(e.Version),
		Live: e.Live && e.Change != QuestionDeleted && e.Change != QuestionPurged, Purged: e.Change == QuestionPurged,
		Title: e.Text, Body: strings.Join(e.Options, "\n"), Hidden: e.Explanation, At: e.At}
}

// publisher turns the service's changes into the public events: each
// change on the bank's topic and on the search index's, in the caller's
// transaction.
type publisher struct{ bus events.Publisher }

func (p publisher) QuestionChanged(ctx context.Context, c app.Change) error {
	e := toEvent(c)
	if err := events.Publish(ctx, p.bus, TopicQuestionChanged, e); err != nil {
		return err
	}
	return events.Publish(ctx, p.bus, search.TopicIndexChanged, IndexOf(e))
}

func toEvent(c app.Change) QuestionChanged {
	return QuestionChanged{ID: c.ID, Change: Change(c.Kind), Live: c.Live, Text: c.Text, Options: c.Options,
		Explanation: c.Explanation, CategoryID: c.CategoryID, Version: c.Version, At: c.At}
}
