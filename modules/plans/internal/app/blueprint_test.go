package app

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomBlueprint makes n domains with random weights over random,
// sometimes overlapping, pools.
func randomBlueprint(r *rand.Rand) []Domain {
	n := 1 + r.IntN(6)
	ds := make([]Domain, n)
	for i := range ds {
		ds[i] = Domain{Name: string(rune('A' + i)), Weight: 0.5 + r.Float64()*10}
		size := r.IntN(40)
		for range size {
			ds[i].Pool = append(ds[i].Pool, int64(1+r.IntN(150)))
		}
	}
	return ds
}

func TestDrawPropertiesOnRandomBlueprints(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	refused, drawn := 0, 0
	for iter := 0; iter < 3000; iter++ {
		ds := randomBlueprint(r)
		shape := []string{ShapePapers, ShapeDomains}[r.IntN(2)]
		size, blocks := len(ds)+r.IntN(20), 1+r.IntN(4)
		weights := make([]float64, len(ds))
		sum := 0.0
		for i, d := range ds {
			weights[i] = d.Weight
			sum += d.Weight
		}
		out, short := Draw(shape, ds, blocks, size, r)
		if len(short) > 0 {
			refused++
			if out != nil {
				t.Fatal("blocks drawn despite a shortfall")
			}
			for _, s := range short {
				if s.Has >= s.Needed || s.Name != ds[s.Domain].Name {
					t.Fatalf("bad shortfall %+v", s)
				}
			}
			continue
		}
		drawn++
		seen := map[int64]bool{}
		perDomain := make([]int, len(ds))
		for _, b := range out {
			for k, id := range b.QuestionIDs {
				if seen[id] {
					t.Fatalf("question %d repeated across blocks", id)
				}
				seen[id] = true
				d := b.Domains[k]
				perDomain[d]++
				if !slices.Contains(ds[d].Pool, id) {
					t.Fatalf("question %d not in the pool of domain %d", id, d)
				}
			}
		}
		switch shape {
		case ShapePapers:
			if len(out) != blocks {
				t.Fatalf("want %d papers, got %d", blocks, len(out))
			}
			for _, b := range out {
				if len(b.QuestionIDs) != size {
					t.Fatalf("paper of %d questions, want %d", len(b.QuestionIDs), size)
				}
				counts := make([]int, len(ds))
				for _, d := range b.Domains {
					counts[d]++
				}
				for d, c := range counts {
					if exact := float64(size) * weights[d] / sum; math.Abs(float64(c)-exact) >= 1 {
						t.Fatalf("paper domain %d: %d questions for a quota of %.2f", d, c, exact)
					}
				}
			}
		case ShapeDomains:
			if len(out) != len(ds) {
				t.Fatalf("want one block per domain")
			}
			total := 0
			allAtLeastOne := true
			for d := range ds {
				if float64(size)*weights[d]/sum < 1 {
					allAtLeastOne = false
				}
			}
			for d, b := range out {
				total += len(b.QuestionIDs)
				if len(b.QuestionIDs) < 1 {
					t.Fatalf("domain %d has an empty block", d)
				}
				exact := float64(size) * weights[d] / sum
				limit := 2.0
				if allAtLeastOne {
					limit = 1
				}
				if math.Abs(float64(len(b.QuestionIDs))-exact) >= limit {
					t.Fatalf("domain %d: %d questions for a quota of %.2f", d, len(b.QuestionIDs), exact)
				}
			}
			if total != size {
				t.Fatalf("domains total %d, want %d", total, size)
			}
		}
	}
	if refused < 100 || drawn < 100 {
		t.Fatalf("the generator should exercise both outcomes: %d refused, %d drawn", refused, drawn)
	}
}

func TestDrawRefusesNamingTheShortDomainAndByHowMany(t *testing.T) {
	ds := []Domain{{Name: "Cardiology", Weight: 3, Pool: []int64{1, 2, 3}}, {Name: "Renal", Weight: 1, Pool: []int64{4, 5, 6, 7}}}
	_, short := Draw(ShapeDomains, ds, 1, 8, rand.New(rand.NewPCG(3, 4)))
	if len(short) != 1 || short[0].String() != `domain "Cardiology" is short by 3 questions (needs 6, has 3 unused)` {
		t.Fatalf("got %v", short)
	}
}

func TestApportionGivesEveryDomainOneWhenAsked(t *testing.T) {
	got := apportion(4, []float64{100, 1, 1, 1}, true)
	if got[0] != 1 || got[1] != 1 || got[2] != 1 || got[3] != 1 {
		t.Fatalf("got %v", got)
	}
	if got := apportion(10, []float64{1, 1, 1}, false); got[0]+got[1]+got[2] != 10 || got[0] != 4 {
		t.Fatalf("got %v", got)
	}
}
