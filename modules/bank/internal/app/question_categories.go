package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// QuestionCategory is a node of the question-category tree.
type QuestionCategory struct {
	ID          int64
	Name        string
	Description *string
	ParentID    *int64
	SystemID    *int64 // the organ-system tag it names itself
	// InheritedSystemID is the system its questions carry (its own or the
	// nearest ancestor's).
	InheritedSystemID *int64
	QuestionCount     int // live questions filed directly in it
	BranchCount       int // live questions in it and every category below
}

// Opt is a field a PATCH may leave out (Set false), clear (Value nil) or
// set.
type Opt[T any] struct {
	Set   bool
	Value *T
}

// CategoryInput creates a category.
type CategoryInput struct {
	Name        string
	Description *string
	ParentID    *int64
	SystemID    *int64
}

// CategoryPatch changes a category; unset fields stay.
type CategoryPatch struct {
	Name        *string
	Description Opt[string]
	ParentID    Opt[int64]
	SystemID    Opt[int64]
}

// QuestionCategories lists the tree (parents before their children's
// names do not matter: clients build the tree from parent_id) with counts.
func (s *Service) QuestionCategories(ctx context.Context) ([]QuestionCategory, error) {
	t, err := s.loadTree(ctx)
	if err != nil {
		return nil, err
	}
	counts, err := s.store.CategoryCounts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]QuestionCategory, 0, len(t.rows))
	for _, r := range t.rows {
		c := QuestionCategory{ID: r.ID, Name: r.Name, Description: r.Description, ParentID: r.ParentID,
			SystemID: r.SystemID, InheritedSystemID: t.system(r.ID), QuestionCount: counts[r.ID]}
		for _, id := range t.branch(r.ID) {
			c.BranchCount += counts[id]
		}
		out = append(out, c)
	}
	return out, nil
}

// CreateQuestionCategory adds a category (moderators only).
func (s *Service) CreateQuestionCategory(ctx context.Context, p auth.Principal, in CategoryInput) (*QuestionCategory, error) {
	c := &store.Category{Name: strings.TrimSpace(in.Name), Description: trimPtr(in.Description),
		ParentID: in.ParentID, SystemID: in.SystemID}
	err := s.reshapeTree(ctx, p, func(ctx context.Context, t *tree) error {
		if err := s.checkCategory(ctx, t, c); err != nil {
			return err
		}
		return s.saveCategory(ctx, c, true)
	})
	if err != nil {
		return nil, err
	}
	return s.categoryView(ctx, c.ID)
}

// UpdateQuestionCategory renames, re-describes, moves or re-systems a
// category (moderators only). A move under itself or its own descendant is
// refused (400).
func (s *Service) UpdateQuestionCategory(ctx context.Context, p auth.Principal, id int64, pt CategoryPatch) (*QuestionCategory, error) {
	err := s.reshapeTree(ctx, p, func(ctx context.Context, t *tree) error {
		cur, ok := t.nodes[id]
		if !ok {
			return apperr.NotFoundf("question category not found")
		}
		c := *cur
		if pt.Name != nil {
			c.Name = strings.TrimSpace(*pt.Name)
		}
		if pt.Description.Set {
			c.Description = trimPtr(pt.Description.Value)
		}
		if pt.ParentID.Set {
			c.ParentID = pt.ParentID.Value
			if c.ParentID != nil && t.within(*c.ParentID, id) {
				return apperr.BadRequestf("a category cannot move under itself or one of its own subcategories")
			}
		}
		if pt.SystemID.Set {
			c.SystemID = pt.SystemID.Value
		}
		if err := s.checkCategory(ctx, t, &c); err != nil {
			return err
		}
		return s.saveCategory(ctx, &c, false)
	})
	if err != nil {
		return nil, err
	}
	return s.categoryView(ctx, id)
}

// reshapeTree runs fn on the tree in one transaction holding the tree lock
// (moderators only), so no two changes of its shape interleave.
func (s *Service) reshapeTree(ctx context.Context, p auth.Principal, fn func(ctx context.Context, t *tree) error) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators manage categories")
	}
	return s.write(ctx, func(ctx context.Context) error {
		if err := s.store.LockCategoryTree(ctx); err != nil {
			return err
		}
		t, err := s.loadTree(ctx)
		if err != nil {
			return err
		}
		return fn(ctx, t)
	})
}

// checkCategory validates name, parent and system of c.
func (s *Service) checkCategory(ctx context.Context, t *tree, c *store.Category) error {
	if c.Name == "" {
		return apperr.Invalidf("name", "the name is empty")
	}
	if c.ParentID != nil && t.nodes[*c.ParentID] == nil {
		return apperr.Invalidf("parent_id", "no such parent category")
	}
	if c.SystemID != nil {
		tags, err := s.store.TagsByID(ctx, []int64{*c.SystemID})
		if err != nil {
			return err
		}
		if len(tags) == 0 || tags[0].Type != TagSystem {
			return apperr.Invalidf("system_id", "system_id must name a system tag (see GET /tags)")
		}
	}
	return nil
}

func (s *Service) saveCategory(ctx context.Context, c *store.Category, create bool) error {
	var err error
	if create {
		err = s.store.InsertCategory(ctx, c)
	} else {
		err = s.store.SaveCategory(ctx, c)
	}
	if db.IsUniqueViolation(err) {
		return apperr.Conflictf("a category named %q already exists at that place in the tree", c.Name)
	}
	return err
}

func (s *Service) categoryView(ctx context.Context, id int64) (*QuestionCategory, error) {
	all, err := s.QuestionCategories(ctx)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, apperr.NotFoundf("question category not found")
}

// DeleteQuestionCategory removes a category (moderators only). Its
// questions move to moveTo (nil: they become uncategorised) and its
// subcategories move up to its parent, so no branch is lost.
func (s *Service) DeleteQuestionCategory(ctx context.Context, p auth.Principal, id int64, moveTo *int64) error {
	return s.reshapeTree(ctx, p, func(ctx context.Context, t *tree) error {
		c, ok := t.nodes[id]
		if !ok {
			return apperr.NotFoundf("question category not found")
		}
		// Row lock: a filing into this category either finished before
		// (and its questions move below) or waits and then finds it gone.
		if _, err := s.store.Category(ctx, id, true); err != nil {
			return err
		}
		if moveTo != nil {
			if *moveTo == id {
				return apperr.BadRequestf("move_to cannot be the category being deleted")
			}
			if t.nodes[*moveTo] == nil {
				return apperr.NotFoundf("move_to: question category not found")
			}
		}
		moved, err := s.store.MoveCategory(ctx, id, moveTo)
		if err != nil {
			return err
		}
		for i := range moved {
			if err := s.publish(ctx, ChangeUpdated, &moved[i]); err != nil {
				return err
			}
		}
		if err := s.store.Reparent(ctx, id, c.ParentID); err != nil {
			return err
		}
		return s.store.DeleteCategory(ctx, id)
	})
}

// QuizFromCategory builds a quiz (unpublished) from every live question in
// a category's branch, oldest first (moderators only; 400 when there are
// none).
func (s *Service) QuizFromCategory(ctx context.Context, p auth.Principal, id int64, in NewQuiz) (*Quiz, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators create quizzes")
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		return nil, apperr.Invalidf("title", "the title is empty")
	}
	var out *Quiz
	err := s.write(ctx, func(ctx context.Context) error {
		t, err := s.loadTree(ctx)
		if err != nil {
			return err
		}
		if t.nodes[id] == nil {
			return apperr.NotFoundf("question category not found")
		}
		ids, err := s.store.LiveQuestionIDsIn(ctx, t.branch(id))
		if err != nil {
			return err
		}
		if ids, err = s.store.LockLive(ctx, ids); err != nil {
			return err
		}
		if len(ids) == 0 {
			return apperr.BadRequestf("the category has no live questions to make a quiz from")
		}
		out, err = s.insertQuiz(ctx, p.UserID, in, ids)
		return err
	})
	return out, err
}

func trimPtr(s *string) *string {
	if s == nil {
		return nil
	}
	t := strings.TrimSpace(*s)
	if t == "" {
		return nil
	}
	return &t
}
