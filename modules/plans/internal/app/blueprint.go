package app

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
)

// Domain is one content domain of a blueprint: its weight and the live
// question ids it may draw from.
type Domain struct {
	Name   string
	Weight float64
	Pool   []int64
}

// Shape is how a blueprint becomes blocks.
const (
	ShapePapers  = "papers"  // miniature exams, each drawn to the weights
	ShapeDomains = "domains" // one block per domain, sized by weight
)

// Drawn is one block of a drawn blueprint: its question ids and, for each,
// the domain it was drawn for.
type Drawn struct {
	Title       string
	QuestionIDs []int64
	Domains     []int
}

// Shortfall is a domain the bank cannot fill.
type Shortfall struct {
	Domain      int
	Name        string
	Needed, Has int
}

func (s Shortfall) String() string {
	noun := "questions"
	if s.Needed-s.Has == 1 {
		noun = "question"
	}
	return fmt.Sprintf("domain %q is short by %d %s (needs %d, has %d unused)", s.Name, s.Needed-s.Has, noun, s.Needed, s.Has)
}

// apportion splits total among weights by largest remainder (ties to the
// earlier domain), so every share is within one of its exact quota; with
// atLeastOne, a domain rounded to zero gets one, taken from the domain
// most above its quota. total must be at least len(weights) then.
func apportion(total int, weights []float64, atLeastOne bool) []int {
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	out := make([]int, len(weights))
	exact := make([]float64, len(weights))
	given := 0
	for i, w := range weights {
		exact[i] = float64(total) * w / sum
		out[i] = int(exact[i])
		given += out[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return exact[order[a]]-float64(out[order[a]]) > exact[order[b]]-float64(out[order[b]])
	})
	for k := 0; given < total; k++ {
		out[order[k%len(order)]]++
		given++
	}
	if atLeastOne {
		for i := range out {
			if out[i] > 0 {
				continue
			}
			donor := -1
			for j := range out {
				if out[j] > 1 && (donor < 0 || float64(out[j])-exact[j] > float64(out[donor])-exact[donor]) {
					donor = j
				}
			}
			out[donor]--
			out[i]++
		}
	}
	return out
}

// Draw turns a blueprint into blocks. papers: blocks miniature exams of
// size questions each, every exam apportioned to the weights; domains: one
// block per domain, size questions in all apportioned to the weights with
// at least one each. No question appears twice across the blocks. When a
// domain's pool (less what other domains drew) is too small, Draw returns
// every short domain and no blocks.
func Draw(shape string, domains []Domain, blocks, size int, rng *rand.Rand) ([]Drawn, []Shortfall) {
	weights := make([]float64, len(domains))
	for i, d := range domains {
		weights[i] = d.Weight
	}
	var per [][]int // per[block][domain]: how many to draw
	switch shape {
	case ShapePapers:
		counts := apportion(size, weights, false)
		for range blocks {
			per = append(per, counts)
		}
	default:
		counts := apportion(size, weights, true)
		for i := range domains {
			row := make([]int, len(domains))
			row[i] = counts[i]
			per = append(per, row)
		}
	}
	// Each domain's whole need is drawn at once from its shuffled pool,
	// skipping what earlier domains took.
	used := map[int64]bool{}
	picked := make([][]int64, len(domains))
	var short []Shortfall
	for d := range domains {
		need := 0
		for _, row := range per {
			need += row[d]
		}
		var free []int64
		for _, id := range uniq(domains[d].Pool) {
			if !used[id] {
				free = append(free, id)
			}
		}
		if len(free) < need {
			short = append(short, Shortfall{Domain: d, Name: domains[d].Name, Needed: need, Has: len(free)})
			continue
		}
		rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		picked[d] = free[:need]
		for _, id := range picked[d] {
			used[id] = true
		}
	}
	if len(short) > 0 {
		return nil, short
	}
	out := make([]Drawn, len(per))
	for b, row := range per {
		if shape == ShapePapers {
			out[b].Title = fmt.Sprintf("Paper %d", b+1)
		} else {
			out[b].Title = domains[b].Name
		}
		for d, n := range row {
			out[b].QuestionIDs = append(out[b].QuestionIDs, picked[d][:n]...)
			for range n {
				out[b].Domains = append(out[b].Domains, d)
			}
			picked[d] = picked[d][n:]
		}
	}
	return out, nil
}

func uniq(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
