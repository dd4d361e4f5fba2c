package app

import (
	"strings"
	"testing"
)

func valid() Input {
	return Input{Name: "Sodium", Group: "Chemistry", ReferenceRange: "135–145", Units: "mmol/L", AgeGroup: "Adult",
		Specimen: "Serum", Source: "Tietz"}
}

func ptr[T any](v T) *T { return &v }

func fieldsOf(t *testing.T, in Input) map[string]string {
	t.Helper()
	_, bad := clean(in)
	out := map[string]string{}
	for _, f := range bad {
		out[f.Field] = f.Message
	}
	return out
}

func TestCleanStripsAndKeepsAValidRecord(t *testing.T) {
	in := valid()
	in.Name, in.SourceURL, in.ArticleSectionID = "  Sodium \n", ptr("  "), ptr("")
	v, bad := clean(in)
	if len(bad) > 0 || v.Name != "Sodium" || v.SourceURL != nil || v.ArticleSectionID != nil {
		t.Fatalf("got %+v %v", v, bad)
	}
}

func TestCleanRefusesEachRuleNamingTheField(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes
	cases := []struct {
		name  string
		edit  func(*Input)
		field string
		msg   string
	}{
		{"blank name", func(i *Input) { i.Name = " \t " }, "body.name", "name is required and must not be blank"},
		{"blank source", func(i *Input) { i.Source = "" }, "body.source", "source is required and must not be blank"},
		{"long name", func(i *Input) { i.Name = long(121) }, "body.name", "name must be at most 120 characters (got 121)"},
		{"long group", func(i *Input) { i.Group = long(61) }, "body.group", "group must be at most 60 characters (got 61)"},
		{"long range", func(i *Input) { i.ReferenceRange = long(251) }, "body.reference_range", "reference_range must be at most 250 characters (got 251)"},
		{"long units", func(i *Input) { i.Units = long(81) }, "body.units", "units must be at most 80 characters (got 81)"},
		{"long age group", func(i *Input) { i.AgeGroup = long(121) }, "body.age_group", "age_group must be at most 120 characters (got 121)"},
		{"long specimen", func(i *Input) { i.Specimen = long(121) }, "body.specimen", "specimen must be at most 120 characters (got 121)"},
		{"long source", func(i *Input) { i.Source = long(501) }, "body.source", "source must be at most 500 characters (got 501)"},
		{"long url", func(i *Input) { i.SourceURL = ptr("https://x.org/" + strings.Repeat("a", 1987)) }, "body.source_url", "source_url must be at most 2000 characters (got 2001)"},
		{"not a url", func(i *Input) { i.SourceURL = ptr("not a url") }, "body.source_url", "source_url must be an absolute http or https URL with a host"},
		{"javascript url", func(i *Input) { i.SourceURL = ptr("javascript:alert(1)") }, "body.source_url", "source_url must be an absolute http or https URL with a host"},
		{"no host", func(i *Input) { i.SourceURL = ptr("https:///path") }, "body.source_url", "source_url must be an absolute http or https URL with a host"},
		{"section without article", func(i *Input) { i.ArticleSectionID = ptr("s1") }, "body.article_section_id", "article_section_id requires article_id"},
		{"long section", func(i *Input) { i.ArticleID, i.ArticleSectionID = ptr(int64(1)), ptr(long(65)) }, "body.article_section_id", "article_section_id must be at most 64 characters (got 65)"},
		{"nul", func(i *Input) { i.Specimen = "Ser\x00um" }, "body.specimen", "specimen must not contain NUL characters"},
		{"conventional range alone", func(i *Input) { i.ConventionalRange = ptr("135–145") }, "body.conventional_units", "conventional_units is required when conventional_range is given"},
		{"conventional units alone", func(i *Input) { i.ConventionalUnits = ptr("mEq/L") }, "body.conventional_range", "conventional_range is required when conventional_units is given"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := valid()
			c.edit(&in)
			got := fieldsOf(t, in)
			if len(got) != 1 || got[c.field] != c.msg {
				t.Fatalf("want %s: %q, got %v", c.field, c.msg, got)
			}
		})
	}
}

func TestCleanAcceptsTheLimitsExactly(t *testing.T) {
	in := Input{Name: strings.Repeat("n", 120), Group: strings.Repeat("g", 60), ReferenceRange: strings.Repeat("r", 250),
		Units: strings.Repeat("u", 80), AgeGroup: strings.Repeat("a", 120), Specimen: strings.Repeat("s", 120),
		Source: strings.Repeat("c", 500), SourceURL: ptr("https://x.org/" + strings.Repeat("a", 1986)),
		ArticleID: ptr(int64(3)), ArticleSectionID: ptr(strings.Repeat("i", 64))}
	if got := fieldsOf(t, in); len(got) > 0 {
		t.Fatal(got)
	}
}

func TestCleanReportsEveryBadFieldAtOnce(t *testing.T) {
	if got := fieldsOf(t, Input{}); len(got) != 7 {
		t.Fatalf("want the seven required fields, got %v", got)
	}
}

func TestTheDemoTableIsLargeCitedAndValid(t *testing.T) {
	rows, err := demoRows()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 120 {
		t.Fatalf("only %d demo rows", len(rows))
	}
	groups := map[string]int{}
	for _, r := range rows {
		groups[r.GroupName]++
		if r.Source == "" || !r.IsPublished {
			t.Fatalf("row %q: no citation or not published", r.Name)
		}
	}
	for _, g := range []string{"Chemistry", "Haematology", "Blood gases", "Endocrine", "Lipids", "Urine"} {
		if groups[g] == 0 {
			t.Errorf("no %s rows", g)
		}
	}
	if len(groups) != 6 {
		t.Errorf("groups %v", groups)
	}
	t.Logf("%d demo rows: %v", len(rows), groups)
}
