package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// FolderResponse is a folder on the wire.
type FolderResponse struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Collections int       `json:"collections"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func toFolderResponse(f *app.Folder) FolderResponse {
	return FolderResponse{ID: f.ID, Name: f.Name, Collections: f.Collections, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt}
}

type foldersOut struct{ Body []FolderResponse }

func (h *handlers) folders(ctx context.Context, in *PageQuery) (*foldersOut, error) {
	fs, err := h.svc.Folders(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &foldersOut{Body: toFolderResponses(fs)}, nil
}

type folderBody struct {
	Name string `json:"name" minLength:"1" maxLength:"120"`
}

type createFolderIn struct{ Body folderBody }

type folderOut struct{ Body FolderResponse }

func (h *handlers) createFolder(ctx context.Context, in *createFolderIn) (*folderOut, error) {
	f, err := h.svc.CreateFolder(ctx, auth.MustFrom(ctx), in.Body.Name)
	if err != nil {
		return nil, err
	}
	return &folderOut{Body: toFolderResponse(f)}, nil
}

// FolderPath names one of the caller's folders.
type FolderPath struct {
	FolderID int64 `path:"folder_id" minimum:"1"`
}

type renameFolderIn struct {
	FolderPath
	Body folderBody
}

func (h *handlers) renameFolder(ctx context.Context, in *renameFolderIn) (*folderOut, error) {
	f, err := h.svc.RenameFolder(ctx, auth.MustFrom(ctx), in.FolderID, in.Body.Name)
	if err != nil {
		return nil, err
	}
	return &folderOut{Body: toFolderResponse(f)}, nil
}

func (h *handlers) deleteFolder(ctx context.Context, in *FolderPath) (*struct{}, error) {
	return nil, h.svc.DeleteFolder(ctx, auth.MustFrom(ctx), in.FolderID)
}

func toFolderResponses(fs []app.Folder) []FolderResponse {
	out := make([]FolderResponse, len(fs))
	for i := range fs {
		out[i] = toFolderResponse(&fs[i])
	}
	return out
}
