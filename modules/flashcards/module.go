// Package flashcards owns flashcard decks and their cards, who may edit
// and study them, and each learner's FSRS schedule aimed at an optional
// exam date. Categories are the bank's; grants are identity's; article
// links and pictures are checked through the library and media when they
// are part of the service.
package flashcards

import (
	"context"
	_ "embed"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	flashcardshttp "github.com/roundsedu/rounds/modules/flashcards/internal/http"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/module"
)

// Config is the flashcards section.
type Config = app.Config

//go:embed config.yaml
var defaults []byte

// Module is the flashcards bounded context.
type Module struct{ svc *app.Service }

// New builds the module; it asks identity for grants and people, the bank
// for categories and questions, and whichever modules check articles and
// pictures.
func New(_ context.Context, k *module.Kit) (module.Module, error) {
	cfg, err := module.Section[Config](k, "flashcards", defaults)
	if err != nil {
		return nil, err
	}
	ports := &app.Ports{}
	module.Need(k, "identity", &ports.Identity)
	module.Need(k, "bank", &ports.Bank)
	module.NeedAll(k, &ports.Articles)
	module.NeedAll(k, &ports.Pictures)
	module.NeedAll(k, &ports.ExamDates)
	return &Module{svc: app.New(k.DB, ports, cfg)}, nil
}

// Name implements module.Module.
func (m *Module) Name() string { return "flashcards" }

// Routes registers the deck, card and study operations.
func (m *Module) Routes(r *httpapi.Router) { flashcardshttp.Register(r, m.svc) }
