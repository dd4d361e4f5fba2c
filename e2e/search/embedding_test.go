package search_test

import (
	"context"
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/pgvector/pgvector-go"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/modules/search/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

type coverage struct {
	Kind     string  `json:"kind"`
	Live     int     `json:"live"`
	Embedded int     `json:"embedded"`
	Missing  int     `json:"missing"`
	Failed   int     `json:"failed"`
	Empty    int     `json:"empty"`
	Coverage float64 `json:"coverage"`
}

type healthBody struct {
	coverage
	Provider     string     `json:"provider"`
	Model        string     `json:"model"`
	Dims         int        `json:"dims"`
	Kinds        []coverage `json:"kinds"`
	LastError    string     `json:"last_error"`
	Regeneration *struct {
		JobID  string `json:"job_id"`
		Status string `json:"status"`
		Steps  []struct {
			Name   string `json:"name"`
			Detail string `json:"detail"`
		} `json:"steps"`
	} `json:"regeneration"`
}

func health(h *harness.Harness) healthBody {
	admin := newUser(h, auth.RoleAdmin)
	res := admin.Client(h).Get("/api/v1/admin/embedding/health")
	Expect(res).To(HaveStatusOK())
	var out healthBody
	res.JSON(&out)
	return out
}

// expectUpstreamFailed posts to an admin check route and expects 502
// upstream_failed carrying the upstream's words.
func expectUpstreamFailed(h *harness.Harness, path, says string) {
	res := newUser(h, auth.RoleAdmin).Client(h).Post(path, nil)
	Expect(res).To(harness.HaveError(502, "upstream_failed"))
	Expect(string(res.Body)).To(ContainSubstring(says))
}

// expectInvalidField posts body to an admin route and expects 422 naming
// the field.
func expectInvalidField(h *harness.Harness, path string, body map[string]any, field string) {
	res := newUser(h, auth.RoleAdmin).Client(h).Post(path, body)
	Expect(res).To(harness.HaveError(422, "invalid_request"))
	Expect(string(res.Body)).To(ContainSubstring(field))
}

// resetProxy puts the stand-in back to normal after a test.
func resetProxy() {
	DeferCleanup(func() {
		proxy.SetEmbeddings(standin.OK)
		proxy.SetRerank(standin.OK)
		proxy.SetDelay(0)
		proxy.Prefer("")
	})
}

var _ = Describe("Embedding health and test", func() {
	It("reports coverage per kind for the local embedder", func() {
		id := question(local, "Side effects of amiodarone")
		waitIndexed(local, id, 1)
		got := health(local)
		Expect(got.Provider).To(Equal("local"))
		Expect(got.Model).To(Equal("local-lexical-v1"))
		Expect(got.Dims).To(Equal(384))
		Expect(got.Live).To(BeNumerically(">=", 1))
		Expect(got.Embedded + got.Empty).To(Equal(got.Live))
		Expect(got.Missing).To(BeZero())
		Expect(got.Coverage).To(BeNumerically("==", 1))
		Expect(got.Kinds).NotTo(BeEmpty())
		Expect(got.Kinds[0].Kind).To(Equal("question"))
	})

	It("tests the embedder in use", func() {
		admin := newUser(local, auth.RoleAdmin)
		res := admin.Client(local).Post("/api/v1/admin/embedding/test", map[string]any{"text": "nephrotic syndrome"})
		Expect(res).To(HaveStatusOK())
		body := res.Map()
		Expect(body).To(HaveKeyWithValue("ok", true))
		Expect(body).To(HaveKeyWithValue("provider", "local"))
		Expect(body["dims"]).To(BeNumerically("==", 384))
		Expect(body["relevant_similarity"]).To(BeNumerically(">", body["irrelevant_similarity"]))
		Expect(body["preview"]).To(HaveLen(8))
		Expect(admin.Client(local).Post("/api/v1/admin/embedding/test", nil)).To(HaveStatusOK())
	})

	It("answers 502 with the upstream message when the remote embedder fails", func() {
		resetProxy()
		admin := newUser(remote, auth.RoleAdmin)
		Expect(admin.Client(remote).Post("/api/v1/admin/embedding/test", nil)).To(HaveStatusOK())
		proxy.SetEmbeddings(standin.RateLimited)
		expectUpstreamFailed(remote, "/api/v1/admin/embedding/test", "429")
		proxy.SetEmbeddings(standin.WrongDims)
		expectUpstreamFailed(remote, "/api/v1/admin/embedding/test", "dimensions")
	})

	It("refuses a probe text over 8,000 characters", func() {
		expectInvalidField(local, "/api/v1/admin/embedding/test", map[string]any{"text": strings.Repeat("a", 8001)}, "body.text")
	})

	It("is for admins only", func() {
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			c := newUser(local, role).Client(local)
			Expect(c.Get("/api/v1/admin/embedding/health")).To(harness.HaveError(403, "forbidden"))
			Expect(c.Post("/api/v1/admin/embedding/test", nil)).To(harness.HaveError(403, "forbidden"))
			Expect(c.Post("/api/v1/admin/embedding/regenerate", nil)).To(harness.HaveError(403, "forbidden"))
		}
	})
})

var _ = Describe("Embedding through the remote endpoint", func() {
	ctx := context.Background()

	It("embeds new questions off the request path through the OpenAI protocol", func() {
		id := question(remote, "Which drug is first-line for high blood pressure in a diabetic patient?")
		waitIndexed(remote, id, 1)
		sem, err := app.Lookup[*search.Module](remote.App).Semantic(ctx, search.KindQuestion, "hypertension drug in diabetes", 0.55, 5)
		Expect(err).NotTo(HaveOccurred())
		Expect(sem).NotTo(BeEmpty())
		Expect(sem[0].ID).To(Equal(id))
	})

	It("takes vectors from the configured model through the AI gateway, with the proxy's key", func() {
		before := len(proxy.EmbedRequests())
		text := "Antibiotic prophylaxis before dental extraction in endocarditis risk"
		id := question(remote, text)
		waitIndexed(remote, id, 1)
		var sent *standin.Request
		for _, r := range proxy.EmbedRequests()[before:] {
			if len(r.Documents) > 0 && r.Documents[0] == text {
				sent = &r
			}
		}
		Expect(sent).NotTo(BeNil(), "the stem went to the stand-in")
		Expect(sent.Model).To(Equal("standin-embedding"))
		Expect(sent.Key).To(Equal("proxy-key"))
		var stored []struct {
			EmbeddingModel string
			Similarity     float64
		}
		Expect(remote.App.DB.Conn(ctx).Raw(`SELECT embedding_model, 1 - (embedding <=> ?) AS similarity
			FROM search.documents WHERE kind = 'question' AND id = ?`,
			pgvector.NewVector(proxy.Vector(text)), id).Scan(&stored).Error).To(Succeed())
		Expect(stored).To(HaveLen(1))
		Expect(stored[0].EmbeddingModel).To(Equal("standin-embedding"))
		Expect(stored[0].Similarity).To(BeNumerically(">", 0.999), "the stand-in's vector is the one stored")
		Expect(health(remote).Provider).To(Equal("gateway"))
	})

	It("switches the embedding model by re-embedding, and refuses a model that fails its check", func() {
		resetProxy()
		admin := newUser(remote, auth.RoleAdmin).Client(remote)
		id := question(remote, "Rate control in atrial fibrillation with heart failure")
		waitIndexed(remote, id, 1)
		waitRegenerationIdle(remote)

		// A failing model changes nothing.
		proxy.SetEmbeddings(standin.ServerError)
		res := admin.Post("/api/v1/admin/embedding/regenerate", map[string]any{"model": "standin-embedding-2"})
		Expect(res).To(harness.HaveError(502, "upstream_failed"))
		Expect(string(res.Body)).To(ContainSubstring("standin-embedding-2"))
		Expect(admin.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("embedding_model", "standin-embedding"))
		proxy.SetEmbeddings(standin.OK)

		switchTo := func(model string) {
			res := admin.Post("/api/v1/admin/embedding/regenerate", map[string]any{"model": model})
			Expect(res).To(harness.HaveStatus(202))
			Expect(admin.Get("/api/v1/admin/settings").Map()).To(HaveKeyWithValue("embedding_model", model))
			Eventually(func() string { return health(remote).Regeneration.Status }, "20s", "50ms").Should(Equal("completed"))
			got := health(remote)
			Expect(got.Model).To(Equal(model))
			Expect(got.Missing).To(BeZero())
			Expect(got.Coverage).To(BeNumerically("==", 1))
		}
		before := len(proxy.EmbedRequests())
		switchTo("standin-embedding-2")
		DeferCleanup(func() { switchTo("standin-embedding") })
		var stale int
		Expect(remote.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM search.documents
			WHERE live AND NOT purged AND embedding IS NOT NULL AND embedding_model <> 'standin-embedding-2'`).
			Scan(&stale).Error).To(Succeed())
		Expect(stale).To(BeZero())
		for _, r := range proxy.EmbedRequests()[before:] {
			Expect(r.Model).To(Equal("standin-embedding-2"))
		}
		// Queries now compare the new model's vectors.
		sem, err := app.Lookup[*search.Module](remote.App).Semantic(ctx, search.KindQuestion, "atrial fibrillation rate control", 0.3, 5)
		Expect(err).NotTo(HaveOccurred())
		Expect(sem).NotTo(BeEmpty())
		Expect(sem[0].ID).To(Equal(id))
	})

	It("records a failed embedding and retry_missing_embeddings fills it in", func() {
		resetProxy()
		proxy.SetEmbeddings(standin.Down)
		id := question(remote, "Acute management of hyperkalaemia with ECG changes")
		waitIndexed(remote, id, 1)
		Eventually(func() int { return health(remote).Failed }, "10s", "50ms").Should(BeNumerically(">=", 1))
		got := health(remote)
		Expect(got.LastError).To(ContainSubstring("unreachable"))
		Expect(got.Coverage).To(BeNumerically("<", 1))
		sem, err := app.Lookup[*search.Module](remote.App).Semantic(ctx, search.KindQuestion, "hyperkalemia management", 0.3, 50)
		Expect(errors.Is(err, search.ErrUnavailable)).To(BeTrue(), "the query cannot be embedded either")
		Expect(sem).To(BeEmpty())

		// The scheduled job (every 300ms here) keeps failing while the endpoint is down...
		failuresBefore := failures(remote, id)
		Eventually(func() int { return failures(remote, id) }, "10s", "50ms").Should(BeNumerically(">", failuresBefore))

		// ...and fills the vector in once it is back.
		proxy.SetEmbeddings(standin.OK)
		Eventually(func() int { return health(remote).Missing }, "10s", "50ms").Should(BeZero())
		Expect(health(remote).LastError).To(BeEmpty())
		sem, err = app.Lookup[*search.Module](remote.App).Semantic(ctx, search.KindQuestion, "hyperkalemia management", 0.3, 50)
		Expect(err).NotTo(HaveOccurred())
		found := false
		for _, h := range sem {
			found = found || h.ID == id
		}
		Expect(found).To(BeTrue())
	})

	It("keeps answering from keywords when the query cannot be embedded", func() {
		resetProxy()
		id := question(remote, "Indications for dialysis in acute kidney injury")
		waitIndexed(remote, id, 1)
		proxy.SetEmbeddings(standin.Slow)
		u := searcher(remote)
		res := u.Client(remote).Get("/api/v1/search?q=dialysis+indications&kinds=question")
		Expect(res).To(HaveStatusOK())
		var out globalResult
		res.JSON(&out)
		Expect(out.Semantic).To(BeFalse())
		Expect(ids(out.Results[0])).To(ContainElement(id))
		Expect(out.Results[0].Hits[0].Keyword).To(BeTrue())
	})

	It("regenerates every vector as a job with steps while search keeps answering", func() {
		resetProxy()
		var last int64
		for range 9 {
			last = question(remote, "Complications of long-term steroid therapy")
		}
		target := question(remote, "Diagnosis of Cushing syndrome with a dexamethasone suppression test")
		waitIndexed(remote, target, 1)
		waitIndexed(remote, last, 1)
		Eventually(func() int { return health(remote).Missing }, "10s", "50ms").Should(BeZero())

		// Slow the proxy so the job (two texts per request) takes a while.
		proxy.SetDelay(150 * time.Millisecond)
		admin := newUser(remote, auth.RoleAdmin)
		res := admin.Client(remote).Post("/api/v1/admin/embedding/regenerate", nil)
		Expect(res).To(harness.HaveStatus(202))
		jobID := res.Map()["job_id"].(string)
		Expect(res.Map()).To(HaveKeyWithValue("status", "pending"))

		// A second request while it waits or runs is refused, naming the
		// job (a unique kind: River answers the one queued).
		again := admin.Client(remote).Post("/api/v1/admin/embedding/regenerate", nil)
		Expect(again).To(harness.HaveError(409, "conflict"))
		Expect(string(again.Body)).To(ContainSubstring(jobID))

		u := searcher(remote)
		Eventually(func() string { return health(remote).Regeneration.Status }, "10s", "20ms").Should(Equal("running"))
		searchedWhileRunning := 0
		for health(remote).Regeneration.Status == "running" && searchedWhileRunning < 5000 {
			sec := searchQuestions(remote, u, "cushing dexamethasone test", 5)
			Expect(ids(sec)).To(ContainElement(target))
			searchedWhileRunning++
		}
		Expect(searchedWhileRunning).To(BeNumerically(">", 0))

		got := health(remote)
		Expect(got.Regeneration.JobID).To(Equal(jobID))
		Expect(got.Regeneration.Status).To(Equal("completed"))
		Expect(got.Regeneration.Steps[0].Name).To(Equal("started"))
		Expect(got.Regeneration.Steps[len(got.Regeneration.Steps)-1].Name).To(Equal("completed"))
		Expect(got.Missing).To(BeZero())
		Expect(got.Coverage).To(BeNumerically("==", 1))

		// Every vector was made again after the request.
		var stale int
		Expect(remote.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM search.documents d, search.state s
			WHERE NOT d.purged AND d.live AND d.embedded_at < s.regeneration_requested`).Scan(&stale).Error).To(Succeed())
		Expect(stale).To(BeZero())

		// Once it is over, another may start.
		res = admin.Client(remote).Post("/api/v1/admin/embedding/regenerate", nil)
		Expect(res).To(harness.HaveStatus(202))
		Expect(res.Map()["job_id"]).NotTo(Equal(jobID))
		Eventually(func() string { return health(remote).Regeneration.Status }, "20s", "50ms").Should(Equal("completed"))
	})

	It("fails the regeneration job, keeping the old vectors, while the endpoint is down", func() {
		resetProxy()
		id := question(remote, "Thyroid storm treatment")
		waitIndexed(remote, id, 1)
		Eventually(func() int { return health(remote).Missing }, "10s", "50ms").Should(BeZero())
		Eventually(func() string {
			r := health(remote).Regeneration
			if r == nil {
				return "completed"
			}
			return r.Status
		}, "20s", "50ms").Should(BeElementOf("completed", "failed", "cancelled"))

		proxy.SetEmbeddings(standin.ServerError)
		admin := newUser(remote, auth.RoleAdmin)
		Expect(admin.Client(remote).Post("/api/v1/admin/embedding/regenerate", nil)).To(harness.HaveStatus(202))
		Eventually(func() string { return health(remote).Regeneration.Status }, "10s", "50ms").Should(Equal("failed"))
		proxy.SetEmbeddings(standin.OK)
		sem, err := app.Lookup[*search.Module](remote.App).Semantic(ctx, search.KindQuestion, "thyroid storm", 0.3, 50)
		Expect(err).NotTo(HaveOccurred())
		found := false
		for _, h := range sem {
			found = found || h.ID == id
		}
		Expect(found).To(BeTrue(), "the old vector still answers")
	})
})

// waitRegenerationIdle waits until no regeneration is pending or running.
func waitRegenerationIdle(h *harness.Harness) {
	GinkgoHelper()
	Eventually(func() string {
		if r := health(h).Regeneration; r != nil {
			return r.Status
		}
		return "completed"
	}, "20s", "50ms").Should(BeElementOf("completed", "failed", "cancelled"))
}

// failures reads the recorded failure count of a question.
func failures(h *harness.Harness, id int64) int {
	var n []int
	Expect(h.App.DB.Conn(context.Background()).Raw(
		`SELECT embed_failures FROM search.documents WHERE kind = 'question' AND id = ?`, id).Scan(&n).Error).To(Succeed())
	if len(n) == 0 {
		return 0
	}
	return n[0]
}
