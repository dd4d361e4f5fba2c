package surface_test

import (
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"

	"github.com/roundsedu/rounds/e2e/harness"
)

// contractTypes is the generated package e2e specs read responses into.
const contractTypes = "../support/contract/types.gen.go"

// TestContractTypes keeps e2e/support/contract the Go types of the served
// OpenAPI document, as web/src/api/schema.d.ts is for the web client: a spec
// that reads a response into them cannot drift from the contract. It fails
// when the checked-in file differs from what oapi-codegen writes for the
// document; `go tool task surface:accept` rewrites it.
func TestContractTypes(t *testing.T) {
	h, err := harness.Start(harness.WithoutSSO())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Stop() }()
	res := h.Anon().Get("/api/openapi.json")
	if res.Status != 200 {
		t.Fatalf("GET /api/openapi.json: %d", res.Status)
	}
	doc, err := openapi3.NewLoader().LoadFromData(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	generator := "(oapi-codegen v2.8.2, from the surface test)"
	got, err := codegen.Generate(doc, codegen.Configuration{
		PackageName:          "contract",
		NoVCSVersionOverride: &generator,
		Generate:             codegen.GenerateOptions{Models: true},
		// Every schema, not only those an operation names by reference.
		OutputOptions: codegen.OutputOptions{SkipPrune: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ROUNDS_SURFACE_ACCEPT") != "" {
		if err := os.WriteFile(contractTypes, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", contractTypes)
		return
	}
	want, err := os.ReadFile(contractTypes)
	if err != nil {
		t.Fatalf("%v (run `go tool task surface:accept` to write it)", err)
	}
	if diff := lineDiff(string(want), got); diff != "" {
		t.Errorf("%s is not what the server serves; run `go tool task surface:accept` and commit it:\n%s", contractTypes, diff)
	}
}
