package app

import (
	"context"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Tag types. Questions carry subject and disease tags directly (assigned
// by offline classification), system tags through their category; keyword
// tags are retired and never listed.
const (
	TagSubject = "subject"
	TagDisease = "disease"
	TagSystem  = "system"
	TagKeyword = "keyword"
)

// TagCount is a tag with the live questions carrying it.
type TagCount struct {
	ID            int64
	Type          string
	Name          string
	QuestionCount int
}

// TagGroups is the tag listing, grouped by type.
type TagGroups struct {
	Subjects, Diseases, Systems, Keywords []TagCount
}

// Tags lists every tag by type with its live-question count; system counts
// follow the category tree.
func (s *Service) Tags(ctx context.Context) (*TagGroups, error) {
	rows, err := s.store.TagCounts(ctx)
	if err != nil {
		return nil, err
	}
	t, err := s.loadTree(ctx)
	if err != nil {
		return nil, err
	}
	counts, err := s.store.CategoryCounts(ctx)
	if err != nil {
		return nil, err
	}
	perSystem := map[int64]int{}
	for id := range t.nodes {
		if sys := t.system(id); sys != nil {
			perSystem[*sys] += counts[id]
		}
	}
	g := &TagGroups{Subjects: []TagCount{}, Diseases: []TagCount{}, Systems: []TagCount{}, Keywords: []TagCount{}}
	for _, r := range rows {
		tc := TagCount{ID: r.ID, Type: r.Type, Name: r.Name, QuestionCount: r.QuestionCount}
		switch r.Type {
		case TagSubject:
			g.Subjects = append(g.Subjects, tc)
		case TagDisease:
			g.Diseases = append(g.Diseases, tc)
		case TagSystem:
			tc.QuestionCount = perSystem[r.ID]
			g.Systems = append(g.Systems, tc)
		}
	}
	return g, nil
}

// errOffline answers the classification routes of an older listing: tags
// are assigned by offline tooling only, so no classification job exists.
var errOffline = apperr.Gone("tag classification runs as offline tooling; no endpoint or task assigns tags")

// Classify refuses: classification is offline (410).
func (s *Service) Classify(context.Context) error { return errOffline }

// ClassifyStatus reports on a classification job; there are none.
func (s *Service) ClassifyStatus(_ context.Context, jobID string) error {
	return apperr.NotFoundf("no classification job %q: classification runs offline", jobID)
}
