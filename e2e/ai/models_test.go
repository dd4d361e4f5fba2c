package ai_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

type q = map[string]any

func addModel(body q) *Response { return admin.Client(h).Post("/api/v1/admin/models", body) }

func modelID(res *Response) int64 {
	ExpectWithOffset(1, res.Status).To(BeNumerically("<", 300), string(res.Body))
	return int64(res.List()[0].(map[string]any)["id"].(float64))
}

type modelRow struct {
	ModelID   string
	Task      string
	Voice     string
	IsActive  bool
	IsDefault bool
	APIKey    []byte
}

func storedModel(id int64) modelRow {
	var m modelRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT model_id, task, voice, is_active, is_default, api_key FROM ai.models WHERE id = ?`, id).
		Scan(&m).Error).To(Succeed())
	return m
}

var _ = Describe("Model configuration", func() {
	It("makes the first model of a task its default, moves the default on request, and keeps keys sealed and masked", func() {
		first := modelID(addModel(q{"name": "Keyword A", "model_id": "kw-a", "task": "keyword", "api_key": "sk-secret-value-1234"}))
		second := modelID(addModel(q{"name": "Keyword B", "model_id": "kw-b", "task": "keyword"}))
		Expect(storedModel(first).IsDefault).To(BeTrue())
		Expect(storedModel(second).IsDefault).To(BeFalse())
		sealed := storedModel(first).APIKey
		Expect(sealed).NotTo(BeEmpty())
		Expect(string(sealed)).NotTo(ContainSubstring("sk-secret"), "the key is encrypted at rest")

		list := admin.Client(h).Get("/api/v1/admin/models")
		Expect(list).To(HaveStatus(200))
		Expect(list.Body).NotTo(ContainSubstring("sk-secret"))
		Expect(list.List()).To(ContainElement(And(HaveKeyWithValue("model_id", "kw-a"), HaveKeyWithValue("api_key", "********1234"))))

		res := admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/models/%d", second), q{"is_default": true})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("is_default", true))
		Expect(storedModel(first).IsDefault).To(BeFalse(), "marking one default clears the others")

		res = admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/models/%d", second), q{"is_active": false})
		Expect(res).To(HaveStatus(200))
		m := storedModel(second)
		Expect(m.IsActive).To(BeFalse())
		Expect(m.IsDefault).To(BeTrue(), "deactivating keeps the default flag")
		Expect(m.Task).To(Equal("keyword"))

		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", first))).To(HaveStatus(204))
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", first))).To(HaveError(404, "not_found"))
	})

	It("fills in what a second registration adds, and refuses one that adds nothing", func() {
		res := addModel(q{"model_id": "tool-x", "task": "tool"})
		Expect(res).To(HaveStatus(201))
		id := modelID(res)
		again := addModel(q{"model_id": "tool-x", "task": "tool", "name": "Tool X", "api_key": "sk-tool-abcdefgh"})
		Expect(again).To(HaveStatus(200))
		Expect(again.List()).To(ConsistOf(And(HaveKeyWithValue("id", float64(id)), HaveKeyWithValue("name", "Tool X"),
			HaveKeyWithValue("api_key", "********efgh"))))
		Expect(addModel(q{"model_id": "tool-x", "task": "tool", "name": "Other"})).To(HaveError(409, "conflict"))
	})

	It("refuses other tasks, unknown voices with the valid list, and voices on models that have none", func() {
		Expect(addModel(q{"model_id": "m", "task": "poetry"})).To(HaveError(422, "invalid_request"))
		res := addModel(q{"model_id": "tts-1", "task": "tts", "voices": []string{"alloy", "gandalf"}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(And(ContainSubstring("gandalf"), ContainSubstring("nova")))
		Expect(addModel(q{"model_id": "tts-1", "task": "tts"})).To(HaveError(422, "invalid_request"))
		Expect(addModel(q{"model_id": "chat", "task": "article", "voices": []string{"alloy"}})).To(HaveError(422, "invalid_request"))
		var n int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM ai.models WHERE model_id IN ('m', 'chat') OR voice = 'gandalf'`).
			Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	It("keeps configuration for admins; anyone signed in may list a task's models", func() {
		u := h.NewUser(auth.RoleUser)
		Expect(u.Client(h).Get("/api/v1/admin/models")).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Post("/api/v1/admin/models", q{"model_id": "x", "task": "tool"})).To(HaveError(403, "forbidden"))
		modelID(addModel(q{"name": "Extractor", "model_id": "ext-1", "task": "extraction"}))
		res := u.Client(h).Get("/api/v1/admin/models/available")
		Expect(res).To(HaveStatus(200))
		Expect(res.List()).To(ContainElement(And(HaveKeyWithValue("model_id", "ext-1"), HaveKeyWithValue("is_default", true))))
		Expect(res.Body).NotTo(ContainSubstring("api_key"))
	})

	It("tests a model as its task would, passing the upstream's failure through as 502", func() {
		id := modelID(addModel(q{"name": "Article", "model_id": "art-1", "task": "article", "api_key": "sk-article-9999"}))
		proxy.Calls()
		res := admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", id), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["message"]).NotTo(BeEmpty())
		calls := proxy.Calls()
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].Model).To(Equal("art-1"))
		Expect(calls[0].Key).To(Equal("sk-article-9999"), "the model's own key, opened from its sealed form")

		proxy.Set(standin.ServerError)
		defer proxy.Set(standin.OK)
		res = admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", id), nil)
		Expect(res).To(HaveError(502, "upstream_failed"))
		Expect(res.Body).To(ContainSubstring("the upstream model is overloaded"))

		speech := modelID(addModel(q{"model_id": "tts-test", "task": "tts", "voices": []string{"nova"}}))
		Expect(admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", speech), nil)).To(HaveError(400, "bad_request"))
	})

	It("retries a rate-limited proxy, then answers 502; a stalled one is cut off by the timeout", func() {
		id := modelID(addModel(q{"model_id": "flaky", "task": "flashcard"}))
		proxy.Calls()
		proxy.Set(standin.RateLimited)
		res := admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", id), nil)
		Expect(res).To(HaveError(502, "upstream_failed"))
		Expect(res.Body).To(ContainSubstring("429"))
		Expect(proxy.Calls()).To(HaveLen(2), "one retry (ai.retries: 1)")

		proxy.Set(standin.Stall)
		res = admin.Client(h).Post(fmt.Sprintf("/api/v1/admin/models/%d/test", id), nil)
		proxy.Set(standin.OK)
		Expect(res).To(HaveError(502, "upstream_failed"))
		Expect(res.Body).To(ContainSubstring("in time"))
	})

	It("lists what the proxy serves and the voices speech models may take", func() {
		res := admin.Client(h).Post("/api/v1/admin/litellm/models", q{})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(And(HaveKeyWithValue("models", ContainElements("gpt-4o-mini", "tts-1")),
			HaveKeyWithValue("source", proxy.URL())))
		for _, base := range []string{"aaaa", "%00", "ftp://proxy/v1", "http://"} {
			Expect(admin.Client(h).Post("/api/v1/admin/litellm/models", q{"api_base": base})).
				To(HaveError(422, "invalid_request"), base)
		}
		voices := admin.Client(h).Post("/api/v1/admin/tts/voices", nil)
		Expect(voices).To(HaveStatus(200))
		Expect(voices.Map()["voices"]).To(ContainElement(HaveKeyWithValue("name", "alloy")))
	})

	It("sends the configured key only to the configured proxy: another base needs its own key", func() {
		other := standin.Start()
		DeferCleanup(other.Close)
		list := func(body q) *Response { return admin.Client(h).Post("/api/v1/admin/litellm/models", body) }

		proxy.Calls()
		Expect(list(q{})).To(HaveStatus(200))
		Expect(proxy.Calls()).To(ConsistOf(HaveField("Key", proxyKey)))
		Expect(list(q{"api_base": proxy.URL() + "/"})).To(HaveStatus(200), "the configured base, however written")
		Expect(proxy.Calls()).To(ConsistOf(HaveField("Key", proxyKey)))

		for _, body := range []q{{"api_base": other.URL()}, {"api_base": other.URL(), "api_key": ""}, {"api_base": other.URL(), "api_key": nil}} {
			res := list(body)
			Expect(res).To(HaveError(422, "invalid_request"))
			Expect(res.Map()["error"]).To(HaveKeyWithValue("fields", ContainElement(HaveKeyWithValue("field", "api_key"))))
		}
		Expect(other.Calls()).To(BeEmpty(), "nothing went to the new base")

		res := list(q{"api_base": other.URL(), "api_key": "sk-the-other-proxy"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("source", other.URL()))
		Expect(other.Calls()).To(ConsistOf(HaveField("Key", "sk-the-other-proxy")))
	})

	It("refuses link-local and cloud metadata addresses for a model URL before anything is sent", func() {
		for _, base := range []string{"http://169.254.169.254/v1", "http://169.254.170.2:4000/v1", "https://[fe80::1]/v1",
			"http://[::ffff:169.254.169.254]/v1", "http://[fd00:ec2::254]/v1", "http://100.100.100.200/v1",
			"http://metadata.google.internal/v1", "http://METADATA.GOOGLE.INTERNAL./v1", "http://instance-data/v1"} {
			res := admin.Client(h).Post("/api/v1/admin/litellm/models", q{"api_base": base, "api_key": "sk-stolen-nothing"})
			Expect(res).To(HaveError(422, "invalid_request"), base)
			Expect(res.Map()["error"]).To(And(HaveKeyWithValue("fields", ContainElement(HaveKeyWithValue("field", "api_base"))),
				HaveKeyWithValue("message", ContainSubstring("metadata"))), base)
		}
	})

	It("refuses a metadata address as the configured proxy at boot", func() {
		for _, base := range []string{"http://169.254.169.254/v1", "http://metadata.google.internal/v1"} {
			x, err := Start(WithoutSSO(), WithConfig(func(c *config.Config) { c.Set("ai.base_url", base) }))
			if x != nil {
				Expect(x.Stop()).To(Succeed())
			}
			Expect(err).To(MatchError(And(ContainSubstring("ai: base_url"), ContainSubstring("metadata"))), base)
		}
	})

	It("keeps who changed the model configuration, and how, with keys masked", func() {
		changes := func() []any {
			res := admin.Client(h).Get("/api/v1/admin/models/changes?limit=200")
			Expect(res).To(HaveStatus(200))
			return res.List()
		}
		other := h.NewUser(auth.RoleAdmin)
		first := modelID(addModel(q{"name": "Audit A", "model_id": "audit-a", "task": "stt", "api_key": "sk-audit-secret-4321",
			"is_default": true}))
		// The suite's other specs expect no stt model unless they add one.
		DeferCleanup(func() {
			Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", first))).To(HaveStatus(204))
		})
		second := modelID(other.Client(h).Post("/api/v1/admin/models", q{"model_id": "audit-b", "task": "stt", "is_default": true}))
		Expect(admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/models/%d", first), q{"name": "Audit A2", "api_key": "sk-audit-next-8765"})).
			To(HaveStatus(200))
		Expect(other.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", second))).To(HaveStatus(204))

		res := admin.Client(h).Get("/api/v1/admin/models/changes?limit=200")
		Expect(res.Body).NotTo(ContainSubstring("sk-audit"), "keys are masked")
		var got []any // newest first, of these two rows
		for _, c := range changes() {
			if row := c.(map[string]any)["model_row"]; row == float64(first) || row == float64(second) {
				got = append(got, c)
			}
		}
		Expect(got).To(HaveLen(5))
		Expect(got[4]).To(And(HaveKeyWithValue("action", "create"), HaveKeyWithValue("actor_id", float64(admin.ID)),
			HaveKeyWithValue("model_row", float64(first)), HaveKeyWithValue("before", BeNil()),
			HaveKeyWithValue("after", And(HaveKeyWithValue("name", "Audit A"), HaveKeyWithValue("api_key", "********4321"),
				HaveKeyWithValue("is_default", true)))))
		// audit-b as default: audit-a loses its flag, the same admin's doing.
		Expect(got[3]).To(And(HaveKeyWithValue("action", "update"), HaveKeyWithValue("actor_id", float64(other.ID)),
			HaveKeyWithValue("model_row", float64(first)), HaveKeyWithValue("before", HaveKeyWithValue("is_default", true)),
			HaveKeyWithValue("after", HaveKeyWithValue("is_default", false))))
		Expect(got[2]).To(And(HaveKeyWithValue("action", "create"), HaveKeyWithValue("actor_id", float64(other.ID)),
			HaveKeyWithValue("model_row", float64(second))))
		Expect(got[1]).To(And(HaveKeyWithValue("action", "update"), HaveKeyWithValue("actor_id", float64(admin.ID)),
			HaveKeyWithValue("before", And(HaveKeyWithValue("name", "Audit A"), HaveKeyWithValue("api_key", "********4321"))),
			HaveKeyWithValue("after", And(HaveKeyWithValue("name", "Audit A2"), HaveKeyWithValue("api_key", "********8765")))))
		Expect(got[0]).To(And(HaveKeyWithValue("action", "delete"), HaveKeyWithValue("actor_id", float64(other.ID)),
			HaveKeyWithValue("model_row", float64(second)), HaveKeyWithValue("after", BeNil()),
			HaveKeyWithValue("before", HaveKeyWithValue("model_id", "audit-b"))))
		for _, r := range got {
			Expect(r).To(HaveKey("created_at"))
		}

		var stored string
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT string_agg(coalesce(before::text, '') || coalesce(after::text, ''), ' ')
			FROM ai.model_changes`).Scan(&stored).Error).To(Succeed())
		Expect(stored).NotTo(ContainSubstring("sk-audit"), "the history stores masked keys only")

		Expect(mod.Client(h).Get("/api/v1/admin/models/changes")).To(HaveError(403, "forbidden"))
	})
})
