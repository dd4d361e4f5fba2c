package app

import (
	"github.com/roundsedu/rounds/modules/ai"
	"github.com/roundsedu/rounds/modules/analytics"
	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/feedback"
	"github.com/roundsedu/rounds/modules/flashcards"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/modules/interchange"
	"github.com/roundsedu/rounds/modules/labs"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/modules/media"
	"github.com/roundsedu/rounds/modules/plans"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/modules/share"
	"github.com/roundsedu/rounds/modules/site"
	"github.com/roundsedu/rounds/platform/module"
)

// Modules are the service's bounded contexts, one line each. A module is
// built in this order (its constructor may only declare what it needs of
// the others: the app wires every Need once all are built), and its
// start-up work runs in this order too.
var Modules = []module.Constructor{
	identity.New,
	search.New,
	bank.New,
	drafts.New,
	attempts.New,
	site.New,
	analytics.New,
	feedback.New,
	share.New,
	ai.New,
	flashcards.New,
	library.New,
	media.New,
	labs.New,
	plans.New,
	interchange.New,
}

// Pairs are the modules that call each other at runtime (each Needs the
// other's facade), one line each with why. Building refuses two modules
// that Need each other without a line here, so no cycle hides in a
// constructor.
var Pairs = []module.Pair{
	{"ai", "bank"},       // ai reads and rates questions; the bank classifies tags with ai's keyword model
	{"ai", "library"},    // ai places a found section in its article; the library writes with ai's models
	{"ai", "search"},     // ai finds similar stems and AI Mode's shortlist; search embeds with ai's models
	{"attempts", "bank"}, // attempts runs the bank's quizzes; the bank asks whether an attempt opens an answer side
}
