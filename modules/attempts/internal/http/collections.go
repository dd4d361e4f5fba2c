package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// CollectionResponse is a collection on the wire.
type CollectionResponse struct {
	ID          int64     `json:"id"`
	FolderID    *int64    `json:"folder_id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Questions   int       `json:"questions"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func toCollectionResponse(c *app.Collection) CollectionResponse {
	return CollectionResponse{ID: c.ID, FolderID: c.FolderID, Name: c.Name, Description: c.Description,
		Questions: c.Questions, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// CollectionDetailResponse is one collection read on its own, with its
// question ids in the order added ([] when it holds none).
type CollectionDetailResponse struct {
	CollectionResponse
	QuestionIDs []int64 `json:"question_ids"`
}

type collectionsIn struct {
	PageQuery
	FolderID int64 `query:"folder_id" minimum:"1" doc:"only this folder's collections"`
	Unfiled  bool  `query:"unfiled" default:"false" doc:"only collections in no folder"`
}

type collectionsOut struct{ Body []CollectionResponse }

func (h *handlers) collections(ctx context.Context, in *collectionsIn) (*collectionsOut, error) {
	var folder *int64
	if in.FolderID > 0 {
		if in.Unfiled {
			return nil, apperr.Invalidf("unfiled", "ask for one folder or for the unfiled, not both")
		}
		folder = &in.FolderID
	}
	cs, err := h.svc.Collections(ctx, auth.MustFrom(ctx), folder, in.Unfiled, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &collectionsOut{Body: toCollectionResponses(cs)}, nil
}

type createCollectionIn struct {
	Body struct {
		Name        string `json:"name" minLength:"1" maxLength:"120"`
		Description string `json:"description,omitempty" required:"false" maxLength:"2000"`
		FolderID    *int64 `json:"folder_id,omitempty" required:"false" nullable:"true" minimum:"1"`
	}
}

type collectionOut struct{ Body CollectionResponse }

func (h *handlers) createCollection(ctx context.Context, in *createCollectionIn) (*collectionOut, error) {
	c, err := h.svc.CreateCollection(ctx, auth.MustFrom(ctx), app.NewCollection{Name: in.Body.Name,
		Description: in.Body.Description, FolderID: in.Body.FolderID})
	if err != nil {
		return nil, err
	}
	return &collectionOut{Body: toCollectionResponse(c)}, nil
}

// CollectionPath names one of the caller's collections.
type CollectionPath struct {
	CollectionID int64 `path:"collection_id" minimum:"1"`
}

type collectionDetailOut struct{ Body CollectionDetailResponse }

func (h *handlers) collection(ctx context.Context, in *CollectionPath) (*collectionDetailOut, error) {
	c, err := h.svc.Collection(ctx, auth.MustFrom(ctx), in.CollectionID)
	if err != nil {
		return nil, err
	}
	return &collectionDetailOut{Body: CollectionDetailResponse{CollectionResponse: toCollectionResponse(c),
		QuestionIDs: c.QuestionIDs}}, nil
}

type updateCollectionIn struct {
	CollectionPath
	Body struct {
		Name        *string                 `json:"name,omitempty" required:"false" minLength:"1" maxLength:"120"`
		Description *string                 `json:"description,omitempty" required:"false" maxLength:"2000"`
		FolderID    httpapi.Nullable[int64] `json:"folder_id,omitempty" required:"false" doc:"a folder of yours, or null to unfile"`
	}
}

func (h *handlers) updateCollection(ctx context.Context, in *updateCollectionIn) (*collectionOut, error) {
	b := in.Body
	pt := app.CollectionPatch{Name: b.Name, Description: b.Description}
	if b.FolderID.Sent {
		if b.FolderID.Null {
			pt.ClearFolder = true
		} else {
			v := b.FolderID.Value
			pt.FolderID = &v
		}
	}
	c, err := h.svc.UpdateCollection(ctx, auth.MustFrom(ctx), in.CollectionID, pt)
	if err != nil {
		return nil, err
	}
	return &collectionOut{Body: toCollectionResponse(c)}, nil
}

func (h *handlers) deleteCollection(ctx context.Context, in *CollectionPath) (*struct{}, error) {
	return nil, h.svc.DeleteCollection(ctx, auth.MustFrom(ctx), in.CollectionID)
}

type collectionQuestionIn struct {
	CollectionPath
	QuestionPath
}

func (h *handlers) addToCollection(ctx context.Context, in *collectionQuestionIn) (*struct{}, error) {
	return nil, h.svc.AddToCollection(ctx, auth.MustFrom(ctx), in.CollectionID, in.QuestionID)
}

func (h *handlers) removeFromCollection(ctx context.Context, in *collectionQuestionIn) (*struct{}, error) {
	return nil, h.svc.RemoveFromCollection(ctx, auth.MustFrom(ctx), in.CollectionID, in.QuestionID)
}

func toCollectionResponses(cs []app.Collection) []CollectionResponse {
	out := make([]CollectionResponse, len(cs))
	for i := range cs {
		out[i] = toCollectionResponse(&cs[i])
	}
	return out
}
