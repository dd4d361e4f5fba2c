// Package interchange moves questions between the bank and other systems'
// files: Moodle XML and GIFT import (into drafts, never straight into the bank),
// export of a quiz's questions, and Anki packages imported as flashcard decks.
package interchange

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/interchange/internal/app"
	interchangehttp "github.com/roundsedu/rounds/modules/interchange/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the interchange section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the interchange bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it files question imports through drafts, reads
// quizzes from the bank, makes imported decks through flashcards and keeps
// their pictures through media.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "interchange", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "drafts", &ports.Drafts)
	module.Need(k, "bank", &ports.Bank)
	module.Need(k, "flashcards", &ports.Flashcards)
	module.Need(k, "media", &ports.Media)
	return &Module{svc: app.New(k.DB, k.Storage, ports, cfg, k.Log)}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "interchange" }

// Routes registers the import and export operations.
func (m *Module) Routes(r *httpapi.Router) { interchangehttp.Register(r, m.svc) }
