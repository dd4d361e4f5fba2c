package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/labs/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// LabValue is a reference value on the wire.
type LabValue struct {
	ID                int64     `json:"id"`
	Name              string    `json:"name" doc:"the test"`
	Group             string    `json:"group" doc:"the tab it shows under"`
	ReferenceRange    string    `json:"reference_range" doc:"in SI units"`
	Units             string    `json:"units" doc:"SI units"`
	ConventionalRange *string   `json:"conventional_range" doc:"the range in conventional units, where the test has both"`
	ConventionalUnits *string   `json:"conventional_units"`
	AgeGroup          string    `json:"age_group"`
	Specimen          string    `json:"specimen"`
	Source            string    `json:"source" doc:"citation"`
	SourceURL         *string   `json:"source_url"`
	ArticleID         *int64    `json:"article_id"`
	ArticleSectionID  *string   `json:"article_section_id"`
	IsPublished       bool      `json:"is_published"`
	CardIDs           []int64   `json:"card_ids" doc:"linked flashcards, in link order"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

func toLabValue(v *app.Value) LabValue {
	return LabValue{ID: v.ID, Name: v.Name, Group: v.GroupName, ReferenceRange: v.ReferenceRange, Units: v.Units,
		ConventionalRange: v.ConventionalRange, ConventionalUnits: v.ConventionalUnits, AgeGroup: v.AgeGroup,
		Specimen: v.Specimen, Source: v.Source, SourceURL: v.SourceURL, ArticleID: v.ArticleID,
		ArticleSectionID: v.ArticleSectionID, IsPublished: v.IsPublished, CardIDs: v.CardIDs,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
}

// LabTab is one group of the table.
type LabTab struct {
	Group string `json:"group" required:"false"`
	Count int    `json:"count" doc:"values in the group the caller may see (not capped)"`
}

// LabValueListing is the table.
type LabValueListing struct {
	Tabs      []LabTab   `json:"tabs" doc:"every group of the values the caller may see, in order"`
	Values    []LabValue `json:"values" doc:"ordered by group, name, id; at most 500"`
	Total     int        `json:"total" doc:"values the caller may see"`
	Truncated bool       `json:"truncated" doc:"true when total is above the 500 shown"`
}

// LabValueRecord is the reference record a moderator sends (POST and PUT). The
// service checks presence and lengths, so that a missing field and a blank
// one are refused alike, each naming its field.
type LabValueRecord struct {
	Name              string  `json:"name" required:"false" doc:"required; the test; at most 120 characters"`
	Group             string  `json:"group" required:"false" doc:"required; at most 60 characters; tabs are built from the groups"`
	ReferenceRange    string  `json:"reference_range" required:"false" doc:"required; SI range; at most 250 characters"`
	Units             string  `json:"units" required:"false" doc:"required; SI units; at most 80 characters"`
	ConventionalRange *string `json:"conventional_range,omitempty" required:"false" nullable:"true" doc:"range in conventional units; at most 250 characters; with conventional_units"`
	ConventionalUnits *string `json:"conventional_units,omitempty" required:"false" nullable:"true" doc:"at most 80 characters; with conventional_range"`
	AgeGroup          string  `json:"age_group" required:"false" doc:"required; at most 120 characters"`
	Specimen          string  `json:"specimen" required:"false" doc:"required; at most 120 characters"`
	Source            string  `json:"source" required:"false" doc:"required citation; at most 500 characters"`
	SourceURL         *string `json:"source_url,omitempty" required:"false" nullable:"true" doc:"http or https URL; at most 2000 characters"`
	ArticleID         *int64  `json:"article_id,omitempty" required:"false" nullable:"true" minimum:"1" doc:"a library article"`
	ArticleSectionID  *string `json:"article_section_id,omitempty" required:"false" nullable:"true" doc:"a section of article_id; at most 64 characters"`
	IsPublished       bool    `json:"is_published,omitempty" required:"false" doc:"visible to learners; default false"`
}

func (r LabValueRecord) toInput() app.Input {
	return app.Input{Name: r.Name, Group: r.Group, ReferenceRange: r.ReferenceRange, Units: r.Units,
		ConventionalRange: r.ConventionalRange, ConventionalUnits: r.ConventionalUnits, AgeGroup: r.AgeGroup,
		Specimen: r.Specimen, Source: r.Source, SourceURL: r.SourceURL, ArticleID: r.ArticleID,
		ArticleSectionID: r.ArticleSectionID, IsPublished: r.IsPublished}
}

func toLabValues(vs []app.Value) []LabValue {
	out := make([]LabValue, len(vs))
	for i := range vs {
		out[i] = toLabValue(&vs[i])
	}
	return out
}

func toLabTabs(ts []app.Tab) []LabTab {
	out := make([]LabTab, len(ts))
	for i, t := range ts {
		out[i] = LabTab{Group: t.GroupName, Count: t.Count}
	}
	return out
}

func toLabValueListing(l *app.Listing) LabValueListing {
	return LabValueListing{Tabs: toLabTabs(l.Tabs), Values: toLabValues(l.Values), Total: l.Total, Truncated: l.Truncated}
}

type listValuesIn struct {
	IncludeDrafts bool `query:"include_drafts" default:"false" doc:"moderators: unpublished values too (403 for others)"`
}

type listingOut struct{ Body LabValueListing }

func (h *handlers) listValues(ctx context.Context, in *listValuesIn) (*listingOut, error) {
	l, err := h.svc.List(ctx, auth.MustFrom(ctx), in.IncludeDrafts)
	if err != nil {
		return nil, err
	}
	return &listingOut{toLabValueListing(l)}, nil
}

type valueOut struct{ Body LabValue }

type createValueIn struct{ Body LabValueRecord }

func (h *handlers) createValue(ctx context.Context, in *createValueIn) (*valueOut, error) {
	v, err := h.svc.Create(ctx, in.Body.toInput())
	if err != nil {
		return nil, err
	}
	return &valueOut{toLabValue(v)}, nil
}

type valuePath struct {
	ID int64 `path:"id" minimum:"1"`
}

type replaceValueIn struct {
	ID   int64 `path:"id" minimum:"1"`
	Body LabValueRecord
}

func (h *handlers) replaceValue(ctx context.Context, in *replaceValueIn) (*valueOut, error) {
	v, err := h.svc.Replace(ctx, in.ID, in.Body.toInput())
	if err != nil {
		return nil, err
	}
	return &valueOut{toLabValue(v)}, nil
}

func (h *handlers) deleteValue(ctx context.Context, in *valuePath) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, in.ID)
}

type cardPath struct {
	ID     int64 `path:"id" minimum:"1"`
	CardID int64 `path:"card_id" minimum:"1"`
}

func (h *handlers) linkCard(ctx context.Context, in *cardPath) (*valueOut, error) {
	v, err := h.svc.LinkCard(ctx, in.ID, in.CardID)
	if err != nil {
		return nil, err
	}
	return &valueOut{toLabValue(v)}, nil
}

func (h *handlers) unlinkCard(ctx context.Context, in *cardPath) (*valueOut, error) {
	v, err := h.svc.UnlinkCard(ctx, in.ID, in.CardID)
	if err != nil {
		return nil, err
	}
	return &valueOut{toLabValue(v)}, nil
}
