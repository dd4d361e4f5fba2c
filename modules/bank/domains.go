package bank

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// DomainQuestions lists the ids of the live questions p reaches that are
// filed under the category branch of categoryID (when set) and carry every
// tag in tagIDs, newest first: a blueprint domain drawn "by category branch
// or tag".
func (m *Module) DomainQuestions(ctx context.Context, p auth.Principal, categoryID *int64, tagIDs []int64) ([]int64, error) {
	f := app.BankFilter{TagIDs: tagIDs}
	if categoryID != nil {
		f.CategoryIDs = []int64{*categoryID}
	}
	return m.svc.BankIDs(ctx, p, f)
}
