package platform_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

var _ = Describe("Health", func() {
	It("answers at /api/health and /api/v1/health with the version", func() {
		for _, p := range []string{"/api/health", "/api/v1/health"} {
			res := h.Anon().Get(p)
			Expect(res).To(HaveStatus(200))
			Expect(res.Map()).To(HaveKeyWithValue("status", "ok"))
			Expect(res.Map()).To(HaveKeyWithValue("database", "ok"))
			Expect(res.Map()["version"]).NotTo(BeEmpty())
		}
	})

	It("answers 503 while the database is unreachable, and recovers without a restart", func() {
		ctx := context.Background()
		mod := h.NewUser(auth.RoleModerator)
		Expect(SetConnectable(ctx, h.DBURL, false)).To(Succeed())
		DeferCleanup(func() { Expect(SetConnectable(ctx, h.DBURL, true)).To(Succeed()) })

		// Pooled connections die with the terminated backends; whichever
		// request meets one first, none of them may answer 500.
		Eventually(func() *Response { return h.Anon().Get("/api/health") }).Should(HaveError(503, "unavailable"))
		res := h.Anon().Get("/api/health")
		Expect(res).To(HaveError(503, "unavailable"))
		Expect(res.Header.Get("Retry-After")).To(MatchRegexp(`^[1-9][0-9]*$`))
		Expect(string(res.Body)).To(ContainSubstring("database: down"))
		for _, c := range []struct {
			client *Client
			path   string
		}{{h.Anon(), "/api/v1/test/missing"}, {mod.Client(h), "/api/v1/test/mod-only"}} {
			res := c.client.Get(c.path)
			Expect(res).To(HaveError(503, "unavailable"), c.path)
			Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty(), c.path)
		}

		Expect(SetConnectable(ctx, h.DBURL, true)).To(Succeed())
		Eventually(func() *Response { return h.Anon().Get("/api/health") }).Should(HaveStatus(200))
		Expect(mod.Client(h).Get("/api/v1/test/mod-only")).To(HaveStatus(200))
		// The workers outlived the outage: an event committed now is delivered.
		id := uuid.NewString()
		Expect(publish(ping{ID: id})).To(Succeed())
		Eventually(func() int { return deliveries("test.beta", id) }, "20s").Should(Equal(1))
	})
})

var _ = Describe("The /api alias", func() {
	It("answers the same route as /api/v1", func() {
		user := h.NewUser(auth.RoleModerator)
		v1 := user.Client(h).Get("/api/v1/test/mod-only")
		alias := user.Client(h).Get("/api/test/mod-only")
		Expect(v1).To(HaveStatus(200))
		Expect(alias).To(HaveStatus(200))
		Expect(alias.Body).To(Equal(v1.Body))
	})

	It("is a rewrite, not a second registration", func() {
		for _, r := range h.App.HTTP.Engine().Routes() {
			if strings.HasPrefix(r.Path, "/api/") {
				Expect(r.Path).To(Or(HavePrefix("/api/v1/"), HavePrefix("/api/openapi"),
					HavePrefix("/api/docs"), HavePrefix("/api/redoc"), HavePrefix("/api/schemas")), r.Path)
			}
		}
	})
})

var _ = Describe("The error envelope", func() {
	It("wraps gin's 404 under both prefixes", func() {
		Expect(h.Anon().Get("/api/v1/does-not-exist")).To(HaveError(404, "not_found"))
		Expect(h.Anon().Get("/api/does-not-exist")).To(HaveError(404, "not_found"))
		// A GET outside /api is the web client's once it is built; other
		// methods always reach the API.
		Expect(h.Anon().Post("/elsewhere", nil)).To(HaveError(404, "not_found"))
	})

	It("wraps gin's 405", func() {
		res := h.Anon().Post("/api/health", nil)
		Expect(res).To(HaveError(405, "not_found"))
		Expect(res.Header.Get("Allow")).To(ContainSubstring("GET"))
	})

	It("answers validation failures with 422 invalid_request and the fields", func() {
		res := h.Anon().Post("/api/v1/test/echo", map[string]any{"name": "x", "count": 0})
		Expect(res).To(HaveError(422, "invalid_request"))
		var env struct {
			Detail []struct {
				Loc  []string `json:"loc"`
				Msg  string   `json:"msg"`
				Type string   `json:"type"`
			} `json:"detail"`
			Error struct {
				Fields []httpapi.FieldError `json:"fields"`
			} `json:"error"`
		}
		res.JSON(&env)
		fields := []string{}
		for _, f := range env.Error.Fields {
			fields = append(fields, f.Field)
			Expect(f.Message).NotTo(BeEmpty())
		}
		Expect(fields).To(ConsistOf("body.name", "body.count"))
		Expect(env.Detail).To(HaveLen(2))
		Expect(env.Detail[0].Loc[0]).To(Equal("body"))
	})

	It("names a missing required property, not the body holding it", func() {
		res := h.Anon().Post("/api/v1/test/echo", map[string]any{"count": 2})
		Expect(res).To(HaveError(422, "invalid_request"))
		var env struct {
			Error struct {
				Fields []httpapi.FieldError `json:"fields"`
			} `json:"error"`
		}
		res.JSON(&env)
		Expect(env.Error.Fields).To(HaveLen(1))
		Expect(env.Error.Fields[0].Field).To(Equal("body.name"))
	})

	It("refuses a NUL byte wherever it is, naming the field", func() {
		fieldOf := func(res *Response) string {
			var env struct {
				Error struct {
					Fields []httpapi.FieldError `json:"fields"`
				} `json:"error"`
			}
			res.JSON(&env)
			Expect(env.Error.Fields).To(HaveLen(1))
			return env.Error.Fields[0].Field
		}
		res := h.Anon().Post("/api/v1/test/echo", map[string]any{"name": "a\x00b", "count": 1})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(fieldOf(res)).To(Equal("body.name"))

		res = h.Anon().Get("/api/v1/test/lookup/ab?q=x%00y")
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(fieldOf(res)).To(Equal("query.q"))

		res = h.Anon().Get("/api/test/lookup/a%00b")
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(fieldOf(res)).To(Equal("path.key"))

		Expect(h.Anon().Get("/api/v1/test/lookup/ab?q=xy")).To(HaveStatus(200))
	})

	It("answers malformed JSON with 422 and changes nothing", func() {
		Expect(h.Anon().Post("/api/v1/test/echo", "{not json")).To(HaveError(422, "invalid_request"))
	})

	It("answers a panic with a 500 that leaks nothing", func() {
		res := h.Anon().Get("/api/v1/test/panic")
		Expect(res).To(HaveError(500, "server_error"))
		Expect(string(res.Body)).NotTo(ContainSubstring("hunter2"))
		Expect(string(res.Body)).NotTo(ContainSubstring("secret"))
	})

	It("answers an unexpected error with a 500 that leaks nothing", func() {
		res := h.Anon().Get("/api/v1/test/fail")
		Expect(res).To(HaveError(500, "server_error"))
		Expect(string(res.Body)).NotTo(ContainSubstring("10.0.0.3"))
	})

	It("maps service errors to their status", func() {
		Expect(h.Anon().Get("/api/v1/test/conflict")).To(HaveError(409, "conflict"))
		Expect(h.Anon().Get("/api/v1/test/missing")).To(HaveError(404, "not_found"), "a store's not-found is a 404")
	})

	It("echoes or assigns a request id", func() {
		Expect(h.Anon().Get("/api/health").Header.Get("X-Request-ID")).NotTo(BeEmpty())
		res := h.Anon().With("X-Request-ID", "trace-me-42").Get("/api/health")
		Expect(res.Header.Get("X-Request-ID")).To(Equal("trace-me-42"))
	})
})

var _ = Describe("Guards", func() {
	It("answers 401 without a token and with a bad one", func() {
		Expect(h.Anon().Get("/api/v1/test/mod-only")).To(HaveError(401, "unauthenticated"))
		Expect(h.As("not-a-token").Get("/api/v1/test/mod-only")).To(HaveError(401, "unauthenticated"))
	})

	It("answers 403 below the level and lets an admin through a moderator route", func() {
		Expect(h.NewUser(auth.RoleUser).Client(h).Get("/api/v1/test/mod-only")).To(HaveError(403, "forbidden"))
		res := h.NewUser(auth.RoleAdmin).Client(h).Get("/api/v1/test/mod-only")
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("name", "admin"))
	})

	It("reads the role from the user row, so a demotion takes effect at once", func() {
		mod := h.NewUser(auth.RoleModerator)
		Expect(mod.Client(h).Get("/api/v1/test/mod-only")).To(HaveStatus(200))
		Expect(h.App.DB.Conn(context.Background()).
			Exec(`UPDATE identity.users SET role = 'user' WHERE id = ?`, mod.ID).Error).To(Succeed())
		Expect(mod.Client(h).Get("/api/v1/test/mod-only")).To(HaveError(403, "forbidden"))
	})

	It("refuses a token whose user is gone", func() {
		u := h.NewUser(auth.RoleAdmin)
		Expect(h.App.DB.Conn(context.Background()).Exec(`DELETE FROM identity.users WHERE id = ?`, u.ID).Error).To(Succeed())
		Expect(u.Client(h).Get("/api/v1/test/mod-only")).To(HaveError(401, "unauthenticated"))
	})
})

var _ = Describe("The OpenAPI document", func() {
	It("is served, versioned 3.0.0, lists every operation once with a spec tag and its security", func() {
		res := h.Anon().Get("/api/openapi.json")
		Expect(res).To(HaveStatus(200))
		var doc struct {
			OpenAPI string `json:"openapi"`
			Info    struct {
				Version string `json:"version"`
			} `json:"info"`
			Paths map[string]map[string]struct {
				OperationID string                `json:"operationId"`
				Tags        []string              `json:"tags"`
				Security    []map[string][]string `json:"security"`
			} `json:"paths"`
		}
		res.JSON(&doc)
		Expect(doc.Info.Version).To(Equal("3.0.0"))
		Expect(doc.Paths).To(HaveKey("/api/v1/health"))
		ids := map[string]bool{}
		for path, ops := range doc.Paths {
			Expect(path).To(HavePrefix("/api/v1/"))
			for method, op := range ops {
				Expect(ids).NotTo(HaveKey(op.OperationID), "duplicate operation id")
				ids[op.OperationID] = true
				Expect(op.Tags).To(HaveLen(1), method+" "+path)
				Expect(httpapi.Tags).To(ContainElement(op.Tags[0]))
			}
		}
		Expect(doc.Paths["/api/v1/test/mod-only"]["get"].Security).To(ContainElement(HaveKey("bearer")))
		Expect(doc.Paths["/api/v1/health"]["get"].Security).To(BeEmpty())
	})

	It("has a valid 3.0.3 rendering", func() {
		res := h.Anon().Get("/api/openapi-3.0.json")
		Expect(res).To(HaveStatus(200))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(res.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(doc.OpenAPI).To(HavePrefix("3.0"))
		Expect(doc.Validate(loader.Context)).To(Succeed())
	})

	It("serves the interactive docs from the binary, with nothing loaded from elsewhere", func() {
		for _, p := range []string{"/api/docs", "/api/redoc"} {
			res := h.Anon().Get(p)
			Expect(res).To(HaveStatus(200))
			Expect(res.Header.Get("Content-Type")).To(ContainSubstring("text/html"))
			Expect(string(res.Body)).NotTo(MatchRegexp(`(src|href)="(https?:)?//`), "no remote asset")
			script := regexp.MustCompile(`<script src="(/api/docs/[^"]+)"`).FindStringSubmatch(string(res.Body))
			Expect(script).To(HaveLen(2))
			js := h.Anon().Get(script[1])
			Expect(js).To(HaveStatus(200))
			Expect(js.Header.Get("Content-Type")).To(ContainSubstring("javascript"))
			Expect(len(js.Body)).To(BeNumerically(">", 500_000), "the whole viewer")
		}
	})
})

var _ = Describe("Rate limits", func() {
	It("answers 429 rate_limited with Retry-After past the limit, per forwarded address", func() {
		a := h.Anon().With("X-Forwarded-For", "203.0.113.7")
		for i := 0; i < 3; i++ {
			Expect(a.Get("/api/v1/test/limited")).To(HaveStatus(http.StatusNoContent))
		}
		res := a.Get("/api/v1/test/limited")
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).To(MatchRegexp(`^[1-9][0-9]*$`))

		// Entries a client writes itself sit left of what the proxy appended:
		// they choose no new bucket.
		forged := h.Anon().With("X-Forwarded-For", "192.0.2.99, 203.0.113.7")
		Expect(forged.Get("/api/v1/test/limited")).To(HaveError(429, "rate_limited"))

		other := h.Anon().With("X-Forwarded-For", "198.51.100.9, 10.0.0.1")
		Expect(other.Get("/api/v1/test/limited")).To(HaveStatus(http.StatusNoContent))
	})

	It("keys callers without X-Forwarded-For on the peer address", func() {
		for i := 0; i < 3; i++ {
			Expect(h.Anon().Get("/api/v1/test/limited")).To(HaveStatus(http.StatusNoContent))
		}
		Expect(h.Anon().Get("/api/v1/test/limited")).To(HaveError(429, "rate_limited"))
		var keys []string
		Expect(h.App.DB.Conn(context.Background()).Raw(
			`SELECT key FROM platform.rate_counters WHERE name = 'test.limited'`).Scan(&keys).Error).To(Succeed())
		Expect(keys).To(ContainElement("127.0.0.1"))
	})

	It("survives an over-long or garbage X-Forwarded-For", func() {
		long := strings.Repeat("203.0.113.250, ", 190) + "198.51.100.77" // ~2.8 KB
		Expect(h.Anon().With("X-Forwarded-For", long).Get("/api/v1/test/limited")).To(HaveStatus(http.StatusNoContent))
		Expect(h.Anon().With("X-Forwarded-For", strings.Repeat("x", 2800)).Get("/api/health")).To(HaveStatus(200))
		var keys []string
		Expect(h.App.DB.Conn(context.Background()).Raw(
			`SELECT key FROM platform.rate_counters WHERE name = 'test.limited'`).Scan(&keys).Error).To(Succeed())
		Expect(keys).To(ContainElement("198.51.100.77"))
		for _, k := range keys {
			Expect(len(k)).To(BeNumerically("<=", 128))
		}
	})

	It("prunes windows that ended long ago and keeps live ones", func() {
		ctx := context.Background()
		conn := h.App.DB.Conn(ctx)
		Expect(conn.Exec(`INSERT INTO platform.rate_counters (name, key, window_start, count)
			VALUES ('test.prune', 'old', now() - interval '25 hours', 9), ('test.prune', 'live', now(), 1)`).Error).To(Succeed())
		n, err := h.App.Limiter.Prune(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">=", 1))
		var keys []string
		Expect(conn.Raw(`SELECT key FROM platform.rate_counters WHERE name = 'test.prune'`).Scan(&keys).Error).To(Succeed())
		Expect(keys).To(ConsistOf("live"))
	})
})

var _ = Describe("Metrics", func() {
	It("are served on their own listener with request counts by route", func() {
		h.Anon().Get("/api/health")
		res, err := h.HTTP.Get("http://" + h.App.MetricsAddr() + "/metrics")
		Expect(err).NotTo(HaveOccurred())
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(body)).To(ContainSubstring(`rounds_http_requests_total{method="GET",route="/api/v1/health",status="200"}`))
	})
})
