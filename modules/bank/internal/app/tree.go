package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// tree is the question-category tree held in memory for one request: it is
// small, and branches, inherited systems and grant coverage are all walks
// over it.
type tree struct {
	rows     []store.Category // as the store lists them (by name)
	nodes    map[int64]*store.Category
	children map[int64][]int64
}

func (s *Service) loadTree(ctx context.Context) (*tree, error) {
	rows, err := s.store.Categories(ctx)
	if err != nil {
		return nil, err
	}
	return newTree(rows), nil
}

func newTree(rows []store.Category) *tree {
	t := &tree{rows: rows, nodes: make(map[int64]*store.Category, len(rows)), children: map[int64][]int64{}}
	for i := range rows {
		c := &rows[i]
		t.nodes[c.ID] = c
		if c.ParentID != nil {
			t.children[*c.ParentID] = append(t.children[*c.ParentID], c.ID)
		}
	}
	return t
}

// branch returns id and every category below it (empty for an unknown id).
func (t *tree) branch(id int64) []int64 {
	if _, ok := t.nodes[id]; !ok {
		return nil
	}
	out := []int64{id}
	for i := 0; i < len(out); i++ {
		out = append(out, t.children[out[i]]...)
	}
	return out
}

// within reports whether category id is root or below it.
func (t *tree) within(id, root int64) bool {
	for steps := 0; steps <= len(t.nodes); steps++ {
		if id == root {
			return true
		}
		c, ok := t.nodes[id]
		if !ok || c.ParentID == nil {
			return false
		}
		id = *c.ParentID
	}
	return false // a cycle; the service never writes one
}

// system is the organ-system tag a category carries or inherits from its
// nearest ancestor that names one.
func (t *tree) system(id int64) *int64 {
	for steps := 0; steps <= len(t.nodes); steps++ {
		c, ok := t.nodes[id]
		if !ok {
			return nil
		}
		if c.SystemID != nil {
			return c.SystemID
		}
		if c.ParentID == nil {
			return nil
		}
		id = *c.ParentID
	}
	return nil
}

// carrying lists the categories whose (inherited) system is tag.
func (t *tree) carrying(tag int64) []int64 {
	var out []int64
	for id := range t.nodes {
		if s := t.system(id); s != nil && *s == tag {
			out = append(out, id)
		}
	}
	return out
}
