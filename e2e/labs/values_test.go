package labs_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/labs"
)

var seq atomic.Int64

// group is a group name no other test uses.
func group(prefix string) string { return fmt.Sprintf("%s %d", prefix, seq.Add(1)) }

// library stands in for the library module (not yet in the app): article
// id -> its section ids.
type library map[int64][]string

func (l library) ArticleSectionExists(_ context.Context, id int64, section string) (bool, bool, error) {
	sections, ok := l[id]
	if !ok {
		return false, false, nil
	}
	for _, s := range sections {
		if s == section {
			return true, true, nil
		}
	}
	return true, false, nil
}

// deck stands in for the flashcards module: the card ids that exist.
type deck map[int64]bool

func (d deck) CardExists(_ context.Context, id int64) (bool, error) { return d[id], nil }

func withPorts(a labs.Articles, c labs.Cards) {
	m := app.Lookup[*labs.Module](h.App)
	DeferCleanup(m.SetPorts(a, c))
}

var _ = Describe("The lab reference table", func() {
	It("shows learners the published values only, ordered by group, name, then id, with tabs and both unit systems", func() {
		g1, g2 := group("Aa order"), group("Ab order")
		create(q{"group": g1, "name": "Potassium", "is_published": true})
		na1 := create(q{"group": g1, "name": "Sodium", "age_group": "Adult male", "is_published": true,
			"conventional_range": "135–145", "conventional_units": "mEq/L"})
		create(q{"group": g1, "name": "Sodium", "age_group": "Adult female", "is_published": true})
		draft := create(q{"group": g1, "name": "Chloride"})
		create(q{"group": g2, "name": "Albumin", "is_published": true})

		l := listing(learner, "")
		names := func(vs []map[string]any) []string {
			var out []string
			for _, v := range vs {
				out = append(out, fmt.Sprintf("%s/%v", v["name"], v["age_group"]))
			}
			return out
		}
		Expect(names(inGroup(l, g1))).To(Equal([]string{"Potassium/Adult", "Sodium/Adult male", "Sodium/Adult female"}))
		Expect(names(inGroup(l, g2))).To(Equal([]string{"Albumin/Adult"}))
		Expect(l["truncated"]).To(BeFalse())
		Expect(l["tabs"]).To(ContainElements(q{"group": g1, "count": float64(3)}, q{"group": g2, "count": float64(1)}))

		// Groups in order across the whole listing, and the tabs in that order too.
		var seen []string
		for _, v := range l["values"].([]any) {
			if g := v.(map[string]any)["group"].(string); len(seen) == 0 || seen[len(seen)-1] != g {
				seen = append(seen, g)
			}
		}
		Expect(seen).To(HaveLen(len(l["tabs"].([]any))))
		for i, t := range l["tabs"].([]any) {
			Expect(t.(map[string]any)["group"]).To(Equal(seen[i]))
		}

		first := inGroup(l, g1)[1]
		Expect(first).To(And(HaveKeyWithValue("id", BeNumerically("==", IDOf(na1))),
			HaveKeyWithValue("reference_range", "135–145"), HaveKeyWithValue("units", "mmol/L"),
			HaveKeyWithValue("conventional_range", "135–145"), HaveKeyWithValue("conventional_units", "mEq/L"),
			HaveKeyWithValue("card_ids", BeEmpty()), HaveKeyWithValue("source_url", BeNil())))
		Expect(inGroup(l, g1)[2]["conventional_units"]).To(BeNil())
		for _, v := range l["values"].([]any) {
			Expect(v.(map[string]any)["is_published"]).To(BeTrue())
			Expect(v.(map[string]any)["id"]).NotTo(BeNumerically("==", IDOf(draft)))
		}
	})

	It("lists drafts too for moderators who ask, refuses learners who ask with 403, and moderators see published only by default", func() {
		g := group("Drafts")
		pub := create(q{"group": g, "is_published": true})
		draft := create(q{"group": g, "name": "Unfinished"})

		Expect(learner.Client(h).Get(api + "?include_drafts=true")).To(HaveError(403, "forbidden"))
		Expect(h.Anon().Get(api)).To(HaveError(401, "unauthenticated"))

		all := inGroup(listing(mod, "?include_drafts=true"), g)
		Expect(all).To(HaveLen(2))
		Expect(all[1]).To(And(HaveKeyWithValue("id", BeNumerically("==", IDOf(draft))), HaveKeyWithValue("is_published", false)))
		Expect(inGroup(listing(mod, ""), g)).To(ConsistOf(HaveKeyWithValue("id", BeNumerically("==", IDOf(pub)))))
		Expect(inGroup(listing(mod, "?include_drafts=false"), g)).To(HaveLen(1))
	})

	It("lets moderators add, replace (publishing or retracting) and remove values; learners may not write", func() {
		g := group("Writes")
		v := create(q{"group": g, "name": "  Glucose (fasting) ", "source_url": "https://doi.org/10.2337/dc24-S002",
			"conventional_range": "70–99", "conventional_units": "mg/dL"})
		Expect(v).To(And(HaveKeyWithValue("name", "Glucose (fasting)"), HaveKeyWithValue("is_published", false),
			HaveKeyWithValue("source_url", "https://doi.org/10.2337/dc24-S002")))
		row, ok := stored(IDOf(v))
		Expect(ok).To(BeTrue())
		Expect(row.Name).To(Equal("Glucose (fasting)"))
		Expect(*row.SourceURL).To(Equal("https://doi.org/10.2337/dc24-S002"))

		Expect(learner.Client(h).Post(api, record(nil))).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Put(at("/%d", IDOf(v)), record(nil))).To(HaveError(403, "forbidden"))
		Expect(learner.Client(h).Delete(at("/%d", IDOf(v)))).To(HaveError(403, "forbidden"))

		res := mod.Client(h).Put(at("/%d", IDOf(v)), record(q{"group": g, "name": "Glucose (random)", "is_published": true}))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("name", "Glucose (random)"), HaveKeyWithValue("is_published", true),
			HaveKeyWithValue("source_url", BeNil()), HaveKeyWithValue("conventional_range", BeNil())))
		row, _ = stored(IDOf(v))
		Expect(row.IsPublished).To(BeTrue())
		Expect(row.SourceURL).To(BeNil())
		Expect(inGroup(listing(learner, ""), g)).To(HaveLen(1))

		Expect(mod.Client(h).Put(at("/%d", IDOf(v)), record(q{"group": g, "is_published": false}))).To(HaveStatus(200))
		Expect(inGroup(listing(learner, ""), g)).To(BeEmpty())

		Expect(mod.Client(h).Put(at("/999999999"), record(nil))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(at("/%d", IDOf(v)))).To(HaveStatus(204))
		_, ok = stored(IDOf(v))
		Expect(ok).To(BeFalse())
		Expect(mod.Client(h).Delete(at("/%d", IDOf(v)))).To(HaveError(404, "not_found"))
	})

	DescribeTable("refuses a record that breaks the field table, naming the field, and stores nothing",
		func(edits q, field, message string) {
			g := group("Refused")
			edits["group"] = g
			if field == "body.group" {
				edits["group"] = edits["bad_group"]
				delete(edits, "bad_group")
			}
			errs := fieldErrors(mod.Client(h).Post(api, record(edits)))
			Expect(errs).To(HaveKeyWithValue(field, message))
			var n int64
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM labs.lab_values WHERE group_name = ?`, g).Scan(&n).Error).To(Succeed())
			Expect(n).To(BeZero())

			// PUT applies the same rules to an existing value.
			v := create(q{"group": g})
			Expect(fieldErrors(mod.Client(h).Put(at("/%d", IDOf(v)), record(edits)))).To(HaveKeyWithValue(field, message))
		},
		Entry("blank name", q{"name": "   "}, "body.name", "name is required and must not be blank"),
		Entry("blank group", q{"bad_group": "\t"}, "body.group", "group is required and must not be blank"),
		Entry("blank reference_range", q{"reference_range": ""}, "body.reference_range", "reference_range is required and must not be blank"),
		Entry("blank units", q{"units": " "}, "body.units", "units is required and must not be blank"),
		Entry("blank age_group", q{"age_group": " "}, "body.age_group", "age_group is required and must not be blank"),
		Entry("blank specimen", q{"specimen": ""}, "body.specimen", "specimen is required and must not be blank"),
		Entry("blank source", q{"source": "  "}, "body.source", "source is required and must not be blank"),
		Entry("name over 120", q{"name": strings.Repeat("n", 121)}, "body.name", "name must be at most 120 characters (got 121)"),
		Entry("group over 60", q{"bad_group": strings.Repeat("g", 61)}, "body.group", "group must be at most 60 characters (got 61)"),
		Entry("reference_range over 250", q{"reference_range": strings.Repeat("r", 251)}, "body.reference_range", "reference_range must be at most 250 characters (got 251)"),
		Entry("units over 80", q{"units": strings.Repeat("µ", 81)}, "body.units", "units must be at most 80 characters (got 81)"),
		Entry("age_group over 120", q{"age_group": strings.Repeat("a", 121)}, "body.age_group", "age_group must be at most 120 characters (got 121)"),
		Entry("specimen over 120", q{"specimen": strings.Repeat("s", 121)}, "body.specimen", "specimen must be at most 120 characters (got 121)"),
		Entry("source over 500", q{"source": strings.Repeat("c", 501)}, "body.source", "source must be at most 500 characters (got 501)"),
		Entry("source_url over 2000", q{"source_url": "https://x.org/" + strings.Repeat("a", 1987)}, "body.source_url", "source_url must be at most 2000 characters (got 2001)"),
		Entry("source_url not a URL", q{"source_url": "see the textbook"}, "body.source_url", "source_url must be an absolute http or https URL with a host"),
		Entry("source_url with another scheme", q{"source_url": "javascript:alert(1)"}, "body.source_url", "source_url must be an absolute http or https URL with a host"),
		Entry("article_section_id without article_id", q{"article_section_id": "s-1"}, "body.article_section_id", "article_section_id requires article_id"),
		Entry("article_section_id over 64", q{"article_id": 1, "article_section_id": strings.Repeat("i", 65)}, "body.article_section_id", "article_section_id must be at most 64 characters (got 65)"),
		Entry("a NUL byte", q{"specimen": "Ser\x00um"}, "body.specimen", "must not contain a NUL byte"),
		Entry("conventional range without units", q{"conventional_range": "70–99"}, "body.conventional_units", "conventional_units is required when conventional_range is given"),
		Entry("conventional units without range", q{"conventional_units": "mg/dL"}, "body.conventional_range", "conventional_range is required when conventional_units is given"),
		Entry("source missing", q{"source": nil}, "body.source", "source is required and must not be blank"),
		Entry("name missing", q{"name": nil}, "body.name", "name is required and must not be blank"),
		Entry("article_id not positive", q{"article_id": 0}, "body.article_id", "expected number >= 1"),
	)

	It("accepts every field at its limit exactly, counting characters rather than bytes", func() {
		v := create(q{"group": strings.Repeat("é", 60), "name": strings.Repeat("é", 120), "reference_range": strings.Repeat("é", 250),
			"units": strings.Repeat("é", 80), "age_group": strings.Repeat("é", 120), "specimen": strings.Repeat("é", 120),
			"source": strings.Repeat("é", 500), "source_url": "https://x.org/" + strings.Repeat("a", 1986)})
		row, _ := stored(IDOf(v))
		Expect([]rune(row.Source)).To(HaveLen(500))
		Expect(mod.Client(h).Delete(at("/%d", IDOf(v)))).To(HaveStatus(204))
	})

	It("links a value to a real article and section of the library, and refuses what it does not hold", func() {
		res := mod.Client(h).Post("/api/v1/articles/", q{"title": group("Hyponatraemia"),
			"sections": []q{{"id": "intro", "heading": "Introduction", "markdown": "Low sodium."}}})
		Expect(res).To(HaveStatus(201))
		article := res.ID()
		v := create(q{"group": group("Linked"), "name": "Sodium", "article_id": article, "article_section_id": "intro"})
		Expect(v).To(And(HaveKeyWithValue("article_id", BeNumerically("==", article)),
			HaveKeyWithValue("article_section_id", "intro")))
		Expect(fieldErrors(mod.Client(h).Post(api, record(q{"article_id": article, "article_section_id": "nope"})))).
			To(HaveKeyWithValue("body.article_section_id", ContainSubstring("must be a section of article")))
		Expect(fieldErrors(mod.Client(h).Post(api, record(q{"article_id": 999999999})))).
			To(HaveKeyWithValue("body.article_id", "article_id must be a real article: article 999999999 does not exist"))
	})

	It("checks article_id and article_section_id against the library once one is present", func() {
		withPorts(library{7: {"intro", "hyponatraemia"}}, nil)
		g := group("Articles")
		v := create(q{"group": g, "article_id": 7, "article_section_id": "hyponatraemia"})
		Expect(v).To(And(HaveKeyWithValue("article_id", BeNumerically("==", 7)), HaveKeyWithValue("article_section_id", "hyponatraemia")))
		row, _ := stored(IDOf(v))
		Expect(*row.ArticleID).To(BeNumerically("==", 7))
		Expect(*row.ArticleSectionID).To(Equal("hyponatraemia"))
		Expect(create(q{"group": g, "article_id": 7})).To(HaveKeyWithValue("article_section_id", BeNil()))

		Expect(fieldErrors(mod.Client(h).Post(api, record(q{"article_id": 8})))).
			To(HaveKeyWithValue("body.article_id", "article_id must be a real article: article 8 does not exist"))
		Expect(fieldErrors(mod.Client(h).Post(api, record(q{"article_id": 7, "article_section_id": "outro"})))).
			To(HaveKeyWithValue("body.article_section_id", `article_section_id must be a section of article 7: it has no section "outro"`))
		Expect(fieldErrors(mod.Client(h).Put(at("/%d", IDOf(v)), record(q{"group": g, "article_id": 8, "article_section_id": "intro"})))).
			To(HaveKeyWithValue("body.article_id", "article_id must be a real article: article 8 does not exist"))
		row, _ = stored(IDOf(v))
		Expect(*row.ArticleSectionID).To(Equal("hyponatraemia"))
	})

	It("links and unlinks flashcards for moderators, checking the card exists", func() {
		v := create(q{"group": group("Cards"), "is_published": true})
		id := IDOf(v)
		Expect(fieldErrors(mod.Client(h).Put(at("/%d/cards/%d", id, 999999999), nil))).To(HaveKeyWithValue("path.card_id",
			"card_id must be a real flashcard: card 999999999 does not exist"), "the flashcards module answers")

		withPorts(nil, deck{11: true, 12: true})
		Expect(learner.Client(h).Put(at("/%d/cards/%d", id, 11), nil)).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Put(at("/%d/cards/%d", id, 12), nil)).To(HaveStatus(200))
		res := mod.Client(h).Put(at("/%d/cards/%d", id, 11), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["card_ids"]).To(Equal([]any{float64(12), float64(11)}))
		Expect(mod.Client(h).Put(at("/%d/cards/%d", id, 11), nil).Map()["card_ids"]).To(HaveLen(2))
		Expect(fieldErrors(mod.Client(h).Put(at("/%d/cards/%d", id, 13), nil))).
			To(HaveKeyWithValue("path.card_id", "card_id must be a real flashcard: card 13 does not exist"))
		Expect(mod.Client(h).Put(at("/999999999/cards/%d", 11), nil)).To(HaveError(404, "not_found"))

		var links []int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT card_id FROM labs.lab_value_cards WHERE lab_value_id = ? ORDER BY card_id`, id).
			Scan(&links).Error).To(Succeed())
		Expect(links).To(Equal([]int64{11, 12}))

		Expect(learner.Client(h).Delete(at("/%d/cards/%d", id, 11))).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Delete(at("/%d/cards/%d", id, 12)).Map()["card_ids"]).To(Equal([]any{float64(11)}))
		Expect(mod.Client(h).Delete(at("/%d/cards/%d", id, 12))).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(at("/999999999/cards/%d", 12))).To(HaveError(404, "not_found"))

		// The learner's listing carries the links; deleting the value drops them.
		Expect(inGroup(listing(learner, ""), v["group"].(string))[0]["card_ids"]).To(Equal([]any{float64(11)}))
		Expect(mod.Client(h).Delete(at("/%d", id))).To(HaveStatus(204))
		var left int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM labs.lab_value_cards WHERE lab_value_id = ?`, id).
			Scan(&left).Error).To(Succeed())
		Expect(left).To(BeZero())
	})
})
