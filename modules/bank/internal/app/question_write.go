package app

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// NewQuestion is a question to file into the bank.
type NewQuestion struct {
	Content
	CategoryID *int64
}

// CreateQuestion files a new question (moderators only).
func (s *Service) CreateQuestion(ctx context.Context, p auth.Principal, in NewQuestion) (*Question, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators create questions")
	}
	var out *Question
	err := s.write(ctx, func(ctx context.Context) error {
		ids, err := s.createQuestions(ctx, p.UserID, []NewQuestion{in}, "")
		if err != nil {
			return err
		}
		row, err := s.store.Question(ctx, ids[0], false)
		if err != nil {
			return err
		}
		out = toQuestion(row)
		out.CanEdit, out.AnswersShown = true, true
		return nil
	})
	return out, err
}

// createQuestions validates and stores questions in the transaction on ctx
// and publishes their creation. Field names in errors get prefix (e.g.
// "questions[2].") when several are filed at once.
func (s *Service) createQuestions(ctx context.Context, by int64, qs []NewQuestion, prefix string) ([]int64, error) {
	var bad []apperr.Field
	var categories []int64
	for i := range qs {
		for _, f := range qs[i].normalize() {
			f.Field = prefixField(prefix, i, f.Field)
			bad = append(bad, f)
		}
		if c := qs[i].CategoryID; c != nil {
			categories = append(categories, *c)
		}
	}
	if len(bad) > 0 {
		return nil, invalid(bad)
	}
	ids := make([]int64, 0, len(qs))
	err := s.write(ctx, func(ctx context.Context) error {
		if len(categories) > 0 {
			// Share-locked: a category delete cannot slip in before the insert.
			found, err := s.store.LockCategories(ctx, dedupe(categories))
			if err != nil {
				return err
			}
			for i := range qs {
				if c := qs[i].CategoryID; c != nil && !slices.Contains(found, *c) {
					bad = append(bad, apperr.Field{Field: prefixField(prefix, i, "question_category_id"),
						Message: "no such question category", Type: "value_error"})
				}
			}
			if len(bad) > 0 {
				return invalid(bad)
			}
		}
		for i := range qs {
			row := &store.Question{QuestionCategoryID: qs[i].CategoryID}
			if by != 0 { // 0: filed by the service itself (demo data)
				row.CreatedBy = &by
			}
			qs[i].apply(row)
			if err := s.store.InsertQuestion(ctx, row); err != nil {
				return err
			}
			if err := s.publish(ctx, ChangeCreated, row); err != nil {
				return err
			}
			ids = append(ids, row.ID)
		}
		return nil
	})
	return ids, err
}

func prefixField(prefix string, i int, field string) string {
	if prefix == "" {
		return field
	}
	return prefix + "[" + strconv.Itoa(i) + "]." + field
}

// Patch is a partial change of a question's content: nil fields stay.
type Patch struct {
	Type, Text, CorrectAnswer, Explanation, AttendingTip *string
	ExplanationImagePath, ImagePath                      *string
	Options, OptionExplanations, KeyPoints               *[]string
	Figures                                              *[]Figure
	// StaleExplanations drops the per-option explanations when the options
	// change and the patch cannot carry new ones (the quiz question route).
	StaleExplanations bool
}

func (pt Patch) onto(c Content) Content {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&c.Type, pt.Type)
	set(&c.Text, pt.Text)
	set(&c.CorrectAnswer, pt.CorrectAnswer)
	set(&c.Explanation, pt.Explanation)
	set(&c.AttendingTip, pt.AttendingTip)
	set(&c.ExplanationImagePath, pt.ExplanationImagePath)
	set(&c.ImagePath, pt.ImagePath)
	if pt.Options != nil {
		if pt.StaleExplanations && !slices.Equal(c.Options, *pt.Options) {
			c.OptionExplanations = []string{}
		}
		c.Options = *pt.Options
	}
	if pt.OptionExplanations != nil {
		c.OptionExplanations = *pt.OptionExplanations
	}
	if pt.KeyPoints != nil {
		c.KeyPoints = *pt.KeyPoints
	}
	if pt.Figures != nil {
		c.Figures = *pt.Figures
	}
	return c
}

// editTarget locks a question for an edit by v: 404 when missing (or
// trashed, to anyone but a moderator), 409 when a moderator edits one in the
// trash, 403 when v may not edit it.
func (s *Service) editTarget(ctx context.Context, v *viewer, id int64) (*store.QuestionWithFiling, error) {
	q, err := s.store.Question(ctx, id, true)
	if err != nil {
		return nil, notFoundOr(err, "question")
	}
	if q.DeletedAt != nil {
		if !v.mod() {
			return nil, apperr.NotFoundf("question not found")
		}
		return nil, apperr.Conflictf("the question is in the trash: restore it before editing")
	}
	if err := s.requireEdit(ctx, v, id, "only moderators and holders of a grant covering this question may edit it"); err != nil {
		return nil, err
	}
	return q, nil
}

// UpdateQuestion applies a patch (editors only). Rule failures answer 422.
func (s *Service) UpdateQuestion(ctx context.Context, p auth.Principal, id int64, pt Patch) (*Question, error) {
	return s.edit(ctx, p, id, invalid, func(_ context.Context, q *store.QuestionWithFiling) (Content, error) {
		return pt.onto(contentOf(&q.Question)), nil
	})
}

// edit is every change of a question's content, in one transaction: lock
// the question for p (editTarget), work out its next content from the
// locked row, check it (refuse turns the problems into the answer), then
// rewrite it with a snapshot of the prior content first.
func (s *Service) edit(ctx context.Context, p auth.Principal, id int64, refuse func([]apperr.Field) *apperr.Error,
	next func(ctx context.Context, q *store.QuestionWithFiling) (Content, error)) (*Question, error) {
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, err
	}
	var out *Question
	err = s.write(ctx, func(ctx context.Context) error {
		q, err := s.editTarget(ctx, v, id)
		if err != nil {
			return err
		}
		c, err := next(ctx, q)
		if err != nil {
			return err
		}
		if bad := c.normalize(); len(bad) > 0 {
			return refuse(bad)
		}
		if err := s.rewrite(ctx, p.UserID, q, c); err != nil {
			return err
		}
		out = toQuestion(q)
		out.CanEdit, out.AnswersShown = true, true
		return nil
	})
	return out, err
}

// rewrite replaces q's content with next, writing a snapshot of the prior
// content first; an identical content changes nothing and writes nothing.
func (s *Service) rewrite(ctx context.Context, by int64, q *store.QuestionWithFiling, next Content) error {
	prior := contentOf(&q.Question)
	if reflect.DeepEqual(prior, next) {
		return nil
	}
	snap, err := json.Marshal(toSnapshot(prior))
	if err != nil {
		return err
	}
	if err := s.store.InsertVersion(ctx, &store.Version{QuestionID: q.ID, Snapshot: snap, EditedBy: by}); err != nil {
		return err
	}
	next.apply(&q.Question)
	if err := s.store.SaveContent(ctx, &q.Question); err != nil {
		return err
	}
	return s.publish(ctx, ChangeUpdated, &q.Question)
}

// Version is one stored snapshot.
type Version struct {
	store.Version
	Content Content
}

// Versions lists a question's snapshots, newest first. Snapshots hold the
// answer side, so only those who may edit the question read them.
func (s *Service) Versions(ctx context.Context, p auth.Principal, id int64, limit, offset int) ([]Version, error) {
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, err
	}
	q, err := s.store.Question(ctx, id, false)
	if err != nil {
		return nil, notFoundOr(err, "question")
	}
	if q.DeletedAt != nil && !v.mod() {
		return nil, apperr.NotFoundf("question not found")
	}
	if err := s.requireEdit(ctx, v, id, "only those who may edit this question may read its versions"); err != nil {
		return nil, err
	}
	rows, err := s.store.Versions(ctx, id, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]Version, 0, len(rows))
	for _, r := range rows {
		c, err := fromSnapshot(r.Snapshot)
		if err != nil {
			return nil, err
		}
		out = append(out, Version{Version: r, Content: c})
	}
	return out, nil
}

// RestoreVersion puts a snapshot's content back, snapshotting the current
// content first (editors only).
func (s *Service) RestoreVersion(ctx context.Context, p auth.Principal, id, versionID int64) (*Question, error) {
	return s.edit(ctx, p, id, invalid, func(ctx context.Context, _ *store.QuestionWithFiling) (Content, error) {
		ver, err := s.store.VersionOf(ctx, id, versionID)
		if err != nil {
			return Content{}, notFoundOr(err, "version")
		}
		return fromSnapshot(ver.Snapshot)
	})
}
