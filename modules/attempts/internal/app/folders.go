package app

import (
	"context"
	"errors"

	"github.com/roundsedu/rounds/modules/attempts/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// CreateFolder makes a folder; names are unique per learner (409).
func (s *Service) CreateFolder(ctx context.Context, p auth.Principal, name string) (*Folder, error) {
	name, err := cleanName("name", name)
	if err != nil {
		return nil, err
	}
	f := &store.Folder{UserID: p.UserID, Name: name}
	err = s.db.Tx(ctx, func(ctx context.Context) error { return s.store.InsertFolder(ctx, f) })
	if errors.Is(err, store.ErrDuplicate) {
		return nil, apperr.Conflictf("you already have a folder named %q", name)
	}
	if err != nil {
		return nil, err
	}
	return &Folder{Folder: *f}, nil
}

// Folders lists the caller's folders by name.
func (s *Service) Folders(ctx context.Context, p auth.Principal, limit, offset int) ([]Folder, error) {
	return s.store.Folders(ctx, p.UserID, limit, offset)
}

// RenameFolder renames one of the caller's folders.
func (s *Service) RenameFolder(ctx context.Context, p auth.Principal, id int64, name string) (*Folder, error) {
	name, err := cleanName("name", name)
	if err != nil {
		return nil, err
	}
	var f *store.Folder
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if f, err = s.store.Folder(ctx, p.UserID, id, db.ForUpdate); err != nil {
			return folderErr(err)
		}
		f.Name = name
		return s.store.RenameFolder(ctx, f)
	})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, apperr.Conflictf("you already have a folder named %q", name)
	}
	if err != nil {
		return nil, err
	}
	return &Folder{Folder: *f}, nil
}

// DeleteFolder removes one of the caller's folders; its collections stay,
// unfiled.
func (s *Service) DeleteFolder(ctx context.Context, p auth.Principal, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		ok, err := s.store.DeleteFolder(ctx, p.UserID, id)
		if err == nil && !ok {
			return apperr.NotFoundf("folder not found")
		}
		return err
	})
}

func folderErr(err error) error {
	if errors.Is(err, db.ErrNotFound) {
		return apperr.NotFoundf("folder not found")
	}
	return err
}

// checkFolder makes sure a folder named for a collection is the caller's
// (someone else's reads as missing).
func (s *Service) checkFolder(ctx context.Context, userID int64, id *int64) error {
	if id == nil {
		return nil
	}
	_, err := s.store.Folder(ctx, userID, *id, db.ForKeyShare)
	if errors.Is(err, db.ErrNotFound) {
		return apperr.Invalidf("folder_id", "you have no folder %d", *id)
	}
	return err
}
