package app

import (
	"context"
	"errors"
	"strings"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

func collectionErr(err error) error {
	if errors.Is(err, db.ErrNotFound) {
		return apperr.NotFoundf("collection not found")
	}
	return err
}

// NewCollection is a collection to create.
type NewCollection struct {
	Name        string
	Description string
	FolderID    *int64
}

// CreateCollection makes a collection, optionally in one of the caller's
// folders.
func (s *Service) CreateCollection(ctx context.Context, p auth.Principal, in NewCollection) (*Collection, error) {
	name, err := cleanName("name", in.Name)
	if err != nil {
		return nil, err
	}
	c := &store.Collection{UserID: p.UserID, FolderID: in.FolderID, Name: name,
		Description: strings.TrimSpace(in.Description)}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.checkFolder(ctx, p.UserID, in.FolderID); err != nil {
			return err
		}
		return s.store.InsertCollection(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	return toCollection(c, 0), nil
}

func toCollection(c *store.Collection, questions int) *Collection {
	return &Collection{CollectionWithCount: store.CollectionWithCount{Collection: *c, Questions: questions}}
}

// Collections lists the caller's collections, most recently changed first:
// all, one folder's (404 for a folder that is not theirs), or the unfiled.
func (s *Service) Collections(ctx context.Context, p auth.Principal, folderID *int64, unfiled bool, limit, offset int) ([]Collection, error) {
	if folderID != nil {
		if _, err := s.store.Folder(ctx, p.UserID, *folderID, db.NoLock); err != nil {
			return nil, folderErr(err)
		}
	}
	rows, err := s.store.Collections(ctx, p.UserID, store.CollectionFilter{FolderID: folderID, Unfiled: unfiled},
		limit, offset)
	out := make([]Collection, len(rows))
	for i := range rows {
		out[i] = *toCollection(&rows[i].Collection, rows[i].Questions)
	}
	return out, err
}

// Collection returns one of the caller's collections with its question ids
// in the order added.
func (s *Service) Collection(ctx context.Context, p auth.Principal, id int64) (*Collection, error) {
	c, err := s.store.Collection(ctx, p.UserID, id, db.NoLock)
	if err != nil {
		return nil, collectionErr(err)
	}
	ids, err := s.store.CollectionQuestionIDs(ctx, id)
	if err != nil {
		return nil, err
	}
	out := toCollection(c, len(ids))
	out.QuestionIDs = ids
	return out, nil
}

// CollectionPatch changes a collection: nil leaves a field; ClearFolder
// unfiles it.
type CollectionPatch struct {
	Name        *string
	Description *string
	FolderID    *int64
	ClearFolder bool
}

// UpdateCollection edits one of the caller's collections.
func (s *Service) UpdateCollection(ctx context.Context, p auth.Principal, id int64, pt CollectionPatch) (*Collection, error) {
	var out *Collection
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		c, err := s.store.Collection(ctx, p.UserID, id, db.ForUpdate)
		if err != nil {
			return collectionErr(err)
		}
		if pt.Name != nil {
			if c.Name, err = cleanName("name", *pt.Name); err != nil {
				return err
			}
		}
		if pt.Description != nil {
			c.Description = strings.TrimSpace(*pt.Description)
		}
		switch {
		case pt.ClearFolder:
			c.FolderID = nil
		case pt.FolderID != nil:
			if err := s.checkFolder(ctx, p.UserID, pt.FolderID); err != nil {
				return err
			}
			c.FolderID = pt.FolderID
		}
		if err := s.store.UpdateCollection(ctx, c); err != nil {
			return err
		}
		n, err := s.store.CountCollectionQuestions(ctx, id)
		out = toCollection(c, n)
		return err
	})
	return out, err
}

// DeleteCollection removes one of the caller's collections.
func (s *Service) DeleteCollection(ctx context.Context, p auth.Principal, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.DeleteCollection(ctx, p.UserID, id)
		if err == nil && !ok {
			return apperr.NotFoundf("collection not found")
		}
		return err
	})
}

// AddToCollection puts a bank question the caller reaches in one of their
// collections (again: no change); one they do not reach is the bank's 404
// of a missing question. A full collection answers 400.
func (s *Service) AddToCollection(ctx context.Context, p auth.Principal, id, questionID int64) error {
	if err := s.ports.Bank.RequireQuestions(ctx, p, questionID); err != nil {
		return err
	}
	return s.db.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.store.Collection(ctx, p.UserID, id, db.ForUpdate); err != nil {
			return collectionErr(err)
		}
		n, err := s.store.CountCollectionQuestions(ctx, id)
		if err != nil {
			return err
		}
		if n >= maxCollectionQuestions {
			return apperr.BadRequestf("a collection holds at most %d questions", maxCollectionQuestions)
		}
		added, err := s.store.AddCollectionQuestion(ctx, id, questionID)
		if err != nil || !added {
			return err
		}
		return s.store.TouchCollection(ctx, id)
	})
}

// RemoveFromCollection takes a question out of one of the caller's
// collections (404 when it is not in it).
func (s *Service) RemoveFromCollection(ctx context.Context, p auth.Principal, id, questionID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		if _, err := s.store.Collection(ctx, p.UserID, id, db.ForUpdate); err != nil {
			return collectionErr(err)
		}
		ok, err := s.store.RemoveCollectionQuestion(ctx, id, questionID)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFoundf("this question is not in this collection")
		}
		return s.store.TouchCollection(ctx, id)
	})
}
