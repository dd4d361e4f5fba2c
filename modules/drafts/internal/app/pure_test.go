package app

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
)

func TestCheckRange(t *testing.T) {
	ok := [][3]int{{1, 1, 1}, {1, 4, 4}, {4, 4, 4}, {2, 3, 4}}
	for _, c := range ok {
		if err := checkRange(c[0], c[1], c[2]); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	bad := [][3]int{{0, 1, 4}, {-1, 1, 4}, {3, 2, 4}, {1, 5, 4}, {1, 1, 0}}
	for _, c := range bad {
		if err := checkRange(c[0], c[1], c[2]); !apperr.Is(err, apperr.BadRequest) {
			t.Errorf("%v: err = %v, want bad_request", c, err)
		}
	}
}

func TestCleanFilename(t *testing.T) {
	cases := map[string]string{
		"paper.pdf":                   "paper.pdf",
		`C:\Users\me\exam 2024.pdf`:   "exam 2024.pdf",
		"../../etc/passwd":            "passwd",
		"":                            "document.pdf",
		"bad\x00name\n.pdf":           "badname.pdf",
		strings.Repeat("é", 200) + "": strings.Repeat("é", 127),
	}
	for in, want := range cases {
		if got := cleanFilename(in); got != want {
			t.Errorf("cleanFilename(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestByDraftRenamesBankFields(t *testing.T) {
	err := byDraft(fmt.Errorf("filing: %w", &bank.RefusedQuestions{Refusals: []bank.QuestionRefusal{
		{Item: 1, Field: "question_category_id", Rule: "no such question category"}}}),
		[]int64{40, 41})
	ae, ok := apperr.As(err)
	if !ok || ae.Fields[0].Field != "drafts[41].question_category_id" ||
		ae.Message != "draft 41: no such question category" || ae.Code != apperr.Invalid {
		t.Fatalf("got %+v", err)
	}
}

func TestByDraftPassesOtherErrors(t *testing.T) {
	plain := apperr.Invalidf("questions[0].options", "a look-alike that is not the bank's typed refusal")
	if err := byDraft(plain, []int64{40}); !errors.Is(err, plain) {
		t.Fatalf("got %v", err)
	}
}

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Minute: "30 minutes", 2 * time.Hour: "2 hours",
		90 * time.Second: "1m30s"} {
		if got := humanDuration(d); got != want {
			t.Errorf("%v: %q", d, got)
		}
	}
}
