package library_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Rendering", func() {
	It("neutralises hostile markdown and stores only the safe HTML", func() {
		a := write(q{"title": "Hostile", "status": "published", "sections": []q{{"heading": "Payload", "markdown": "<script>alert(1)</script>\n\n" +
			"<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) and <a href=\"javascript:alert(2)\">raw</a> " +
			"[[hostile|<b onmouseover=alert(3)>x</b>]]"}}})
		html := strings.ToLower(a["sections"].([]any)[0].(map[string]any)["html"].(string))
		for _, bad := range []string{"<script", "<img", "javascript:", "<a href=\"javascript", "<b "} {
			Expect(html).NotTo(ContainSubstring(bad))
		}
		Expect(scalar[string]("SELECT html FROM library.sections WHERE article_id = ?", IDOf(a))).NotTo(ContainSubstring("<script"))
	})

	It("resolves cross-references on save and lists the broken ones", func() {
		target := write(q{"title": "Cross target", "status": "published",
			"sections": []q{{"id": "signs", "heading": "Signs", "markdown": "Fever."}}})
		a := write(q{"title": "Cross source", "sections": []q{{"id": "s1", "heading": "One",
			"markdown": "See [[cross-target#signs]], [[cross-target|the target]], [[later-article]] and [[cross-target#nope]]."}}})
		Expect(a["links"]).To(ConsistOf(HaveKeyWithValue("target", "cross-target#signs"), HaveKeyWithValue("target", "cross-target")))
		Expect(a["broken_links"]).To(ConsistOf(
			And(HaveKeyWithValue("target", "later-article"), HaveKeyWithValue("section", "s1"), HaveKeyWithValue("reason", ContainSubstring("slug"))),
			And(HaveKeyWithValue("target", "cross-target#nope"), HaveKeyWithValue("reason", ContainSubstring("section")))))
		html := a["sections"].([]any)[0].(map[string]any)["html"].(string)
		Expect(html).To(And(ContainSubstring(`<a href="/articles/cross-target#signs">Cross target › Signs</a>`),
			ContainSubstring(`<a href="/articles/cross-target">the target</a>`), ContainSubstring("[[later-article]]")))

		// A renamed target keeps resolving (through its former slug), and a
		// save after the missing one appears links it.
		Expect(mod.Client(h).Patch(path("/articles/%d", IDOf(target)), q{"slug": "cross-target-renamed"})).To(HaveStatus(200))
		write(q{"title": "Later article"})
		res := mod.Client(h).Patch(path("/articles/%d", IDOf(a)), q{"summary": "resave"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["broken_links"]).To(ConsistOf(HaveKeyWithValue("target", "cross-target#nope")))
		Expect(res.Map()["sections"].([]any)[0].(map[string]any)["html"]).
			To(ContainSubstring(`href="/articles/cross-target-renamed#signs"`))
	})
})

var _ = Describe("Cross-references readers may not follow", func() {
	It("leave a draft's title and slug out of a published article, and resolve once both are published", func() {
		draft := write(q{"title": "Unannounced trial", "status": "draft", "slug": "unannounced-trial",
			"sections": []q{{"id": "plan", "heading": "Plan", "markdown": "Not yet."}}})
		html := func(a map[string]any) string { return a["sections"].([]any)[0].(map[string]any)["html"].(string) }
		pub := write(q{"title": "Public review", "status": "published", "sections": []q{{"id": "s1", "heading": "One",
			"markdown": "See [[unannounced-trial#plan]]."}}})
		Expect(pub["links"]).To(Or(BeNil(), BeEmpty()))
		Expect(pub["broken_links"]).To(ConsistOf(And(HaveKeyWithValue("target", "unannounced-trial#plan"),
			HaveKeyWithValue("reason", ContainSubstring("not published")))))
		learner := h.NewUser(auth.RoleUser)
		read := learner.Client(h).Get(path("/articles/%d", IDOf(pub)))
		Expect(read).To(HaveStatus(200))
		Expect(html(read.Map())).To(And(ContainSubstring("[[unannounced-trial#plan]]"), Not(ContainSubstring("Unannounced trial")),
			Not(ContainSubstring("href"))))

		// A draft renders the link for its editors; published, it renders
		// again for its readers.
		other := write(q{"title": "Companion", "status": "draft", "sections": []q{{"id": "s1", "heading": "One",
			"markdown": "See [[unannounced-trial]]."}}})
		Expect(html(other)).To(ContainSubstring(`<a href="/articles/unannounced-trial">Unannounced trial</a>`))
		Expect(mod.Client(h).Put(path("/articles/%d/status", IDOf(other)), q{"status": "published"})).To(HaveStatus(200))
		Expect(html(learner.Client(h).Get(path("/articles/%d", IDOf(other))).Map())).NotTo(ContainSubstring("Unannounced trial"))
		Expect(scalar[string](`SELECT html FROM library.sections WHERE article_id = ?`, IDOf(other))).
			NotTo(ContainSubstring("Unannounced trial"))

		// Once the target is published, the next save links it.
		Expect(mod.Client(h).Put(path("/articles/%d/status", IDOf(draft)), q{"status": "published"})).To(HaveStatus(200))
		res := mod.Client(h).Patch(path("/articles/%d", IDOf(pub)), q{"summary": "resave"})
		Expect(res).To(HaveStatus(200))
		Expect(html(res.Map())).To(ContainSubstring(`<a href="/articles/unannounced-trial#plan">Unannounced trial › Plan</a>`))
	})
})

var _ = Describe("Listings", func() {
	It("shows learners the published library, by category, and editors what they may edit", func() {
		cat := category("Listing branch", nil)
		pub := simple("published", q{"category_id": cat})
		draft := simple("draft", q{"category_id": cat})
		elsewhere := simple("draft")
		learner := h.NewUser(auth.RoleUser)

		all := listIDs(learner.Client(h).Get(api + "/articles/?limit=200"))
		Expect(all).To(ContainElement(IDOf(pub)))
		Expect(all).NotTo(ContainElements(IDOf(draft), IDOf(elsewhere)))
		Expect(listIDs(learner.Client(h).Get(path("/articles/?category_id=%d", cat)))).To(Equal([]int64{IDOf(pub)}))
		Expect(listIDs(learner.Client(h).Get(api + "/articles/?editable=true"))).To(BeEmpty())

		holder := grantHolder("category", cat)
		Expect(listIDs(holder.Client(h).Get(api + "/articles/?editable=true"))).To(ConsistOf(IDOf(pub), IDOf(draft)))
		modList := listIDs(mod.Client(h).Get(api + "/articles/?editable=true&limit=200"))
		Expect(modList).To(ContainElements(IDOf(pub), IDOf(draft), IDOf(elsewhere)))
		res := mod.Client(h).Get(api + "/articles/?editable=true&limit=1")
		Expect(res.Header.Get("X-Total-Count")).To(Equal(fmt.Sprint(len(modList))))
		Expect(learner.Client(h).Get(api + "/articles/?limit=201")).To(HaveError(422, "invalid_request"))
	})

	It("offers the link picker published articles and the caller's own branch drafts, with sections", func() {
		cat := category("Picker branch", nil)
		pub := simple("published", q{"title": "Picker published"})
		mine := simple("draft", q{"title": "Picker mine", "category_id": cat})
		theirs := simple("draft", q{"title": "Picker theirs"})
		holder := grantHolder("category", cat)

		res := holder.Client(h).Get(api + "/articles/link-targets?q=picker&limit=25")
		Expect(listIDs(res)).To(ConsistOf(IDOf(pub), IDOf(mine)))
		Expect(res.List()[0]).To(HaveKeyWithValue("sections", ConsistOf(And(HaveKeyWithValue("id", "overview"), HaveKeyWithValue("heading", "Overview")))))
		Expect(listIDs(mod.Client(h).Get(api + "/articles/link-targets?q=picker"))).To(ConsistOf(IDOf(pub), IDOf(mine), IDOf(theirs)))
		Expect(listIDs(mod.Client(h).Get(api + "/articles/link-targets?q=picker&limit=1"))).To(HaveLen(1))
		Expect(mod.Client(h).Get(api + "/articles/link-targets?limit=26")).To(HaveError(422, "invalid_request"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(api + "/articles/link-targets")).To(HaveError(403, "forbidden"))
	})

	It("remembers what each person opened, newest first, and forgets what they may no longer read", func() {
		learner := h.NewUser(auth.RoleUser)
		var opened []int64
		for range 3 {
			a := simple("published")
			opened = append(opened, IDOf(a))
			Expect(learner.Client(h).Get(path("/articles/%d", IDOf(a)))).To(HaveStatus(200))
		}
		Expect(learner.Client(h).Get(path("/articles/by-slug/%s", scalar[string]("SELECT slug FROM library.articles WHERE id = ?", opened[0])))).
			To(HaveStatus(200))
		Expect(listIDs(learner.Client(h).Get(api + "/articles/recent"))).To(Equal([]int64{opened[0], opened[2], opened[1]}))
		Expect(listIDs(learner.Client(h).Get(api + "/articles/recent?limit=1"))).To(Equal([]int64{opened[0]}))
		Expect(mod.Client(h).Put(path("/articles/%d/status", opened[2]), q{"status": "archived"})).To(HaveStatus(200))
		Expect(listIDs(learner.Client(h).Get(api + "/articles/recent"))).To(Equal([]int64{opened[0], opened[1]}))
		Expect(listIDs(mod.Client(h).Get(api+"/articles/recent"))).NotTo(ContainElement(opened[0]), "per person")
		Expect(learner.Client(h).Get(api + "/articles/recent?limit=0")).To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Get(api + "/articles/recent?limit=21")).To(HaveError(422, "invalid_request"))
	})
})

var _ = Describe("Search", func() {
	// found polls the library search until want holds (the index is fed by
	// events handled off the request path).
	found := func(u *User, query string) func() []int64 {
		return func() []int64 { return listIDs(u.Client(h).Get(api + "/articles/?q=" + query)) }
	}

	It("finds published articles through their sections and follows deletes, restores and purges", func() {
		a := write(q{"title": "Pheochromocytoma", "status": "published", "sections": []q{
			{"heading": "Presentation", "markdown": "Paroxysmal headaches with palpitations."},
			{"heading": "Workup", "markdown": "Plasma metanephrines zymoglyphic marker."}}})
		draft := write(q{"title": "Zymoglyphic draft", "sections": []q{{"heading": "x", "markdown": "zymoglyphic"}}})
		learner := h.NewUser(auth.RoleUser)
		Eventually(found(learner, "zymoglyphic")).WithTimeout(20 * time.Second).WithPolling(100 * time.Millisecond).
			Should(Equal([]int64{IDOf(a)}))
		Expect(found(learner, "zymoglyphic")()).NotTo(ContainElement(IDOf(draft)))

		Expect(mod.Client(h).Delete(path("/articles/%d", IDOf(a)))).To(HaveStatus(200))
		Eventually(func() bool {
			return scalar[bool](`SELECT NOT bool_or(live) FROM search.documents WHERE kind = 'article' AND id IN
				(SELECT id FROM library.sections WHERE article_id = ?)`, IDOf(a))
		}).WithTimeout(20 * time.Second).Should(BeTrue())
		Expect(found(learner, "zymoglyphic")()).To(BeEmpty())
		Expect(mod.Client(h).Post(path("/articles/%d/restore", IDOf(a)), nil)).To(HaveStatus(200))
		Eventually(found(learner, "zymoglyphic")).WithTimeout(20 * time.Second).Should(Equal([]int64{IDOf(a)}))

		sections := scalar[string]("SELECT string_agg(id::text, ',') FROM library.sections WHERE article_id = ?", IDOf(a))
		Expect(mod.Client(h).Delete(path("/articles/%d", IDOf(a)))).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/articles/trash/%d", IDOf(a)))).To(HaveStatus(204))
		Eventually(func() int64 {
			return scalar[int64](`SELECT count(*) FROM search.documents WHERE kind = 'article' AND purged
				AND id = ANY(string_to_array(?, ',')::bigint[])`, sections)
		}).WithTimeout(20 * time.Second).Should(BeEquivalentTo(2))
	})
})
