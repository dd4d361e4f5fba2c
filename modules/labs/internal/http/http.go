// Package http is the labs module's HTTP surface: the reference table for
// every signed-in user and the moderators' writes.
package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/labs/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
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

type valueOut struct{ Body LabValue }

type cardPath struct {
	ID     int64 `path:"id" minimum:"1"`
	CardID int64 `path:"card_id" minimum:"1"`
}

// Register adds the lab value operations.
func Register(r *httpapi.Router, svc *app.Service) {
	tags := []string{"study-tools"}
	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/study-tools/lab-values", Tags: tags,
		Summary: "The lab reference table: published values (everything with include_drafts, moderators only), at most 500, with its tabs",
		Errors:  []int{nethttp.StatusForbidden},
	}, func(ctx context.Context, in *struct {
		IncludeDrafts bool `query:"include_drafts" default:"false" doc:"moderators: unpublished values too (403 for others)"`
	}) (*struct{ Body LabValueListing }, error) {
		l, err := svc.List(ctx, auth.MustFrom(ctx), in.IncludeDrafts)
		if err != nil {
			return nil, err
		}
		out := LabValueListing{Tabs: make([]LabTab, len(l.Tabs)), Values: make([]LabValue, len(l.Values)), Total: l.Total, Truncated: l.Truncated}
		for i, t := range l.Tabs {
			out.Tabs[i] = LabTab{Group: t.GroupName, Count: t.Count}
		}
		for i := range l.Values {
			out.Values[i] = toLabValue(&l.Values[i])
		}
		return &struct{ Body LabValueListing }{out}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/study-tools/lab-values", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Add a reference value",
	}, func(ctx context.Context, in *struct{ Body LabValueRecord }) (*valueOut, error) {
		v, err := svc.Create(ctx, in.Body.toInput())
		if err != nil {
			return nil, err
		}
		return &valueOut{toLabValue(v)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/study-tools/lab-values/{id}", Tags: tags,
		Summary: "Replace a reference value with the record sent (its card links stay)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID   int64 `path:"id" minimum:"1"`
		Body LabValueRecord
	}) (*valueOut, error) {
		v, err := svc.Replace(ctx, in.ID, in.Body.toInput())
		if err != nil {
			return nil, err
		}
		return &valueOut{toLabValue(v)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/study-tools/lab-values/{id}", Tags: tags, DefaultStatus: nethttp.StatusNoContent,
		Summary: "Remove a reference value for good",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID int64 `path:"id" minimum:"1"`
	}) (*struct{}, error) {
		return nil, svc.Delete(ctx, in.ID)
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPut, Path: "/study-tools/lab-values/{id}/cards/{card_id}", Tags: tags,
		Summary: "Link a flashcard to a reference value (again: no change)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *cardPath) (*valueOut, error) {
		v, err := svc.LinkCard(ctx, in.ID, in.CardID)
		if err != nil {
			return nil, err
		}
		return &valueOut{toLabValue(v)}, nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodDelete, Path: "/study-tools/lab-values/{id}/cards/{card_id}", Tags: tags,
		Summary: "Unlink a flashcard from a reference value (not linked: no change)",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *cardPath) (*valueOut, error) {
		v, err := svc.UnlinkCard(ctx, in.ID, in.CardID)
		if err != nil {
			return nil, err
		}
		return &valueOut{toLabValue(v)}, nil
	})
}
