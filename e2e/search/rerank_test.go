package search_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/modules/search/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Reranking", Ordered, func() {
	var (
		u      *harness.User
		topic  = "tension pneumothorax needle decompression"
		caseOf = map[int64]int{}
		fused  []int64
	)
	// prefer makes the stand-in reranker favour the question at fused[pos].
	prefer := func(pos int) int64 {
		id := fused[pos]
		proxy.Prefer(fmt.Sprintf("case %d:", caseOf[id]))
		return id
	}

	BeforeAll(func() {
		u = searcher(local)
		// 70 questions that all match, so the fused pool is full (60) and
		// the rerank may see at most 50 of them.
		var last int64
		for i := range 70 {
			last = question(local, fmt.Sprintf("Tension pneumothorax case %d: needle decompression site", i))
			caseOf[last] = i
		}
		waitIndexed(local, last, 1)
		fused = ids(searchQuestions(local, u, topic, 20))
		Expect(fused).To(HaveLen(20))
	})

	It("keeps fusion order while no rerank model is set", func() {
		before := len(proxy.RerankRequests())
		sec := searchQuestions(local, u, topic, 20)
		Expect(sec.Reranked).To(BeFalse())
		Expect(ids(sec)).To(Equal(fused))
		Expect(proxy.RerankRequests()).To(HaveLen(before))
	})

	It("reranks question search with the configured model, at most 50 candidates", func() {
		setRerankModel(local, "standin-rerank")
		favoured := prefer(10)
		before := len(proxy.RerankRequests())
		sec := searchQuestions(local, u, topic, 20)
		Expect(sec.Reranked).To(BeTrue())
		Expect(sec.Hits[0].ID).To(Equal(favoured))
		reqs := proxy.RerankRequests()
		Expect(reqs).To(HaveLen(before + 1))
		last := reqs[len(reqs)-1]
		Expect(last.Model).To(Equal("standin-rerank"))
		Expect(last.Query).To(Equal(topic))
		Expect(last.Documents).To(HaveLen(50))

		// The facade reranks only when asked.
		hy, err := app.Lookup[*search.Module](local.App).Hybrid(context.Background(), search.KindQuestion, topic, 20, false)
		Expect(err).NotTo(HaveOccurred())
		got := make([]int64, len(hy))
		for i, h := range hy {
			got[i] = h.ID
		}
		Expect(got).To(Equal(fused))
	})

	DescribeTable("returns the fused order with no error when the rerank endpoint fails",
		func(mode standin.Mode) {
			setRerankModel(local, "standin-rerank")
			prefer(10)
			proxy.SetRerank(mode)
			before := len(proxy.RerankRequests())
			sec := searchQuestions(local, u, topic, 20)
			Expect(sec.Reranked).To(BeFalse())
			Expect(ids(sec)).To(Equal(fused))
			Expect(len(proxy.RerankRequests())).To(Equal(before+1), "the endpoint was asked")
		},
		Entry("down", standin.Down),
		Entry("slow beyond the timeout", standin.Slow),
		Entry("rate-limited (429)", standin.RateLimited),
		Entry("server error", standin.ServerError),
		Entry("garbage reply", standin.Garbage),
		Entry("reply that does not match the candidates", standin.Mismatch),
	)

	It("keeps fusion order when the model is set but blank after trimming", func() {
		setRerankModel(local, "   ")
		before := len(proxy.RerankRequests())
		sec := searchQuestions(local, u, topic, 20)
		Expect(sec.Reranked).To(BeFalse())
		Expect(ids(sec)).To(Equal(fused))
		Expect(proxy.RerankRequests()).To(HaveLen(before))
	})

	It("never reranks typeahead", func() {
		setRerankModel(local, "standin-rerank")
		before := len(proxy.RerankRequests())
		res := u.Client(local).Get("/api/v1/search/suggest?q=" + url.QueryEscape("tension pneumo"))
		Expect(res).To(HaveStatusOK())
		Expect(proxy.RerankRequests()).To(HaveLen(before))
	})
})

var _ = Describe("POST /admin/rerank/test", func() {
	It("checks that the model ranks the relevant document first", func() {
		setRerankModel(local, "standin-rerank")
		admin := newUser(local, auth.RoleAdmin)
		res := admin.Client(local).Post("/api/v1/admin/rerank/test", nil)
		Expect(res).To(HaveStatusOK())
		body := res.Map()
		Expect(body).To(HaveKeyWithValue("ok", true))
		Expect(body).To(HaveKeyWithValue("model", "standin-rerank"))
		Expect(body["relevant_score"]).To(BeNumerically(">", body["irrelevant_score"]))
	})

	It("reports a model that does not rank the relevant document first", func() {
		setRerankModel(local, "standin-rerank")
		proxy.Prefer("fracture") // the stand-in now favours the irrelevant document
		admin := newUser(local, auth.RoleAdmin)
		res := admin.Client(local).Post("/api/v1/admin/rerank/test", map[string]any{"model": "other-model"})
		Expect(res).To(HaveStatusOK())
		Expect(res.Map()).To(HaveKeyWithValue("ok", false))
		Expect(res.Map()).To(HaveKeyWithValue("model", "other-model"))
	})

	It("answers 400 when no rerank model is set", func() {
		admin := newUser(local, auth.RoleAdmin)
		Expect(admin.Client(local).Post("/api/v1/admin/rerank/test", nil)).To(harness.HaveError(400, "bad_request"))
		Expect(admin.Client(local).Post("/api/v1/admin/rerank/test", map[string]any{"model": ""})).
			To(harness.HaveError(400, "bad_request"))
	})

	It("answers 502 with the upstream message when the endpoint fails", func() {
		setRerankModel(local, "standin-rerank")
		proxy.SetRerank(standin.ServerError)
		expectUpstreamFailed(local, "/api/v1/admin/rerank/test", "upstream model crashed")
		proxy.SetRerank(standin.Down)
		expectUpstreamFailed(local, "/api/v1/admin/rerank/test", "unreachable")
	})

	It("refuses a model name over 200 characters", func() {
		expectInvalidField(local, "/api/v1/admin/rerank/test", map[string]any{"model": strings.Repeat("m", 201)}, "body.model")
	})

	It("is for admins only", func() {
		c := newUser(local, auth.RoleModerator).Client(local)
		Expect(c.Post("/api/v1/admin/rerank/test", nil)).To(harness.HaveError(403, "forbidden"))
	})
})

var _ = Describe("Which kinds rerank", func() {
	It("reranks article sections, never flashcard (deck) or media sections", func() {
		// No module feeds these kinds yet: seed three matching rows of each
		// (text only, nothing to embed) and remove them after the test.
		db := local.App.DB.Conn(context.Background())
		Expect(db.Exec(`INSERT INTO search.documents (kind, id, version, live, title, content_hash, embedded_hash)
			SELECT k, 900000 + g, 1, true, 'Renal colic item ' || g || ': ureteric stone analgesia', 'seed', 'seed'
			FROM unnest(ARRAY['article', 'deck', 'media']) AS k, generate_series(1, 3) AS g`).Error).To(Succeed())
		DeferCleanup(func() {
			Expect(db.Exec(`DELETE FROM search.documents WHERE kind IN ('article', 'deck', 'media')`).Error).To(Succeed())
		})
		u := searcher(local)
		q := "ureteric stone analgesia"
		sections := func() map[string]section {
			res := u.Client(local).Get("/api/v1/search?kinds=article,deck,media&q=" + url.QueryEscape(q))
			Expect(res).To(HaveStatusOK())
			var out globalResult
			res.JSON(&out)
			byKind := map[string]section{}
			for _, s := range out.Results {
				Expect(s.Hits).To(HaveLen(3), s.Kind)
				byKind[s.Kind] = s
			}
			return byKind
		}
		fused := sections()
		Expect(fused["article"].Reranked).To(BeFalse())
		Expect(fused["article"].Hits[0].ID).NotTo(Equal(int64(900003)))

		setRerankModel(local, "standin-rerank")
		proxy.Prefer("item 3:")
		before := len(proxy.RerankRequests())
		got := sections()
		Expect(got["article"].Reranked).To(BeTrue())
		Expect(got["article"].Hits[0].ID).To(Equal(int64(900003)))
		for _, kind := range []string{"deck", "media"} {
			Expect(got[kind].Reranked).To(BeFalse(), kind)
			Expect(ids(got[kind])).To(Equal(ids(fused[kind])), kind)
		}
		reqs := proxy.RerankRequests()
		Expect(reqs).To(HaveLen(before+1), "one rerank call: the article section's")
	})
})
