package storage

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCleanKey(t *testing.T) {
	for _, bad := range []string{"", "/etc/passwd", "a/../b", "../x", "a//b", "a\\b", "./a"} {
		if _, err := CleanKey(bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("CleanKey(%q) accepted", bad)
		}
	}
	if k, err := CleanKey("documents/7/file.pdf"); err != nil || k != "documents/7/file.pdf" {
		t.Errorf("good key refused: %v", err)
	}
}

func TestFileBucketRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "file://"+t.TempDir()+"/nested")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Put(ctx, "a/b.txt", strings.NewReader("hello"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Open(ctx, "a/b.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "hello" {
		t.Errorf("read %q", b)
	}
	if n, _ := s.Size(ctx, "a/b.txt"); n != 5 {
		t.Errorf("size %d", n)
	}
	if err := s.Delete(ctx, "a/b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "a/b.txt"); !errors.Is(err, ErrNotFound) {
		t.Errorf("want ErrNotFound, got %v", err)
	}
	if err := s.Delete(ctx, "a/b.txt"); err != nil {
		t.Errorf("deleting a missing key must be harmless: %v", err)
	}
}
