package app

import (
	"slices"
	"testing"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

func ptr[T any](v T) *T { return &v }

// sampleTree builds a tree: 1 (system 100) > 2 > 3 (system 200) > 4; 5 alone.
func sampleTree() *tree {
	return newTree([]store.Category{
		{ID: 1, SystemID: ptr[int64](100)}, {ID: 2, ParentID: ptr[int64](1)},
		{ID: 3, ParentID: ptr[int64](2), SystemID: ptr[int64](200)}, {ID: 4, ParentID: ptr[int64](3)}, {ID: 5},
	})
}

func TestBranch(t *testing.T) {
	tr := sampleTree()
	if got := tr.branch(2); !slices.Equal(got, []int64{2, 3, 4}) {
		t.Fatalf("branch(2) = %v", got)
	}
	if got := tr.branch(99); got != nil {
		t.Fatalf("branch of an unknown id = %v", got)
	}
}

func TestWithin(t *testing.T) {
	tr := sampleTree()
	for _, c := range []struct {
		id, root int64
		want     bool
	}{{4, 1, true}, {4, 4, true}, {1, 4, false}, {5, 1, false}, {99, 1, false}} {
		if got := tr.within(c.id, c.root); got != c.want {
			t.Errorf("within(%d, %d) = %v", c.id, c.root, got)
		}
	}
}

func TestWithinSurvivesACycle(t *testing.T) {
	tr := sampleTree()
	tr.nodes[1].ParentID = ptr[int64](4)
	if tr.within(2, 5) {
		t.Fatal("a cycle must not report coverage")
	}
}

func TestSystemIsTheNearestAncestors(t *testing.T) {
	tr := sampleTree()
	for id, want := range map[int64]int64{1: 100, 2: 100, 3: 200, 4: 200} {
		if got := tr.system(id); got == nil || *got != want {
			t.Errorf("system(%d) = %v, want %d", id, got, want)
		}
	}
	if tr.system(5) != nil {
		t.Error("an unfiled branch carries no system")
	}
	got := tr.carrying(100)
	slices.Sort(got)
	if !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("carrying(100) = %v", got)
	}
}
