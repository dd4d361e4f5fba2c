package rank

import (
	"errors"
	"testing"
)

func ids(cs []Candidate) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFuseUsesReciprocalRanks(t *testing.T) {
	kw := []Scored{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.5}, {ID: 3, Score: 0.1}}
	vec := []Scored{{ID: 3, Score: 0.8}, {ID: 4, Score: 0.7}, {ID: 1, Score: 0.6}}
	got := Fuse(kw, vec)
	// 1: 1/61+1/63, 3: 1/63+1/61 (tie, both; best rank 1 each -> lower id),
	// 2: 1/62, 4: 1/62 (tie, single; best rank 2 each -> lower id).
	if want := []int64{1, 3, 2, 4}; !equal(ids(got), want) {
		t.Fatalf("order %v, want %v", ids(got), want)
	}
	if d := got[0].Score - (1.0/61 + 1.0/63); d > 1e-12 || d < -1e-12 {
		t.Fatalf("fused score %.6f", got[0].Score)
	}
	if got[0].KeywordRank != 1 || got[0].VectorRank != 3 || got[0].Similarity != 0.6 {
		t.Fatalf("ranks not kept: %+v", got[0])
	}
	if got[2].VectorRank != 0 || got[2].Similarity != 0 {
		t.Fatalf("keyword-only hit has a similarity: %+v", got[2])
	}
}

func TestFuseKeepsAPoolOfSixty(t *testing.T) {
	var kw, vec []Scored
	for i := range 100 {
		kw = append(kw, Scored{ID: int64(i)})
		vec = append(vec, Scored{ID: int64(1000 + i)})
	}
	got := Fuse(kw, vec)
	if len(got) != PoolSize {
		t.Fatalf("pool %d, want %d", len(got), PoolSize)
	}
	// Interleaved: rank 1 of each, then rank 2 of each, ...
	if got[0].ID != 0 || got[1].ID != 1000 || got[2].ID != 1 {
		t.Fatalf("head %v", ids(got[:4]))
	}
}

func TestFuseIgnoresDuplicatesWithinARanker(t *testing.T) {
	got := Fuse([]Scored{{ID: 5}, {ID: 5}, {ID: 6}}, nil)
	if want := []int64{5, 6}; !equal(ids(got), want) {
		t.Fatalf("order %v", ids(got))
	}
}

func TestRerankReordersOnlyTheHead(t *testing.T) {
	var cands []Candidate
	for i := range 55 {
		cands = append(cands, Candidate{ID: int64(i)})
	}
	var seen int
	got, err := Rerank(cands, 50, func(head []Candidate) ([]float64, error) {
		seen = len(head)
		s := make([]float64, len(head))
		for i := range s {
			s[i] = float64(i) // reverse the head
		}
		return s, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 50 {
		t.Fatalf("scorer saw %d candidates, want 50", seen)
	}
	if got[0].ID != 49 || got[49].ID != 0 || got[50].ID != 50 || got[54].ID != 54 {
		t.Fatalf("order %v", ids(got))
	}
}

func TestRerankFailureKeepsFusedOrder(t *testing.T) {
	cands := []Candidate{{ID: 3, Score: 0.03}, {ID: 1, Score: 0.02}, {ID: 2, Score: 0.01}}
	for name, scorer := range map[string]Scorer{
		"error":       func([]Candidate) ([]float64, error) { return nil, errors.New("down") },
		"short reply": func([]Candidate) ([]float64, error) { return []float64{1}, nil },
	} {
		got, err := Rerank(cands, 50, scorer)
		if err == nil {
			t.Fatalf("%s: no error reported", name)
		}
		if !equal(ids(got), []int64{3, 1, 2}) || got[0].Score != 0.03 {
			t.Fatalf("%s: fused order changed: %+v", name, got)
		}
	}
}

func TestRestrictScoresHiddenTextOnlyForEditors(t *testing.T) {
	public := []Scored{{ID: 1, Score: 0.5}, {ID: 2, Score: 0.4}}
	all := []Scored{{ID: 3, Score: 0.9}, {ID: 2, Score: 0.8}, {ID: 1, Score: 0.7}, {ID: 4, Score: 0.1}}
	vector := []Scored{{ID: 5, Score: 0.9}, {ID: 3, Score: 0.8}, {ID: 1, Score: 0.7}}
	visible := map[int64]bool{1: true, 2: true, 3: true, 5: false}
	editable := map[int64]bool{2: true, 4: true}

	kw, vc := Restrict(public, all, vector, visible, editable, 10)
	// 3 matched only through hidden text and is not editable: gone. 2 is
	// editable and scores from the full text; 1 from the public text; 4
	// is editable (so visible) and matched through hidden text.
	want := []Scored{{ID: 2, Score: 0.8}, {ID: 1, Score: 0.5}, {ID: 4, Score: 0.1}}
	if len(kw) != len(want) {
		t.Fatalf("keyword = %v, want %v", kw, want)
	}
	for i := range want {
		if kw[i] != want[i] {
			t.Fatalf("keyword = %v, want %v", kw, want)
		}
	}
	if len(vc) != 2 || vc[0].ID != 3 || vc[1].ID != 1 {
		t.Fatalf("vector = %v, want 3 then 1 (5 is not visible)", vc)
	}

	kw, vc = Restrict(public, all, vector, visible, editable, 1)
	if len(kw) != 1 || kw[0].ID != 2 || len(vc) != 1 || vc[0].ID != 3 {
		t.Fatalf("cut to 1: %v %v", kw, vc)
	}

	kw, vc = Restrict(public, all, vector, nil, nil, 10)
	if len(kw) != 0 || len(vc) != 0 {
		t.Fatalf("nothing reachable must find nothing: %v %v", kw, vc)
	}
}
