package settings

import (
	"errors"
	"testing"
)

func TestWholeRangeIsCheckedBeforeTheKeysOwnCheck(t *testing.T) {
	own := errors.New("own check")
	s := Setting{Key: "k", Whole: &Range{Min: 0, Max: 10}, Validate: func(any) error { return own }}
	for _, v := range []any{-1.0, 10.5, 11.0, "3", nil, true} {
		if err := s.validate(v); err == nil || err == own {
			t.Errorf("%v: want the range's refusal, got %v", v, err)
		} else if err.Error() != "must be a whole number from 0 to 10" {
			t.Errorf("%v: %q", v, err)
		}
	}
	if err := s.validate(10.0); err != own {
		t.Errorf("a value in range goes on to the key's own check, got %v", err)
	}
	if err := (Setting{Whole: &Range{Min: 1, Max: 3}}).validate(2.0); err != nil {
		t.Errorf("in range: %v", err)
	}
}

func TestKindFollowsTheDefault(t *testing.T) {
	for v, want := range map[any]string{"": "text", true: "switch", 0: "number", 2.5: "number"} {
		if got := kind(v); got != want {
			t.Errorf("kind(%#v) = %s, want %s", v, got, want)
		}
	}
	if got := kind([]any{"a"}); got != "json" {
		t.Errorf("a list: %s", got)
	}
}
