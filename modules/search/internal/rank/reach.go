package rank

import "sort"

// Restrict keeps what a caller may find, each list cut to n, best first.
// Keyword hits come from two rankings of the same query: public over the
// text anyone who sees the item may read, all over that text plus the
// hidden (answer-side) text. An item the caller may edit takes its place
// in all; an item they may only see takes its place in public, so hidden
// text never decides whether, or how high, it is found. Only titles are
// embedded, so a vector hit needs the item to be visible. An editable item
// counts as visible.
func Restrict(public, all, vector []Scored, visible, editable map[int64]bool, n int) (keyword, vec []Scored) {
	seen := map[int64]bool{}
	for _, s := range all {
		if editable[s.ID] && !seen[s.ID] {
			seen[s.ID] = true
			keyword = append(keyword, s)
		}
	}
	for _, s := range public {
		if (visible[s.ID] || editable[s.ID]) && !seen[s.ID] {
			seen[s.ID] = true
			keyword = append(keyword, s)
		}
	}
	sort.SliceStable(keyword, func(i, j int) bool {
		if keyword[i].Score != keyword[j].Score {
			return keyword[i].Score > keyword[j].Score
		}
		return keyword[i].ID < keyword[j].ID
	})
	for _, s := range vector {
		if visible[s.ID] || editable[s.ID] {
			vec = append(vec, s)
		}
	}
	return keyword[:min(len(keyword), n)], vec[:min(len(vec), n)]
}
