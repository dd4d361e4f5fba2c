package ratelimit

import (
	"strings"
	"testing"
)

func TestStoredKeyIsBounded(t *testing.T) {
	if storedKey("") != SharedKey || storedKey("203.0.113.7") != "203.0.113.7" {
		t.Error("short keys are kept as they are")
	}
	a, b := storedKey(strings.Repeat("a", 2800)), storedKey(strings.Repeat("a", 2799)+"b")
	if len(a) > MaxKey || len(b) > MaxKey || a == b {
		t.Errorf("long keys must be bounded and distinct: %q %q", a, b)
	}
}
