package http

import (
	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// Register declares every bank operation.
func Register(r *httpapi.Router, s *app.Service) {
	registerQuestions(r, s)
	registerBank(r, s)
	registerQuizzes(r, s)
	registerCategories(r, s)
	registerTags(r, s)
	registerFavorites(r, s)
	registerSnapshots(r, s)
	registerSavedTests(r, s)
	registerCustomBlocks(r, s)
}
