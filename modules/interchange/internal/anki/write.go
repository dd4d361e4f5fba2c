package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

// The stock note types a written package uses.
const (
	ModelBasic    int64 = 1001
	ModelReversed int64 = 1002
	ModelCloze    int64 = 1003
)

// DeckID is the deck a written package files its cards in (1 is Anki's
// Default deck).
const DeckID = 2

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

// Field and Template are parts of a note type.
type Field struct {
	Name string `json:"name"`
	Ord  int    `json:"ord"`
}

// Template is one card a note type makes.
type Template struct {
	Name string `json:"name"`
	Ord  int    `json:"ord"`
	Qfmt string `json:"qfmt"`
	Afmt string `json:"afmt"`
}

// Model is a note type as the collection stores it.
type Model struct {
	ID    int64      `json:"id"`
	Name  string     `json:"name"`
	Type  int        `json:"type"` // 1 cloze
	Flds  []Field    `json:"flds"`
	Tmpls []Template `json:"tmpls"`
}

// StockModels are Anki's Basic, Basic (and reversed card) and Cloze.
func StockModels() map[string]Model {
	fb := []Field{{"Front", 0}, {"Back", 1}}
	card1 := Template{"Card 1", 0, "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}"}
	card2 := Template{"Card 2", 1, "{{Back}}", "{{FrontSide}}<hr id=answer>{{Front}}"}
	return map[string]Model{
		strconv.FormatInt(ModelBasic, 10):    {ModelBasic, "Basic", 0, fb, []Template{card1}},
		strconv.FormatInt(ModelReversed, 10): {ModelReversed, "Basic (and reversed card)", 0, fb, []Template{card1, card2}},
		strconv.FormatInt(ModelCloze, 10): {ModelCloze, "Cloze", 1, []Field{{"Text", 0}, {"Back Extra", 1}},
			[]Template{{"Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}<br>{{Back Extra}}"}}},
	}
}

// Collection is a schema-11 collection being written, in one SQLite
// transaction (a statement per row would be a commit per row).
type Collection struct {
	conn *gorm.DB // the file
	db   *gorm.DB // the transaction on it
	crt  time.Time
	ids  *revlogIDs
}

// NewCollection creates a collection at path with the note types and one
// deck besides Default; crt is its creation, the day review due dates
// count from. The caller ends it with Close.
func NewCollection(ctx context.Context, path string, models map[string]Model, deckName string, crt time.Time) (*Collection, error) {
	// A scratch file zipped once written: no journal, no syncs.
	conn, err := open(path + "?_pragma=journal_mode(off)&_pragma=synchronous(off)")
	if err != nil {
		return nil, err
	}
	tx := conn.WithContext(ctx).Begin()
	m, _ := json.Marshal(models)
	d, _ := json.Marshal(map[string]any{"1": map[string]any{"id": 1, "name": "Default"},
		strconv.Itoa(DeckID): map[string]any{"id": DeckID, "name": deckName}})
	if err = tx.Error; err == nil {
		err = tx.Exec(schema).Error
	}
	if err == nil {
		err = tx.Exec(`INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')`,
			crt.Unix(), string(m), string(d)).Error
	}
	if err != nil {
		Close(conn)
		return nil, err
	}
	return &Collection{conn: conn, db: tx, crt: crt, ids: &revlogIDs{taken: map[int64]bool{}, next: map[int64]int64{}}}, nil
}

// AddNote writes a note of a note type with its fields, and a card for
// each ordinal (id nid*1000+ord, in DeckID): new, or with the schedule
// whose Ord it is, and that schedule's reviews.
func (c *Collection) AddNote(nid, mid int64, fields []string, ords []int, scheds []Schedule) error {
	err := c.db.Exec(`INSERT INTO notes VALUES (?, ?, ?, 0, 0, '', ?, ?, 0, 0, '')`,
		nid, fmt.Sprintf("rounds-%d", nid), mid, strings.Join(fields, "\x1f"), fields[0]).Error
	for _, ord := range ords {
		if err != nil {
			return err
		}
		card := cardRow{ID: nid*1000 + int64(ord), Nid: nid, Ord: ord, Due: nid}
		for i := range scheds {
			if scheds[i].Ord == ord {
				encodeCard(&card, &scheds[i], c.crt)
				err = insertRevlog(c.db, card.ID, &scheds[i], c.ids)
			}
		}
		if err == nil {
			err = c.db.Exec(`INSERT INTO cards VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)`,
				card.ID, nid, DeckID, ord, card.Type, card.Queue, card.Due, card.Ivl, card.Factor, card.Reps,
				card.Lapses, card.Left, card.Data).Error
		}
	}
	return err
}

// Close commits what was written and closes the file.
func (c *Collection) Close() error {
	err := c.db.Commit().Error
	if cerr := Close(c.conn); err == nil {
		err = cerr
	}
	return err
}

// Zip writes the package: the collection as collection.anki2, the media
// map, and any other entries.
func Zip(w io.Writer, collection string, media map[string]string, files map[string][]byte) error {
	var entries []MediaFile
	for _, k := range slices.Sorted(maps.Keys(files)) {
		entries = append(entries, MediaFile{Name: k, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(files[k])), nil
		}})
	}
	return zipPackage(w, collection, media, entries)
}

// MediaFile is a file written into a package, opened when its turn comes
// so that no two are held at once.
type MediaFile = format.File

// zipPackage writes the collection, the media map and the entries (named
// as given: the map's numbers for media files).
func zipPackage(w io.Writer, collection string, media map[string]string, entries []MediaFile) error {
	if media == nil {
		media = map[string]string{}
	}
	mediaJSON, _ := json.Marshal(media)
	zw := zip.NewWriter(w)
	coll, err := os.Open(collection)
	if err != nil {
		return err
	}
	defer coll.Close()
	var files []MediaFile
	for _, f := range []MediaFile{
		{Name: "collection.anki2", Open: func() (io.ReadCloser, error) { return io.NopCloser(coll), nil }},
		{Name: "media", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(mediaJSON)), nil }},
	} {
		// An entry of the same name replaces it (the fixtures' malformed maps).
		if !slices.ContainsFunc(entries, func(e MediaFile) bool { return e.Name == f.Name }) {
			files = append(files, f)
		}
	}
	for _, f := range append(files, entries...) {
		if err := f.CopyInto(zw); err != nil {
			return fmt.Errorf("anki: writing %s: %w", f.Name, err)
		}
	}
	return zw.Close()
}

var clozeNumber = regexp.MustCompile(`\{\{c(\d+)::`)

// ords are the cards a note makes: one, both directions, or one per cloze
// number (ordinal number-1).
func ords(n Note) []int {
	switch n.Type {
	case Reversed:
		return []int{0, 1}
	case Cloze:
		var out []int
		for _, m := range clozeNumber.FindAllStringSubmatch(n.Front, -1) {
			if k, err := strconv.Atoi(m[1]); err == nil && k > 0 && !slices.Contains(out, k-1) {
				out = append(out, k-1)
			}
		}
		slices.Sort(out)
		return out
	}
	return []int{0}
}

// Write writes the notes as an Anki package, each card new or with its
// note's schedule for it, that Read, and Anki, read back. A note's Image
// is shown in its first field when ImageOnFront, else at the end of its
// second; images are the files the notes' Images name, numbered in the
// media map in order.
func Write(ctx context.Context, w io.Writer, deckName string, notes []Note, images []MediaFile) error {
	p, err := Build(ctx, deckName, notes, images)
	if err != nil {
		return err
	}
	defer p.Close()
	return p.Write(w)
}

// Package is a package whose collection is written (in a temporary file)
// and whose media are yet to be read: Write streams it as the .apkg, so
// that nothing but one file's copy buffer is held, however large the
// package; Close removes the collection.
type Package struct {
	dir, collection string
	media           map[string]string
	entries         []MediaFile
}

// Build writes the notes' collection (see Write); every failure of the
// notes themselves comes here, before a byte of the package is sent.
func Build(ctx context.Context, deckName string, notes []Note, images []MediaFile) (*Package, error) {
	dir, err := os.MkdirTemp("", "rounds-apkg-out-*")
	if err != nil {
		return nil, err
	}
	p := &Package{dir: dir, collection: filepath.Join(dir, "collection.anki2"),
		media: make(map[string]string, len(images)), entries: make([]MediaFile, len(images))}
	col, err := NewCollection(ctx, p.collection, StockModels(), deckName, epoch(notes, time.Now()))
	if err != nil {
		_ = p.Close()
		return nil, err
	}
	mids := map[string]int64{Basic: ModelBasic, Reversed: ModelReversed, Cloze: ModelCloze}
	for i, n := range notes {
		if err = col.AddNote(int64(i+1), mids[n.Type], noteFields(n), ords(n), n.Schedules); err != nil {
			break
		}
	}
	if cerr := col.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = p.Close()
		return nil, err
	}
	for i, img := range images {
		k := strconv.Itoa(i)
		p.media[k] = img.Name
		p.entries[i] = MediaFile{Name: k, Open: img.Open}
	}
	return p, nil
}

// Write writes the package to w, each media file opened in its turn.
func (p *Package) Write(w io.Writer) error {
	return zipPackage(w, p.collection, p.media, p.entries)
}

// Close removes the package's collection.
func (p *Package) Close() error { return os.RemoveAll(p.dir) }

// noteFields are a note's two fields with its picture in place.
func noteFields(n Note) []string {
	front, back := n.Front, n.Back
	if n.Image != "" {
		img := `<img src="` + html.EscapeString(n.Image) + `">`
		if n.ImageOnFront {
			front = joinHTML(img, front)
		} else {
			back = joinHTML(back, img)
		}
	}
	return []string{front, back}
}

func joinHTML(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "<br>" + b
}
