// Package ankifixtures builds Anki packages (.apkg) for tests the way
// Anki's own exporter lays them out (rslib/src/import_export/package in
// Anki's source): the latest layout (meta, zstd schema-18
// collection.anki21b, the decoy collection.anki2, a zstd protobuf media
// map and zstd media files), or the legacy ones (collection.anki21 with
// meta and decoy, or collection.anki2 alone, schema 11, a JSON media
// map). Collections hold the stock note types and a few others (three
// templates, custom fields, image occlusion), notes with whatever cards a
// test asks for, and hostile entries or SQL.
package ankifixtures

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

// Layout is how a package lays out its collection and media.
type Layout = anki.Layout

// Layouts of a package.
const (
	Latest  = anki.Latest
	Legacy2 = anki.Legacy2
	Legacy1 = anki.Legacy1
)

// Note types of the collection.
const (
	Basic           = anki.ModelBasic
	Reversed        = anki.ModelReversed
	Cloze           = anki.ModelCloze
	TypeIn          = anki.ModelTypeIn
	Custom    int64 = 1010 // three fields, a card template asking each
	Vocab     int64 = 1011 // Word, Meaning, Example: one card template
	Occlusion int64 = 1012 // Anki's image occlusion note type
)

// Note is one note: its type, fields and the card ordinals it made.
type Note struct {
	Model  int64
	Fields []string
	Ords   []int
}

// Package is an .apkg to build.
type Package struct {
	Layout   Layout // zero: Latest
	DeckName string
	Notes    []Note
	Media    map[string]string // the media map ("0": "heart.png")
	Files    map[string][]byte // zip entries: media files, hostile names, replacements
	// Tamper runs on the collection once its notes are written (views,
	// triggers, generated columns made in the test).
	Tamper []string
}

// models are the stock note types and the fixtures' own, as Anki
// defines them (image occlusion: rslib/src/image_occlusion/notetype.rs).
func models() map[string]anki.Model {
	ms := anki.StockModels()
	add := func(m anki.Model) { ms[strconv.FormatInt(m.ID, 10)] = m }
	add(anki.Model{ID: Custom, Name: "Three ways",
		Flds: []anki.Field{{Name: "A", Ord: 0}, {Name: "B", Ord: 1}, {Name: "C", Ord: 2}},
		Tmpls: []anki.Template{{Name: "1", Ord: 0, Qfmt: "{{A}}", Afmt: "{{FrontSide}}<hr id=answer>{{B}}"},
			{Name: "2", Ord: 1, Qfmt: "{{B}}", Afmt: "{{FrontSide}}<hr id=answer>{{C}}"},
			{Name: "3", Ord: 2, Qfmt: "{{C}}", Afmt: "{{FrontSide}}<hr id=answer>{{A}}"}}})
	add(anki.Model{ID: Vocab, Name: "Vocabulary",
		Flds: []anki.Field{{Name: "Word", Ord: 0}, {Name: "Meaning", Ord: 1}, {Name: "Example", Ord: 2}},
		Tmpls: []anki.Template{{Name: "Recognise", Ord: 0, Qfmt: "<div class=word>{{Word}}</div>{{tts en_US:Word}}",
			Afmt: "{{FrontSide}}<hr id=answer>{{Meaning}}{{#Example}}<br><i>{{Example}}</i>{{/Example}}{{^Example}}<br>(no example){{/Example}}"}}})
	qfmt := "{{#Header}}<div>{{Header}}</div>{{/Header}}\n<div style=\"display: none\">{{cloze:Occlusion}}</div>\n" +
		"<div id=\"err\"></div>\n<div id=\"image-occlusion-container\">\n    {{Image}}\n    <canvas id=\"image-occlusion-canvas\"></canvas>\n</div>\n" +
		"<script>\ntry {\n    anki.setupImageCloze();\n} catch (exc) {\n    document.getElementById(\"err\").innerHTML = `Error loading image occlusion.<br><br>${exc}`;\n}\n</script>\n"
	add(anki.Model{ID: Occlusion, Name: "Image Occlusion", Type: 1, Stock: 6,
		Flds: []anki.Field{{Name: "Occlusion", Ord: 0}, {Name: "Image", Ord: 1}, {Name: "Header", Ord: 2},
			{Name: "Back Extra", Ord: 3}, {Name: "Comments", Ord: 4}},
		Tmpls: []anki.Template{{Name: "Image Occlusion", Ord: 0, Qfmt: qfmt,
			Afmt: qfmt + "\n<div><button id=\"toggle\">Toggle Masks</button></div>\n{{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}\n"}}})
	return ms
}

// Build writes the package and returns its bytes.
func Build(p Package) ([]byte, error) {
	ctx := context.Background()
	if p.Layout == 0 {
		p.Layout = Latest
	}
	dir, err := os.MkdirTemp("", "ankifixture")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "collection")
	schema := anki.Schema11
	if p.Layout == Latest {
		schema = anki.Schema18
	}
	col, err := anki.NewCollection(ctx, path, schema, models(), p.DeckName, time.Now().UTC().Truncate(24*time.Hour))
	if err != nil {
		return nil, err
	}
	for i, n := range p.Notes {
		if err = col.AddNote(int64(1000+i), n.Model, n.Fields, n.Ords, nil); err != nil {
			break
		}
	}
	for _, sql := range p.Tamper {
		if err == nil {
			err = col.Exec(sql)
		}
	}
	if cerr := col.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := anki.Zip(&buf, p.Layout, path, p.Media, p.Files); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
