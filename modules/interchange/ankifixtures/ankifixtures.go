// Package ankifixtures builds Anki packages (.apkg) for tests: a legacy
// collection (schema 11, what Anki writes with "Support older Anki
// versions") with the stock Basic, Basic (and reversed card) and Cloze
// note types, plus whatever hostile entries a test asks for.
package ankifixtures

import (
	"archive/zip"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver
)

// Note types of the stock collection.
const (
	Basic    int64 = 1001
	Reversed int64 = 1002
	Cloze    int64 = 1003
	Custom   int64 = 1004 // three fields, three card templates
)

// Note is one note: its type, fields and the card ordinals it made.
type Note struct {
	Model  int64
	Fields []string
	Tags   string
	Ords   []int
}

// Package is an .apkg to build.
type Package struct {
	DeckName string
	Notes    []Note
	Media    map[string]string // the media map ("0": "heart.png")
	Files    map[string][]byte // extra zip entries (media files, hostile names)
	// Collection names the collection entry; "" is collection.anki2.
	Collection string
}

const schema = `
CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer,
  usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text,
  flds text, sfld text, csum integer, flags integer, data text);
CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer,
  type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer,
  left integer, odue integer, odid integer, flags integer, data text);
CREATE TABLE revlog (id integer primary key, cid integer, usn integer, ease integer, ivl integer,
  lastIvl integer, factor integer, time integer, type integer);
CREATE TABLE graves (usn integer, oid integer, type integer);`

func models() string {
	type fld struct {
		Name string `json:"name"`
		Ord  int    `json:"ord"`
	}
	type tmpl struct {
		Name string `json:"name"`
		Ord  int    `json:"ord"`
		Qfmt string `json:"qfmt"`
		Afmt string `json:"afmt"`
	}
	type model struct {
		ID    int64  `json:"id"`
		Name  string `json:"name"`
		Type  int    `json:"type"`
		Flds  []fld  `json:"flds"`
		Tmpls []tmpl `json:"tmpls"`
	}
	fb := []fld{{"Front", 0}, {"Back", 1}}
	card1 := tmpl{"Card 1", 0, "{{Front}}", "{{Back}}"}
	m := map[string]model{
		fmt.Sprint(Basic):    {Basic, "Basic", 0, fb, []tmpl{card1}},
		fmt.Sprint(Reversed): {Reversed, "Basic (and reversed card)", 0, fb, []tmpl{card1, {"Card 2", 1, "{{Back}}", "{{Front}}"}}},
		fmt.Sprint(Cloze):    {Cloze, "Cloze", 1, []fld{{"Text", 0}, {"Back Extra", 1}}, []tmpl{{"Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}"}}},
		fmt.Sprint(Custom): {Custom, "Three ways", 0, []fld{{"A", 0}, {"B", 1}, {"C", 2}},
			[]tmpl{{"1", 0, "{{A}}", "{{B}}"}, {"2", 1, "{{B}}", "{{C}}"}, {"3", 2, "{{C}}", "{{A}}"}}},
	}
	data, _ := json.Marshal(m)
	return string(data)
}

// Build writes the package and returns its bytes.
func Build(p Package) ([]byte, error) {
	dir, err := os.MkdirTemp("", "ankifixture")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "collection")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	decks, _ := json.Marshal(map[string]any{"1": map[string]any{"id": 1, "name": "Default"},
		"2": map[string]any{"id": 2, "name": p.DeckName}})
	type stmt struct {
		q    string
		args []any
	}
	stmts := []stmt{{schema, nil}, {`INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')`, []any{models(), string(decks)}}}
	for i, n := range p.Notes {
		nid := int64(1000 + i)
		stmts = append(stmts, stmt{`INSERT INTO notes VALUES (?, ?, ?, 0, 0, ?, ?, ?, 0, 0, '')`,
			[]any{nid, fmt.Sprintf("g%d", i), n.Model, n.Tags, strings.Join(n.Fields, "\x1f"), n.Fields[0]}})
		for _, ord := range n.Ords {
			stmts = append(stmts, stmt{`INSERT INTO cards VALUES (?, ?, 2, ?, 0, 0, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')`,
				[]any{nid*10 + int64(ord), nid, ord, i}})
		}
	}
	for _, s := range stmts {
		if _, err := db.Exec(s.q, s.args...); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	coll, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	name := p.Collection
	if name == "" {
		name = "collection.anki2"
	}
	media := p.Media
	if media == nil {
		media = map[string]string{}
	}
	mediaJSON, _ := json.Marshal(media)
	entries := map[string][]byte{name: coll, "media": mediaJSON}
	for k, v := range p.Files {
		entries[k] = v
	}
	for k, v := range entries {
		w, err := zw.Create(k)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(v); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
