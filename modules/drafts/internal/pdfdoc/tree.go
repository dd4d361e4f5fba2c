package pdfdoc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
)

// bytesPerNode is the least room one page tree entry takes in a file (its
// reference in a Kids array and its dictionary): a file of n bytes cannot
// really hold more than n/bytesPerNode pages, whatever its /Count says.
const bytesPerNode = 16

// maxTreeDepth bounds nesting; real page trees are a few levels deep.
const maxTreeDepth = 64

// MaxPages is the most page tree entries a file of size bytes can hold.
func MaxPages(size int64) int { return int(max(size/bytesPerNode, 1)) }

type ref struct{ id, gen uint64 }

// treeWalk collects the leaves of the page tree in order. It never trusts
// a declared /Count: it visits the real nodes, each at most once (a node
// reached twice is a cycle or a shared subtree, either of which would make
// a small file look endless), within a budget of nodes set by the file size.
type treeWalk struct {
	ctx    context.Context
	size   int64
	budget int
	seen   map[ref]bool
	pages  []pdf.Value
}

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}

// hostile is a structure refused for what reading it would cost (a page
// tree claiming more pages than the file can hold, a cycle, object numbers
// past what the file holds): a repair would rebuild the same trap, so it
// is not tried (see Repairable).
type hostile struct{ msg string }

func (h hostile) Error() string     { return ErrMalformed.Error() + ": " + h.msg }
func (h hostile) Is(err error) bool { return err == ErrMalformed }

func refused(format string, args ...any) error { return hostile{fmt.Sprintf(format, args...)} }

// walkPages returns the page dictionaries of the document in order.
func walkPages(ctx context.Context, trailer pdf.Value, size int64) ([]pdf.Value, error) {
	root := trailer.Key("Root").Key("Pages")
	if root.Kind() != pdf.Dict {
		return nil, damaged("it has no page tree")
	}
	w := &treeWalk{ctx: ctx, size: size, budget: MaxPages(size), seen: map[ref]bool{}}
	if claimed := root.Key("Count").Int64(); claimed > int64(w.budget) {
		return nil, refused("its page tree claims %d pages, more than a file of %s can hold (at most %d)",
			claimed, HumanSize(size), w.budget)
	}
	if err := w.node(root, 0); err != nil {
		return nil, err
	}
	return w.pages, nil
}

func (w *treeWalk) node(v pdf.Value, depth int) error {
	checkpoint(w.ctx)
	if depth > maxTreeDepth {
		return refused("its page tree nests deeper than %d levels", maxTreeDepth)
	}
	kids := v.Key("Kids")
	if kids.Kind() != pdf.Array {
		return damaged("a node of its page tree has no Kids array")
	}
	n := kids.Len()
	if n > w.budget {
		return refused("its page tree holds more entries than a file of %s can (at most %d)",
			HumanSize(w.size), MaxPages(w.size))
	}
	w.budget -= n
	refs, ok := kidRefs(kids)
	if !ok || len(refs) != n {
		return damaged("its page tree lists pages other than by reference")
	}
	for i, r := range refs {
		if w.seen[r] {
			return refused("its page tree reaches object %d twice (a cycle or a shared node)", r.id)
		}
		w.seen[r] = true
		kid := kids.Index(i)
		if kid.IsNull() {
			continue // a page lost to damage (a truncated file): read the others
		}
		if kid.Kind() != pdf.Dict {
			return damaged("page tree entry %d %d R is not a dictionary", r.id, r.gen)
		}
		typ := kid.Key("Type").Name()
		if typ == "Pages" || typ != "Page" && kid.Key("Kids").Kind() == pdf.Array {
			if err := w.node(kid, depth+1); err != nil {
				return err
			}
			continue
		}
		w.pages = append(w.pages, kid)
	}
	return nil
}

// kidRefs reads the object references of a Kids array. The library does
// not expose a value's object number, but it prints an array's unresolved
// references as "id gen R", which is what identifies a node.
func kidRefs(kids pdf.Value) ([]ref, bool) {
	s := kids.String()
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, false
	}
	f := strings.Fields(s[1 : len(s)-1])
	if len(f)%3 != 0 {
		return nil, false
	}
	refs := make([]ref, 0, len(f)/3)
	for i := 0; i < len(f); i += 3 {
		id, err1 := strconv.ParseUint(f[i], 10, 32)
		gen, err2 := strconv.ParseUint(f[i+1], 10, 16)
		if err1 != nil || err2 != nil || f[i+2] != "R" {
			return nil, false
		}
		refs = append(refs, ref{id, gen})
	}
	return refs, true
}

// HumanSize is a byte count for messages.
func HumanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
