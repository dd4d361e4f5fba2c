package anki_test

import (
	"archive/zip"
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	. "github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

var lim = Limits{MaxEntries: 100, MaxUnpackedBytes: 1 << 20, MaxRowBytes: 64 << 10, MaxReadBytes: 1 << 20, MaxNotes: 50, MaxReviews: 100, MaxFieldBytes: 1000,
	QueryTimeout: 10 * time.Second, MaxMediaMapBytes: 4096, MaxMediaFiles: 10, MaxMediaFileBytes: 64 << 10, MaxMediaBytes: 100 << 10}

func build(t *testing.T, p ankifixtures.Package) []byte {
	t.Helper()
	data, err := ankifixtures.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRead(t *testing.T) {
	for _, layout := range []Layout{Latest, Legacy2, Legacy1} {
		data := build(t, ankifixtures.Package{Layout: layout, DeckName: "Cardiology", Notes: []ankifixtures.Note{
			{Model: ankifixtures.Basic, Fields: []string{"<b>Mitral</b> valve", "between LA and LV"}, Ords: []int{0}},
			{Model: ankifixtures.Reversed, Fields: []string{"Tachycardia", "HR &gt; 100"}, Ords: []int{0, 1}},
			{Model: ankifixtures.Cloze, Fields: []string{"The {{c1::aorta}} leaves the {{c2::LV}}", "extra"}, Ords: []int{0, 1}},
			{Model: 999, Fields: []string{"x", "y"}, Ords: []int{0}},
		}, Media: map[string]string{"0": "heart.png"}, Files: map[string][]byte{"0": {0x89, 'P', 'N', 'G'}}})
		got, err := Read(context.Background(), data, lim)
		if err != nil {
			t.Fatalf("layout %d: %v", layout, err)
		}
		want := []Note{{Item: 1, Type: Basic, Front: "Mitral valve", Back: "between LA and LV"},
			{Item: 2, Type: Reversed, Front: "Tachycardia", Back: "HR > 100"},
			{Item: 3, Type: Cloze, Front: "The {{c1::aorta}} leaves the {{c2::LV}}", Back: "extra"}}
		if got.DeckName != "Cardiology" || got.Layout != layout || !reflect.DeepEqual(got.Notes, want) {
			t.Fatalf("layout %d: got %q %d %+v", layout, got.DeckName, got.Layout, got.Notes)
		}
		if len(got.Refused) != 1 || got.Refused[0].Item != 4 || got.Refused[0].Reason != "its note type is missing from the collection" {
			t.Fatalf("layout %d: refused %+v", layout, got.Refused)
		}
	}
}

func zipOf(t *testing.T, entries map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for k, v := range entries {
		w, err := zw.Create(k)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(v)
	}
	zw.Close()
	return buf.Bytes()
}

func TestHostile(t *testing.T) {
	note := []ankifixtures.Note{{Model: ankifixtures.Basic, Fields: []string{"a", "b"}, Ords: []int{0}}}
	cases := map[string]struct {
		data []byte
		want error
	}{
		"not a zip":        {[]byte("%PDF-1.7"), ErrMalformed{}},
		"no collection":    {zipOf(t, map[string][]byte{"media": []byte("{}")}), ErrMalformed{}},
		"new format only":  {zipOf(t, map[string][]byte{"collection.anki21b": []byte("x")}), ErrMalformed{}},
		"newer than read":  {zipOf(t, map[string][]byte{"meta": {0x08, 0x04}, "collection.anki21b": []byte("x")}), ErrMalformed{}},
		"meta not a meta":  {zipOf(t, map[string][]byte{"meta": {0xff}, "collection.anki21b": []byte("x")}), ErrMalformed{}},
		"not zstd":         {zipOf(t, map[string][]byte{"meta": {0x08, 0x03}, "collection.anki21b": []byte("SQLite format 3\x00")}), ErrMalformed{}},
		"zstd bomb":        {zipOf(t, map[string][]byte{"meta": {0x08, 0x03}, "collection.anki21b": zstdOf(make([]byte, 8<<20))}), ErrTooLarge{}},
		"not sqlite":       {zipOf(t, map[string][]byte{"collection.anki2": []byte("hello world, not a database")}), ErrMalformed{}},
		"zip bomb":         {zipOf(t, map[string][]byte{"collection.anki2": make([]byte, 8<<20)}), ErrTooLarge{}},
		"entry path":       {build(t, ankifixtures.Package{Notes: note, Files: map[string][]byte{"../../evil": {1}}}), ErrHostile{}},
		"media traversal":  {build(t, ankifixtures.Package{Notes: note, Media: map[string]string{"0": "../../../etc/cron.d/x"}}), ErrHostile{}},
		"media absolute":   {build(t, ankifixtures.Package{Notes: note, Media: map[string]string{"0": "/etc/passwd"}}), ErrHostile{}},
		"media not a map":  {build(t, ankifixtures.Package{Notes: note, Files: map[string][]byte{"media": []byte("[1,2]")}}), ErrMalformed{}},
		"too many notes":   {build(t, ankifixtures.Package{Notes: repeatNotes(51)}), ErrTooLarge{}},
		"too many entries": {zipOf(t, manyEntries(101)), ErrTooLarge{}},
	}
	for name, c := range cases {
		_, err := Read(context.Background(), c.data, lim)
		if reflect.TypeOf(err) != reflect.TypeOf(c.want) {
			t.Errorf("%s: got %v (%T), want %T", name, err, err, c.want)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%s: no reason", name)
		}
	}
}

func repeatNotes(n int) []ankifixtures.Note {
	out := make([]ankifixtures.Note, n)
	for i := range out {
		out[i] = ankifixtures.Note{Model: ankifixtures.Basic, Fields: []string{"a", "b"}, Ords: []int{0}}
	}
	return out
}

func manyEntries(n int) map[string][]byte {
	out := map[string][]byte{}
	for i := 0; i < n; i++ {
		out[strings.Repeat("1", i+1)] = nil
	}
	return out
}

func TestWriteReadsBack(t *testing.T) {
	notes := []Note{{Item: 1, Type: Basic, Front: "Mitral valve", Back: "between LA and LV"},
		{Item: 2, Type: Reversed, Front: "Tachycardia", Back: "HR > 100"},
		{Item: 3, Type: Cloze, Front: "The {{c1::aorta}} leaves the {{c2::LV}}", Back: "extra"},
		{Item: 4, Type: TypeIn, Front: "Capital of France?", Back: "Paris"}}
	for _, layout := range []Layout{Latest, Legacy1} {
		var buf bytes.Buffer
		if err := Write(context.Background(), &buf, layout, "Cardiology", notes, nil); err != nil {
			t.Fatal(err)
		}
		got, err := Read(context.Background(), buf.Bytes(), lim)
		if err != nil {
			t.Fatal(err)
		}
		if got.DeckName != "Cardiology" || got.Layout != layout || !reflect.DeepEqual(got.Notes, notes) || len(got.Refused) != 0 {
			t.Fatalf("layout %d: got %q %+v %+v", layout, got.DeckName, got.Notes, got.Refused)
		}
	}
}
