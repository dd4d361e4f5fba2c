package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Tag is a tag a question carries or a filter names.
type Tag struct {
	ID   int64
	Type string
	Name string
	// Derived: carried through the category tree (system tags), not directly.
	Derived bool
}

// errSitFirst is the refusal of the answer side outside an authorised attempt.
var errSitFirst = apperr.Forbiddenf(
	"the answer side opens inside your own attempt: sit this question in a quiz (study mode, or submit a timed attempt) and pass its attempt_id")

// Detail shows one question. Stem, options, type and filing go to anyone
// signed in; the answer side only to those who may edit it, or inside an
// authorised attempt named by attemptID. Asking with an attempt that does
// not authorise it is refused (403). Trashed questions are visible to
// moderators only.
func (s *Service) Detail(ctx context.Context, p auth.Principal, id int64, attemptID *int64) (*Question, error) {
	row, err := s.store.Question(ctx, id, false)
	if err != nil {
		return nil, notFoundOr(err, "question")
	}
	if row.DeletedAt != nil && !p.IsModerator() {
		return nil, apperr.NotFoundf("question not found")
	}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, err
	}
	q := toQuestion(row)
	if q.CanEdit, err = s.canEdit(ctx, v, &row.Question); err != nil {
		return nil, err
	}
	q.AnswersShown = q.CanEdit
	if !q.CanEdit && attemptID != nil {
		ok, err := s.ports.Attempts.AuthorizesAnswers(ctx, p.UserID, *attemptID, id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errSitFirst
		}
		q.AnswersShown = true
	}
	if !q.AnswersShown {
		q.redact()
	}
	if q.Tags, err = s.tagsOf(ctx, q.ID, q.CategoryID); err != nil {
		return nil, err
	}
	return q, nil
}

// tagsOf lists the tags a question carries: its own, then the system its
// category carries or inherits.
func (s *Service) tagsOf(ctx context.Context, id int64, category *int64) ([]Tag, error) {
	rows, err := s.store.QuestionTags(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]Tag, 0, len(rows)+1)
	for _, r := range rows {
		out = append(out, Tag{ID: r.ID, Type: r.Type, Name: r.Name})
	}
	if category == nil {
		return out, nil
	}
	t, err := s.loadTree(ctx)
	if err != nil {
		return nil, err
	}
	if sys := t.system(*category); sys != nil {
		tags, err := s.store.TagsByID(ctx, []int64{*sys})
		if err != nil {
			return nil, err
		}
		for _, r := range tags {
			out = append(out, Tag{ID: r.ID, Type: r.Type, Name: r.Name, Derived: true})
		}
	}
	return out, nil
}
