package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// noQuestion is the answer for a question id the caller does not reach:
// word for word what an id that does not exist gets, so trying ids tells
// nothing about the bank.
func noQuestion() error { return apperr.NotFoundf("question not found") }

// Reach is the bank's one reach policy: which of the questions ids p
// reaches (may find in search, name in what they keep or build: a
// favourite, a saved test, a collection, a note, a report, the tutor) and
// which of them p may edit (and so read the answer side of outside an
// attempt). Only live questions are reached: trashed and unknown ids are in
// neither map. Moderators reach and edit every live question; anyone else
// edits what a grant covers (a category grant over the question's branch,
// a grant on a live quiz carrying it) and reaches that and the questions of
// live published quizzes, which every signed-in user may sit. Nothing else
// reaches: not a favourite (marking one needs reach, so it never widens
// it), not a saved test (built of reached questions), not a stem read on
// the detail route (docs/decisions/bank.md, "Who reaches a question").
func (s *Service) Reach(ctx context.Context, p auth.Principal, ids []int64) (visible, editable map[int64]bool, err error) {
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	return s.reach(ctx, v, ids)
}

// ReachIndexed is Reach for ids search found: search holds only live
// questions (the bank's events take binned ones out), so a moderator, who
// reaches and edits every live question, is answered without the lookup.
func (s *Service) ReachIndexed(ctx context.Context, p auth.Principal, ids []int64) (visible, editable map[int64]bool, err error) {
	if !p.IsModerator() {
		return s.Reach(ctx, p, ids)
	}
	visible, editable = make(map[int64]bool, len(ids)), make(map[int64]bool, len(ids))
	for _, id := range ids {
		visible[id], editable[id] = true, true
	}
	return visible, editable, nil
}

// reach is Reach for a viewer whose grants are read.
func (s *Service) reach(ctx context.Context, v *viewer, ids []int64) (visible, editable map[int64]bool, err error) {
	visible, editable = map[int64]bool{}, map[int64]bool{}
	if len(ids) == 0 {
		return visible, editable, nil
	}
	facts, err := s.store.ReachFacts(ctx, v.quizGrants, ids)
	if err != nil {
		return nil, nil, err
	}
	var t *tree
	if len(v.branches) > 0 && !v.mod() {
		if t, err = s.loadTree(ctx); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range facts {
		edit := v.mod() || f.InGrantedQuiz
		if f.QuestionCategoryID != nil && t != nil {
			for _, root := range v.branches {
				edit = edit || t.within(*f.QuestionCategoryID, root)
			}
		}
		editable[f.ID] = edit
		visible[f.ID] = edit || f.InPublishedQuiz
	}
	return visible, editable, nil
}

// RequireReach refuses, with the 404 of a missing question, unless p
// reaches every one of ids.
func (s *Service) RequireReach(ctx context.Context, p auth.Principal, ids ...int64) error {
	visible, _, err := s.Reach(ctx, p, ids)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !visible[id] {
			return noQuestion()
		}
	}
	return nil
}

// requireEdit refuses someone who may not edit live question id: 403
// saying why where they reach it, otherwise the 404 of a missing question.
func (s *Service) requireEdit(ctx context.Context, v *viewer, id int64, why string) error {
	if v.mod() {
		return nil
	}
	visible, editable, err := s.reach(ctx, v, []int64{id})
	switch {
	case err != nil:
		return err
	case editable[id]:
		return nil
	case visible[id]:
		return apperr.Forbiddenf("%s", why)
	}
	return noQuestion()
}
