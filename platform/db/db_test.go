package db

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestJSONListRoundTrip(t *testing.T) {
	var nilList JSONList[string]
	if v, _ := nilList.Value(); v != "[]" {
		t.Errorf("nil list stored as %v, want []", v)
	}
	in := JSONList[int64]{1, 2}
	v, err := in.Value()
	if err != nil {
		t.Fatal(err)
	}
	var out JSONList[int64]
	if err := out.Scan([]byte(v.(string))); err != nil || len(out) != 2 || out[1] != 2 {
		t.Errorf("round trip: %v %v", out, err)
	}
	if err := out.Scan(42); err == nil {
		t.Error("scanning a number must fail")
	}
}

func TestIsUniqueViolationSeesRawPostgresErrors(t *testing.T) {
	if !IsUniqueViolation(fmt.Errorf("insert: %w", &pgconn.PgError{Code: "23505"})) {
		t.Error("a raw 23505 is a unique violation")
	}
	if IsUniqueViolation(&pgconn.PgError{Code: "23503"}) {
		t.Error("a foreign-key violation is not")
	}
}
