package search

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/events"
)

// The index contract. A module that owns searchable items (the bank's
// questions, the library's article sections, decks, media) keeps them in
// the index by publishing IndexChanged in the transaction that changed the
// item, and tells search who may find them by implementing Reach. Search
// never imports those modules, and a new module adds a kind without
// touching search beyond naming the kind.

// TopicIndexChanged carries every change to an indexed item.
var TopicIndexChanged = events.NewTopic[IndexChanged]("search.index_changed.v1")

// IndexChanged is the searchable state of one item, as it is after the
// change. Search keeps the newest version of each (kind, id) and ignores
// older or repeated ones; a purge is final.
type IndexChanged struct {
	Kind    Kind  `json:"kind"`
	ID      int64 `json:"id"`
	Version int64 `json:"version"` // increases with every change of the item
	// Live is false while the item must not be found (trashed,
	// unpublished): its row is kept so it comes back without re-embedding.
	Live bool `json:"live"`
	// Purged: the item is gone for good.
	Purged bool `json:"purged,omitempty"`
	// Title is embedded and matched (a question's stem, a section's heading
	// with its article's title).
	Title string `json:"title,omitempty"`
	// Body is matched, never embedded (options, a section's text).
	Body string `json:"body,omitempty"`
	// Hidden is answer-side text (explanations): matched only for callers
	// whom Reach says may edit the item, so a learner cannot probe answers
	// by searching.
	Hidden string    `json:"hidden,omitempty"`
	At     time.Time `json:"at"`
}

// Reach is implemented by each module that owns indexed items: search asks
// it, after ranking, which of the items a caller may find and whose hidden
// text the caller may search.
type Reach interface {
	// Kinds are the kinds this module owns.
	Kinds() []Kind
	// Reachable returns, of ids (all of kind), those p may see, and of
	// those, the ones whose answer side p may read (an editor's).
	Reachable(ctx context.Context, p auth.Principal, kind Kind, ids []int64) (visible, editable map[int64]bool, err error)
}
