package module

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

func TestArchiveWritesEachModulesFilesAsJSON(t *testing.T) {
	var buf bytes.Buffer
	a := NewArchive(&buf, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err := a.Module("identity").Object("account", map[string]any{"id": 7}); err != nil {
		t.Fatal(err)
	}
	x := a.Module("attempts")
	l, err := x.List("notes")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b"} {
		if err := l.Add(map[string]string{"body": n}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x.List("other"); err == nil {
		t.Fatal("a second file while a list is open must be refused")
	}
	if err := a.Close(); err == nil {
		t.Fatal("closing with a list open must be refused")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	empty, _ := x.List("folders")
	if err := empty.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v\n%s", f.Name, err, data)
		}
		got[f.Name] = v
	}
	want := `{"attempts/folders.json":[],"attempts/notes.json":[{"body":"a"},{"body":"b"}],"identity/account.json":{"id":7}}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Fatalf("got %s", b)
	}
	if len(a.Files()) != 3 {
		t.Fatalf("files %v", a.Files())
	}
}
