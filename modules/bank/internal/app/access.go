package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/auth"
)

// viewer is the caller with the grants that reach into the bank. The bank
// has no owners: moderators edit everything, a grant holder edits what a
// grant covers, and nobody else edits anything.
type viewer struct {
	p          auth.Principal
	branches   []int64 // category-branch grants (roots)
	quizGrants []int64 // quiz grants
}

func (v *viewer) mod() bool { return v.p.IsModerator() }

func (v *viewer) hasGrants() bool { return len(v.branches) > 0 || len(v.quizGrants) > 0 }

// viewerOf reads the caller's grants (moderators need none).
func (s *Service) viewerOf(ctx context.Context, p auth.Principal) (*viewer, error) {
	held, err := identity.HeldBy(ctx, s.ports.Grants, p)
	if err != nil {
		return nil, err
	}
	return &viewer{p: p, branches: held[identity.GrantCategory], quizGrants: held[identity.GrantQuiz]}, nil
}

// canEdit decides whether v may edit q, by the reach policy (reach.go).
// Moderators edit trashed questions too (their versions, their restore).
func (s *Service) canEdit(ctx context.Context, v *viewer, q *store.Question) (bool, error) {
	if v.mod() {
		return true, nil
	}
	if !v.hasGrants() {
		return false, nil
	}
	_, editable, err := s.reach(ctx, v, []int64{q.ID})
	return editable[q.ID], err
}

// editableCategories expands the caller's branch grants into every category
// they cover.
func (v *viewer) editableCategories(t *tree) []int64 {
	var out []int64
	seen := map[int64]bool{}
	for _, root := range v.branches {
		for _, id := range t.branch(root) {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// GrantCovers answers "does grant g cover question q" (identity asks the
// module that owns the tree). Category grants cover the branch, quiz grants
// every question linked to that live quiz; other kinds cover no question.
func (s *Service) GrantCovers(ctx context.Context, g identity.Grant, questionID int64) (bool, error) {
	q, err := s.store.Question(ctx, questionID, false)
	if err != nil {
		return false, notFoundOr(err, "question")
	}
	switch g.Kind {
	case identity.GrantCategory:
		if q.QuestionCategoryID == nil {
			return false, nil
		}
		t, err := s.loadTree(ctx)
		if err != nil {
			return false, err
		}
		return t.within(*q.QuestionCategoryID, g.TargetID), nil
	case identity.GrantQuiz:
		return s.store.InLiveQuiz(ctx, q.ID, []int64{g.TargetID})
	}
	return false, nil
}

// CategoryWithin reports whether category id is root or below it (article
// and deck grants over category branches ask this).
func (s *Service) CategoryWithin(ctx context.Context, id, root int64) (bool, error) {
	t, err := s.loadTree(ctx)
	if err != nil {
		return false, err
	}
	return t.within(id, root), nil
}

// CanEditQuestion reports whether p may edit a live question.
func (s *Service) CanEditQuestion(ctx context.Context, p auth.Principal, questionID int64) (bool, error) {
	q, err := s.liveQuestion(ctx, questionID, false)
	if err != nil {
		return false, err
	}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return false, err
	}
	return s.canEdit(ctx, v, &q.Question)
}
