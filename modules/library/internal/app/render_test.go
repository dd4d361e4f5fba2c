package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/modules/library/internal/store"
)

func TestRenderResolvesCrossReferencesAndListsBrokenOnes(t *testing.T) {
	secs := []store.Section{{Key: "intro", Markdown: "See [[heart-failure#causes]], [[heart-failure|HF]], " +
		"[[old-hf]], [[nowhere]] and [[heart-failure#nope]]."}}
	hf := &store.Target{ArticleID: 7, Slug: "heart-failure", Title: "Heart failure", Keys: map[string]string{"causes": "Causes"}}
	links, broken, err := renderSections(secs, map[string]*store.Target{"heart-failure": hf, "old-hf": hf}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 3 || len(broken) != 2 {
		t.Fatalf("links %v broken %v", links, broken)
	}
	if broken[0].Target != "nowhere" || broken[1].Target != "heart-failure#nope" {
		t.Fatalf("broken %v", broken)
	}
	html := secs[0].HTML
	for _, want := range []string{`<a href="/articles/heart-failure#causes">Heart failure › Causes</a>`,
		`<a href="/articles/heart-failure">HF</a>`, "[[nowhere]]"} {
		if !strings.Contains(html, want) {
			t.Errorf("html %q lacks %q", html, want)
		}
	}
}

func TestRenderLeavesUnpublishedTargetsAsWrittenInAPublishedArticle(t *testing.T) {
	md := "See [[plan-b]] and [[live#why]]."
	targets := map[string]*store.Target{
		"plan-b": {ArticleID: 8, Slug: "plan-b-draft", Title: "Secret plan", Status: StatusDraft, Keys: map[string]string{}},
		"live":   {ArticleID: 9, Slug: "live", Title: "Live", Status: StatusPublished, Keys: map[string]string{"why": "Why"}},
	}
	for _, public := range []bool{false, true} {
		secs := []store.Section{{Key: "intro", Markdown: md}}
		links, broken, err := renderSections(secs, targets, public)
		if err != nil {
			t.Fatal(err)
		}
		html := secs[0].HTML
		if !strings.Contains(html, `<a href="/articles/live#why">Live › Why</a>`) {
			t.Errorf("public=%v: html %q lacks the published target", public, html)
		}
		if public {
			if len(links) != 1 || len(broken) != 1 || broken[0].Target != "plan-b" || !strings.Contains(html, "[[plan-b]]") ||
				strings.Contains(html, "Secret plan") || strings.Contains(html, "plan-b-draft") {
				t.Errorf("public: links %v broken %v html %q", links, broken, html)
			}
		} else if len(links) != 2 || !strings.Contains(html, `<a href="/articles/plan-b-draft">Secret plan</a>`) {
			t.Errorf("editors' draft: links %v html %q", links, html)
		}
	}
}

func TestRenderNeutralisesHostileMarkdown(t *testing.T) {
	secs := []store.Section{{Key: "x", Markdown: "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n" +
		"[click](javascript:alert(1)) [[a|<b onmouseover=alert(1)>x</b>]]"}}
	a := &store.Target{Slug: "a", Title: "A", Keys: map[string]string{}}
	if _, _, err := renderSections(secs, map[string]*store.Target{"a": a}, false); err != nil {
		t.Fatal(err)
	}
	html := strings.ToLower(secs[0].HTML)
	for _, bad := range []string{"<script", "<img", "javascript:", "<b "} {
		if strings.Contains(html, bad) {
			t.Errorf("rendered %q contains %q", secs[0].HTML, bad)
		}
	}
}

func TestKeysAreUniqueSlugsOfHeadings(t *testing.T) {
	taken := map[string]bool{"causes": true}
	if k := uniqueKey("Causes", taken); k != "causes-2" {
		t.Errorf("got %q", k)
	}
	if k := uniqueKey("¿¿??", taken); k != "section" {
		t.Errorf("got %q", k)
	}
}

func TestPlainText(t *testing.T) {
	if got := plainText("<p>Heart &amp; <em>lungs</em></p>\n<p>ok</p>"); got != "Heart & lungs ok" {
		t.Errorf("got %q", got)
	}
}

func TestAnnotateFindsWholeWordsLongestFirst(t *testing.T) {
	terms := []store.Term{{ID: 1, Term: "MI"}, {ID: 2, Term: "STEMI"}, {ID: 3, Term: "heart failure"}, {ID: 4, Term: "heart"}}
	got := annotate("Acute MI (a STEMI) causes Heart Failure; amide and heart.", terms)
	var ids []int64
	var texts []string
	for _, a := range got {
		ids = append(ids, a.Term.ID)
		texts = append(texts, a.Text)
	}
	if want := []int64{1, 2, 3, 4}; !slices.Equal(ids, want) {
		t.Fatalf("ids %v texts %v", ids, texts)
	}
	if texts[2] != "Heart Failure" || got[0].Start != 6 || got[0].End != 8 {
		t.Fatalf("got %+v", got)
	}
}

func TestMarkdownBoundsRefuseSlowShapes(t *testing.T) {
	s := &Service{cfg: Config{MaxSectionChars: 30000}}
	for name, md := range map[string]string{
		"too long":         strings.Repeat("a", 30001),
		"deep quotes":      "> > > > > > > > > deep",
		"unclosed links":   strings.Repeat("[a](", 1001),
		"too many opening": strings.Repeat("[", 5001),
	} {
		if err := s.checkMarkdown("m", md); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := s.checkMarkdown("m", "> quoted\n>> twice\n\n[a](/b) and [[c]]"); err != nil {
		t.Errorf("ordinary markdown refused: %v", err)
	}
}
