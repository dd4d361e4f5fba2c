package share_test

import (
	"context"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/telemetry"
)

var _ = Describe("A share token", Serial, func() {
	It("never reaches the access log or a trace span: the path shows {token} in its place", func() {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		telemetry.Install(tp)
		DeferCleanup(func() {
			telemetry.Install(nil)
			Expect(tp.Shutdown(context.Background())).To(Succeed())
		})

		res := share(h.NewUser(auth.RoleUser), map[string]any{"kind": "quiz", "target_id": quiz("Secrecy", "timed", true)})
		Expect(res).To(HaveStatus(201))
		token := res.Map()["token"].(string)

		mark := h.Log.Mark()
		Expect(open(token)).To(HaveStatus(200))
		Expect(h.Anon().Get("/api/share/open/"+token)).To(HaveStatus(200), "the /api alias")
		Expect(h.Anon().Post("/api/v1/share/open/"+token, nil)).To(HaveError(405, "not_found"))
		Expect(h.Anon().Get("/api/v1/share/open/" + token + "/more")).To(HaveError(404, "not_found"))

		Expect(h.Log.String()).NotTo(ContainSubstring(token))
		var paths []string
		for _, rec := range h.Log.RecordsSince(mark, "request") {
			if p, _ := rec["path"].(string); strings.HasPrefix(p, "/api/v1/share/open/") {
				paths = append(paths, p)
			}
		}
		Expect(paths).To(ConsistOf("/api/v1/share/open/{token}", "/api/v1/share/open/{token}",
			"/api/v1/share/open/{token}", "/api/v1/share/open/{token}/more"))

		var spanPaths []string
		for _, span := range exp.GetSpans() {
			for _, kv := range span.Attributes {
				Expect(kv.Value.Emit()).NotTo(ContainSubstring(token), "%s %s", span.Name, kv.Key)
				if kv.Key == "url.path" && strings.HasPrefix(kv.Value.AsString(), "/api/v1/share/open/") {
					spanPaths = append(spanPaths, kv.Value.AsString())
				}
			}
			Expect(span.Name).NotTo(ContainSubstring(token))
		}
		Expect(spanPaths).To(ConsistOf("/api/v1/share/open/{token}", "/api/v1/share/open/{token}",
			"/api/v1/share/open/{token}", "/api/v1/share/open/{token}/more"))
	})
})
