package bank

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// SeesQuestionImage tells media whether p may see a stored file as a
// question image outside an attempt: a live question's stem image by
// anyone signed in, an answer-side image by the question's editors.
func (m *Module) SeesQuestionImage(ctx context.Context, p auth.Principal, key string) (bool, error) {
	return m.svc.SeesQuestionImage(ctx, p, key)
}
