package app

import (
	"slices"
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
)

func TestParseReplyKeepsThreeFollowUpsOutOfTheAnswer(t *testing.T) {
	got := parseReply("**Mitral stenosis.**\n\nThe snap follows S2.\n> Why?\n>   How is it timed?  \n> What else?\n> A fourth\n>\n")
	if got.Reply != "**Mitral stenosis.**\n\nThe snap follows S2." {
		t.Errorf("reply %q", got.Reply)
	}
	if want := []string{"Why?", "How is it timed?", "What else?"}; len(got.Suggestions) != 3 ||
		got.Suggestions[0] != want[0] || got.Suggestions[1] != want[1] || got.Suggestions[2] != want[2] {
		t.Errorf("suggestions %q", got.Suggestions)
	}
	if none := parseReply("Just an answer."); none.Suggestions == nil || len(none.Suggestions) != 0 {
		t.Errorf("no follow-ups must be an empty list, got %#v", none.Suggestions)
	}
}

func service(t *testing.T, current, previous string) *Service {
	t.Helper()
	s := &Service{}
	for _, k := range []string{current, previous} {
		if k == "" {
			continue
		}
		aead, err := sealer(k)
		if err != nil {
			t.Fatal(err)
		}
		s.sealers = append(s.sealers, aead)
	}
	return s
}

const (
	oldKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	newKey = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA="
)

func TestKeysStillOpenAfterARotation(t *testing.T) {
	sealed, err := service(t, oldKey, "").seal("sk-live-1")
	if err != nil {
		t.Fatal(err)
	}
	rotated := service(t, newKey, oldKey)
	if plain, err := rotated.open(sealed); err != nil || plain != "sk-live-1" {
		t.Fatalf("after rotation: %q %v", plain, err)
	}
	if _, err := service(t, newKey, "").open(sealed); err == nil {
		t.Fatal("a key sealed with a dropped key must not open")
	}
	resealed, _ := rotated.seal("sk-live-1")
	if plain, err := service(t, newKey, "").open(resealed); err != nil || plain != "sk-live-1" {
		t.Fatalf("new seals use the current key: %q %v", plain, err)
	}
}

func TestNoEncryptionKeyRefusesToStoreAKey(t *testing.T) {
	_, err := (&Service{}).seal("sk")
	if ae, ok := apperr.As(err); !ok || ae.Fields[0].Field != "api_key" {
		t.Fatalf("want a 422 on api_key, got %v", err)
	}
	if _, err := sealer("c2hvcnQ="); err == nil {
		t.Fatal("a key that is not 32 bytes must be refused")
	}
}

func TestCitations(t *testing.T) {
	for text, want := range map[string][]int{
		"No sources.":                       nil,
		"A [1], B [2][3], again [1].":       {1, 2, 3},
		"Out of range [0] [4] [12] [1234].": nil,
		"[3] first, then [2].":              {3, 2},
		"Not a citation: [1a] [ 2 ] [].":    nil,
	} {
		if got := citations(text, 3); !slices.Equal(got, want) {
			t.Errorf("citations(%q) = %v, want %v", text, got, want)
		}
	}
}
