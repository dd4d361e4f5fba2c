package anki_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"image"
	pngenc "image/png"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	. "github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

// entries unpacks a package's entries as stored (zstd left packed).
func entries(t *testing.T, data []byte) map[string]*zip.File {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*zip.File{}
	for _, f := range zr.File {
		out[f.Name] = f
	}
	return out
}

func TestLatestLayoutAsAnkiWritesIt(t *testing.T) {
	var buf bytes.Buffer
	notes := []Note{{Type: Basic, Front: "a", Back: "b", Image: "x.png"}}
	if err := Write(context.Background(), &buf, Latest, "Deck", notes, []MediaFile{file("x.png", png)}); err != nil {
		t.Fatal(err)
	}
	es := entries(t, buf.Bytes())
	for _, name := range []string{"meta", "collection.anki21b", "collection.anki2", "media", "0"} {
		f := es[name]
		if f == nil {
			t.Fatalf("no %s in %v", name, es)
		}
		if f.Method != zip.Store {
			t.Errorf("%s is not stored", name)
		}
	}
	rc, _ := es["meta"].Open()
	meta, _ := io.ReadAll(rc)
	if !bytes.Equal(meta, []byte{0x08, 0x03}) {
		t.Fatalf("meta %x", meta)
	}
	for _, name := range []string{"collection.anki21b", "media", "0"} {
		rc, _ := es[name].Open()
		raw, _ := io.ReadAll(rc)
		if !bytes.HasPrefix(raw, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
			t.Errorf("%s is not a zstd frame", name)
		}
	}
	dec, _ := zstd.NewReader(nil)
	rc, _ = es["0"].Open()
	raw, _ := io.ReadAll(rc)
	if plain, err := dec.DecodeAll(raw, nil); err != nil || !bytes.Equal(plain, png) {
		t.Fatalf("media file 0: %v", err)
	}
	// The decoy is a schema-11 collection: read alone, it is the note asking to update Anki.
	decoy := zipOf(t, map[string][]byte{"collection.anki2": contents(t, es["collection.anki2"])})
	got, err := Read(context.Background(), decoy, lim)
	if err != nil || len(got.Notes) != 1 || !strings.Contains(got.Notes[0].Front, "Please update to the latest Anki version") {
		t.Fatalf("decoy: %v %+v", err, got)
	}
}

func contents(t *testing.T, f *zip.File) []byte {
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	return b
}

func TestDecoyNeverRead(t *testing.T) {
	note := []ankifixtures.Note{{Model: ankifixtures.Basic, Fields: []string{"real", "note"}, Ords: []int{0}}}
	for _, layout := range []Layout{Latest, Legacy2} {
		// A decoy that is no database at all: the package still reads, from its real collection.
		data := build(t, ankifixtures.Package{Layout: layout, Notes: note,
			Files: map[string][]byte{"collection.anki2": []byte("not even SQLite")}})
		got, err := Read(context.Background(), data, lim)
		if err != nil || len(got.Notes) != 1 || got.Notes[0].Front != "real" {
			t.Fatalf("layout %d: %v %+v", layout, err, got)
		}
	}
}

func TestHostileSQL(t *testing.T) {
	note := []ankifixtures.Note{{Model: ankifixtures.Basic, Fields: []string{"a", "b"}, Ords: []int{0}}}
	// A view of a few bytes that makes 100 rows of 4 MiB each.
	bomb := `DROP TABLE notes; CREATE VIEW notes AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
		SELECT i AS id, '' AS guid, 1001 AS mid, 0 AS mod, 0 AS usn, '' AS tags,
		printf('%.*c', 4194304, 'x') || char(31) || 'b' AS flds, '' AS sfld, 0 AS csum, 0 AS flags, '' AS data FROM n`
	cases := map[string]struct {
		sql  []string
		want string
	}{
		"a view as notes":          {[]string{bomb}, `declares a view ("notes")`},
		"a view as cards":          {[]string{`DROP TABLE cards; CREATE VIEW cards AS SELECT * FROM notes`}, `declares a view ("cards")`},
		"a view beside the tables": {[]string{`CREATE VIEW extra AS SELECT 1`}, `declares a view ("extra")`},
		"a trigger":                {[]string{`CREATE TRIGGER t AFTER INSERT ON notes BEGIN DELETE FROM cards; END`}, `declares a trigger ("t")`},
		"a generated column": {[]string{`ALTER TABLE revlog RENAME TO old`, `CREATE TABLE revlog (id integer primary key, cid integer, usn integer,
			ease integer, ivl integer, lastIvl integer, factor integer, time integer, type integer,
			big blob GENERATED ALWAYS AS (zeroblob(100000000)) VIRTUAL)`}, "revlog table has generated columns"},
	}
	for name, c := range cases {
		data := build(t, ankifixtures.Package{Notes: note, Tamper: c.sql})
		if len(data) > 64<<10 {
			t.Fatalf("%s: the package is %d bytes", name, len(data))
		}
		_, err := Read(context.Background(), data, lim)
		var hostile ErrHostile
		if !errors.As(err, &hostile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v (%T), want ErrHostile with %q", name, err, err, c.want)
		}
	}
}

func TestRowBounds(t *testing.T) {
	// A real table's row past the row bound, and rows past the total.
	big := strings.Repeat("x", 70<<10)
	notes := []ankifixtures.Note{{Model: ankifixtures.Basic, Fields: []string{big, "b"}, Ords: []int{0}}}
	if _, err := Read(context.Background(), build(t, ankifixtures.Package{Notes: notes}), lim); !isTooLarge(err) ||
		!strings.Contains(err.Error(), "note 1 holds") {
		t.Fatalf("row: %v", err)
	}
	small := lim
	small.MaxReadBytes = 200
	many := repeatNotes(40)
	if _, err := Read(context.Background(), build(t, ankifixtures.Package{Notes: many}), small); !isTooLarge(err) ||
		!strings.Contains(err.Error(), "rows add up") {
		t.Fatalf("total: %v", err)
	}
}

func isTooLarge(err error) bool {
	var large ErrTooLarge
	return errors.As(err, &large)
}

// picture is a w×h PNG.
func picture(w, h int) []byte {
	var buf bytes.Buffer
	_ = pngenc.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h)))
	return buf.Bytes()
}

func TestNoteTypesMapped(t *testing.T) {
	for _, layout := range []Layout{Latest, Legacy1} {
		occlusion := `{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}<br>` +
			`{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}<br>` +
			`{{c2::image-occlusion:polygon:points=0.1,0.1 0.2,0.1 0.15,0.3:oi=1}}<br>` +
			`{{c3::image-occlusion:text:left=.7:top=.7:text=Label:scale=1}}`
		data := build(t, ankifixtures.Package{Layout: layout, Notes: []ankifixtures.Note{
			{Model: ankifixtures.TypeIn, Fields: []string{"Capital of <i>France</i>?", "Paris"}, Ords: []int{0}},
			{Model: ankifixtures.Vocab, Fields: []string{"chien", "dog", ""}, Ords: []int{0}},
			{Model: ankifixtures.Custom, Fields: []string{"a", "b", "c"}, Ords: []int{0, 2}},
			{Model: ankifixtures.Reversed, Fields: []string{"only", "backwards"}, Ords: []int{1}},
			{Model: ankifixtures.Occlusion, Fields: []string{occlusion, `<img src="heart.png">`, "Name the part", "", ""}, Ords: []int{0, 1, 2}},
		}, Media: map[string]string{"0": "heart.png"}, Files: map[string][]byte{"0": picture(200, 100)}})
		got, err := Read(context.Background(), data, lim)
		if err != nil {
			t.Fatalf("layout %d: %v", layout, err)
		}
		want := []Note{
			{Item: 1, Type: TypeIn, Front: "Capital of France?", Back: "Paris"},
			{Item: 2, Type: Basic, Front: "chien", Back: "dog\n(no example)"},
			{Item: 3, Type: Basic, Front: "a", Back: "b"},
			{Item: 3, Type: Basic, Front: "c", Back: "a"},
			{Item: 4, Type: Basic, Front: "backwards", Back: "only"},
			{Item: 5, Type: Occlusion, Front: "Name the part", Back: "", Image: "heart.png", ImageOnFront: true, Shapes: []Shape{
				{Kind: "rect", X: 20, Y: 20, W: 60, H: 10, Label: "Area 1"},
				{Kind: "ellipse", X: 100, Y: 50, W: 40, H: 10, Label: "Area 2"},
				{Kind: "polygon", Points: [][2]float64{{20, 10}, {40, 10}, {30, 30}}, Label: "Area 2"}}},
		}
		for i := range got.Notes {
			got.Notes[i].Schedules = nil
		}
		if !reflect.DeepEqual(got.Notes, want) || len(got.Refused) != 0 {
			t.Fatalf("layout %d:\n got %+v\nwant %+v\nrefused %+v", layout, got.Notes, want, got.Refused)
		}
		as := map[string]string{}
		for _, m := range got.Mapped {
			as[m.NoteType] = m.As
			if m.How == "" || m.Notes != 1 {
				t.Errorf("mapping %+v", m)
			}
		}
		if !reflect.DeepEqual(as, map[string]string{"Basic (type in the answer)": TypeIn, "Vocabulary": Basic,
			"Three ways": Basic, "Basic (and reversed card)": Basic, "Image Occlusion": Occlusion}) {
			t.Fatalf("mapped %+v", got.Mapped)
		}
	}
}
