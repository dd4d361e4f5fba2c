package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/auth"
)

// SearchReach tells search which of the questions ids p may find and whose
// answer side p may read. Moderators reach the whole bank (and search
// only holds live questions the bank published), so they are not looked
// up. Anyone else finds what reaches them in the bank listing (what their
// grants cover, their favourites) and the questions of published quizzes
// (whose stems they read when sitting them); they may read the answer side
// only where they may edit (spec: answer-side redaction).
func (s *Service) SearchReach(ctx context.Context, p auth.Principal, ids []int64) (visible, editable map[int64]bool, err error) {
	visible, editable = map[int64]bool{}, map[int64]bool{}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	if v.mod() {
		for _, id := range ids {
			visible[id], editable[id] = true, true
		}
		return visible, editable, nil
	}
	facts, err := s.store.ReachFacts(ctx, p.UserID, v.quizGrants, ids)
	if err != nil {
		return nil, nil, err
	}
	var t *tree
	if len(v.branches) > 0 {
		if t, err = s.loadTree(ctx); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range facts {
		edit := f.InGrantedQuiz
		if f.QuestionCategoryID != nil && t != nil {
			for _, root := range v.branches {
				edit = edit || t.within(*f.QuestionCategoryID, root)
			}
		}
		editable[f.ID] = edit
		visible[f.ID] = edit || f.Favorite || f.InPublishedQuiz
	}
	return visible, editable, nil
}
