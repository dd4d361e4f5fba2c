package module

import (
	"context"
	"strings"
	"testing"
)

type greeter interface{ Greet() string }

type named struct{ name string }

func (n named) Name() string { return n.name }

type friendly struct{ named }

func (friendly) Greet() string { return "hello" }

// asker needs a greeter from the module named provider.
type asker struct {
	named
	g greeter
}

func askerOf(name, provider string) Constructor {
	return func(_ context.Context, k *Kit) (Module, error) {
		a := &asker{named: named{name}}
		Need(k, provider, &a.g)
		return a, nil
	}
}

func TestNeedsAreWiredWhicheverWayTheyPoint(t *testing.T) {
	k := &Kit{}
	// The asker is built before its provider: ports are filled after all.
	mods, err := k.Build(context.Background(), []Constructor{
		askerOf("first", "second"),
		func(context.Context, *Kit) (Module, error) { return friendly{named{"second"}}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := Lookup[*asker](mods)
	if !ok || a.g == nil || a.g.Greet() != "hello" {
		t.Fatalf("port not wired: %+v", a)
	}
}

func TestMissingOrWrongProviderStopsTheBootNamingBothSides(t *testing.T) {
	k := &Kit{}
	var appPort greeter
	Need(k, "nobody", &appPort)
	_, err := k.Build(context.Background(), []Constructor{
		askerOf("first", "plain"),
		func(context.Context, *Kit) (Module, error) { return named{"plain"}, nil },
	})
	if err == nil {
		t.Fatal("want a wiring error")
	}
	for _, want := range []string{
		`first needs module.greeter from module "plain", which does not implement it`,
		`app needs module.greeter from module "nobody", which is not in the app's list`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestAModuleListedTwiceIsRefused(t *testing.T) {
	ctor := func(context.Context, *Kit) (Module, error) { return named{"twice"}, nil }
	if _, err := (&Kit{}).Build(context.Background(), []Constructor{ctor, ctor}); err == nil {
		t.Fatal("want an error for a duplicate module")
	}
}

func TestNeedAllCollectsEveryOtherProviderInOrder(t *testing.T) {
	k := &Kit{}
	var all []greeter
	mods, err := k.Build(context.Background(), []Constructor{
		func(_ context.Context, k *Kit) (Module, error) {
			g := friendly{named{"collector"}} // a greeter itself: never its own provider
			NeedAll(k, &all)
			return g, nil
		},
		func(context.Context, *Kit) (Module, error) { return friendly{named{"b"}}, nil },
		func(context.Context, *Kit) (Module, error) { return named{"plain"}, nil },
		func(context.Context, *Kit) (Module, error) { return friendly{named{"d"}}, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 4 || len(all) != 2 || all[0].(friendly).Name() != "b" || all[1].(friendly).Name() != "d" {
		t.Fatalf("want b and d, got %v", all)
	}
}

// mutual needs a greeter from the other and greets itself, so two of them
// Need each other.
type mutual struct {
	friendly
	g greeter
}

func mutualOf(name, other string) Constructor {
	return func(_ context.Context, k *Kit) (Module, error) {
		m := &mutual{friendly: friendly{named{name}}}
		Need(k, other, &m.g)
		return m, nil
	}
}

func TestTwoModulesNeedingEachOtherMustBeAListedPair(t *testing.T) {
	ctors := []Constructor{mutualOf("ai", "bank"), mutualOf("bank", "ai"), askerOf("drafts", "bank")}
	_, err := (&Kit{}).Build(context.Background(), ctors)
	if err == nil || !strings.Contains(err.Error(), "ai and bank Need each other: list the pair in the app's Pairs") {
		t.Fatalf("an unlisted cycle: want it refused by name, got %v", err)
	}
	mods, err := (&Kit{}).Build(context.Background(), ctors, Pair{"bank", "ai"})
	if err != nil {
		t.Fatalf("a listed pair (in either order) is wired: %v", err)
	}
	if m, _ := Lookup[*mutual](mods); m.g == nil {
		t.Fatal("the pair's ports are not wired")
	}
}

func TestAListedPairThatIsNotTwoWayIsRefused(t *testing.T) {
	_, err := (&Kit{}).Build(context.Background(), []Constructor{askerOf("drafts", "bank"),
		func(context.Context, *Kit) (Module, error) { return friendly{named{"bank"}}, nil }}, Pair{"drafts", "bank"})
	if err == nil || !strings.Contains(err.Error(), "drafts and bank are listed as a pair but do not Need each other both ways") {
		t.Fatalf("a stale pair: want it refused, got %v", err)
	}
}
