package app

import (
	"context"
)

// Tag types. Questions carry subject and disease tags directly (assigned
// by classification: the classify_tags job or offline tooling), system tags
// through their category; keyword tags are retired and never listed.
const (
	TagSubject = "subject"
	TagDisease = "disease"
	TagSystem  = "system"
	TagKeyword = "keyword"
)

// TagCount is a tag with the live questions carrying it. Kept apart from
// store.TagCount on purpose: system counts are recomputed through the
// category tree here, and it is the flat wire shape the handler converts.
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
