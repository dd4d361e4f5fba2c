package events_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/platform/events"
)

// A topic is bound to its payload type: publishing or subscribing with
// another type, or with a bare topic name, does not compile. The build of
// testdata/mismatch must fail on each of its three lines.
func TestAPayloadOfAnotherTypeDoesNotCompile(t *testing.T) {
	out, err := exec.Command("go", "build", "-gcflags=-e", "./testdata/mismatch").CombinedOutput()
	if err == nil {
		t.Fatal("testdata/mismatch compiled: a topic no longer binds its payload type")
	}
	for _, line := range []string{"mismatch.go:18:", "mismatch.go:22:", "mismatch.go:26:"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("no error at %s; the compiler said:\n%s", line, out)
		}
	}
	if n := len(regexp.MustCompile(`mismatch\.go:\d+:`).FindAllIndex(out, -1)); n != 3 {
		t.Errorf("want exactly the three mismatches refused, got %d errors:\n%s", n, out)
	}
}

func TestATopicKeepsItsWireName(t *testing.T) {
	type payload struct{}
	if got := events.NewTopic[payload]("bank.question_changed.v1").Name(); got != "bank.question_changed.v1" {
		t.Fatalf("name %q", got)
	}
}
