package module

import (
	"context"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
)

type offer interface{ Offered() []string }

type offering struct {
	named
	kinds []string
}

func (o offering) Offered() []string { return o.kinds }

func offerer(name string, kinds ...string) Constructor {
	return func(context.Context, *Kit) (Module, error) { return offering{named{name}, kinds}, nil }
}

// kindsAfter builds the offerers and gives the index an asking module made.
func kindsAfter(t *testing.T, offerers ...Constructor) *Kinds[offer] {
	t.Helper()
	var ks *Kinds[offer]
	asker := func(_ context.Context, k *Kit) (Module, error) {
		ks = NeedKinds(k, offer.Offered)
		return named{"asker"}, nil
	}
	if _, err := (&Kit{}).Build(context.Background(), append([]Constructor{asker}, offerers...)); err != nil {
		t.Fatal(err)
	}
	return ks
}

func TestKindsFindTheOwningModuleAndNameTheChoices(t *testing.T) {
	ks := kindsAfter(t, offerer("bank", "question", "quiz"), offerer("library", "article"))
	got, err := ks.Find("kind", "article")
	if err != nil || got.(offering).Name() != "library" {
		t.Fatalf("article: %v %v", got, err)
	}
	_, err = ks.Find("kind", "poem")
	ae, ok := apperr.As(err)
	if !ok || ae.Code != apperr.Invalid || ae.Fields[0].Field != "kind" ||
		!strings.Contains(ae.Message, "article, question, quiz") {
		t.Fatalf("poem: %v", err)
	}
}

func TestTwoModulesOfferingOneKindIsAProgrammingError(t *testing.T) {
	ks := kindsAfter(t, offerer("bank", "question"), offerer("copy", "question"))
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `"question"`) {
			t.Fatalf("want a panic naming the kind, got %v", r)
		}
	}()
	ks.Names()
}
