package module

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Kinds finds, by the kind of thing named in a request ("question",
// "article", "deck"), the module that owns it, among every module offering a
// capability T (something to report, something to share). Modules offer
// kinds by implementing T; NeedKinds collects them as NeedAll does.
type Kinds[T any] struct {
	offered *[]T
	kindsOf func(T) []string

	once  sync.Once
	index map[string]T
	names []string
}

// NeedKinds declares that what is being built asks every module offering T,
// each naming its kinds through kindsOf.
func NeedKinds[T any](k *Kit, kindsOf func(T) []string) *Kinds[T] {
	ks := &Kinds[T]{offered: new([]T), kindsOf: kindsOf}
	NeedAll(k, ks.offered)
	return ks
}

// build indexes on first use: the offers are wired only after every module
// is built. Two modules claiming one kind is a programming error.
func (ks *Kinds[T]) build() {
	ks.once.Do(func() {
		ks.index = map[string]T{}
		for _, t := range *ks.offered {
			for _, kind := range ks.kindsOf(t) {
				if _, dup := ks.index[kind]; dup {
					panic(fmt.Sprintf("module: two modules offer the kind %q", kind))
				}
				ks.index[kind] = t
				ks.names = append(ks.names, kind)
			}
		}
		slices.Sort(ks.names)
	})
}

// Names lists the kinds on offer, sorted.
func (ks *Kinds[T]) Names() []string {
	ks.build()
	return ks.names
}

// Find gives the module owning kind, or a 422 on field naming the kinds
// that exist.
func (ks *Kinds[T]) Find(field, kind string) (T, error) {
	ks.build()
	t, ok := ks.index[kind]
	if !ok {
		return t, apperr.Invalidf(field, "%s must be one of %s", field, strings.Join(ks.names, ", "))
	}
	return t, nil
}
