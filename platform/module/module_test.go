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
