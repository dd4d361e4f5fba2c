package app

import (
	"testing"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// loads counts the database reads quizRows.get makes.
type loads struct{ n int }

func (l *loads) of(title string, during func()) func() (*store.QuizVersioned, error) {
	return func() (*store.QuizVersioned, error) {
		l.n++
		if during != nil {
			during()
		}
		z := &store.QuizVersioned{}
		z.Title = title
		return z, nil
	}
}

// Rows are kept from the moment the session hears its own probe until it
// is lost.
func TestQuizRowsKeepOnlyWhileListening(t *testing.T) {
	r, l := newQuizRows(), &loads{}
	for range 3 {
		if z, _ := r.get(1, l.of("a", nil)); z.Title != "a" {
			t.Fatalf("got %q", z.Title)
		}
	}
	if l.n != 3 {
		t.Fatalf("not listening: %d reads of 3 went to the database", l.n)
	}
	r.heard("probe mine")("probe mine")
	r.get(1, l.of("a", nil))
	if z, _ := r.get(1, l.of("b", nil)); z.Title != "a" || l.n != 4 {
		t.Fatalf("listening: kept row not served (%q, %d reads)", z.Title, l.n)
	}
	r.setLive(false)
	if z, _ := r.get(1, l.of("c", nil)); z.Title != "c" {
		t.Fatalf("after the session was lost the kept row was served: %q", z.Title)
	}
}

func TestQuizRowsForget(t *testing.T) {
	r, l := newQuizRows(), &loads{}
	r.setLive(true)
	r.get(1, l.of("one", nil))
	r.get(2, l.of("two", nil))
	r.forget("1")
	if z, _ := r.get(1, l.of("one again", nil)); z.Title != "one again" {
		t.Fatalf("a forgotten row was served: %q", z.Title)
	}
	if z, _ := r.get(2, l.of("x", nil)); z.Title != "two" {
		t.Fatalf("forgetting quiz 1 dropped quiz 2: %q", z.Title)
	}
	r.heard("probe mine")("probe theirs")
	if z, _ := r.get(2, l.of("x", nil)); z.Title != "two" {
		t.Fatalf("another process's probe dropped a row: %q", z.Title)
	}
	r.forget("*")
	if z, _ := r.get(2, l.of("two again", nil)); z.Title != "two again" {
		t.Fatalf("* did not forget every row: %q", z.Title)
	}
	r.forgetAll()
	if z, _ := r.get(2, l.of("three", nil)); z.Title != "three" {
		t.Fatalf("forgetAll did not forget: %q", z.Title)
	}
}

// A change heard while a row is being read may have come after the read's
// snapshot: that row is served to its reader but not kept.
func TestQuizRowsDoNotKeepARowReadAcrossAChange(t *testing.T) {
	r, l := newQuizRows(), &loads{}
	r.setLive(true)
	if z, _ := r.get(1, l.of("old", func() { r.forget("1") })); z.Title != "old" {
		t.Fatalf("got %q", z.Title)
	}
	if z, _ := r.get(1, l.of("new", nil)); z.Title != "new" {
		t.Fatalf("a row read across a change was kept: %q", z.Title)
	}
	r.forget("1")
	r.get(1, l.of("new", func() { r.setLive(false); r.setLive(true) }))
	if z, _ := r.get(1, l.of("newer", nil)); z.Title != "newer" {
		t.Fatalf("a row read across a lost session was kept: %q", z.Title)
	}
}
