package anki

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// The stock note types a written package uses.
const (
	ModelBasic    int64 = 1001
	ModelReversed int64 = 1002
	ModelCloze    int64 = 1003
	ModelTypeIn   int64 = 1004
)

// DeckID is the deck a written package files its cards in (1 is Anki's
// Default deck).
const DeckID = 2

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

// Model is a note type as the collection stores it (schema 11's JSON;
// schema 18 writes the same into its tables).
type Model struct {
	ID    int64      `json:"id"`
	Name  string     `json:"name"`
	Type  int        `json:"type"` // 1 cloze
	Stock int        `json:"originalStockKind,omitempty"`
	Flds  []Field    `json:"flds"`
	Tmpls []Template `json:"tmpls"`
}

// StockModels are Anki's Basic, Basic (and reversed card), Cloze and
// Basic (type in the answer).
func StockModels() map[string]Model {
	fb := []Field{{"Front", 0}, {"Back", 1}}
	card1 := Template{"Card 1", 0, "{{Front}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}"}
	card2 := Template{"Card 2", 1, "{{Back}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}"}
	typed := Template{"Card 1", 0, "{{Front}}\n\n{{type:Back}}", "{{Front}}\n\n<hr id=answer>\n\n{{type:Back}}"}
	return map[string]Model{
		strconv.FormatInt(ModelBasic, 10):    {ModelBasic, "Basic", 0, 1, fb, []Template{card1}},
		strconv.FormatInt(ModelReversed, 10): {ModelReversed, "Basic (and reversed card)", 0, 2, fb, []Template{card1, card2}},
		strconv.FormatInt(ModelCloze, 10): {ModelCloze, "Cloze", 1, 5, []Field{{"Text", 0}, {"Back Extra", 1}},
			[]Template{{"Cloze", 0, "{{cloze:Text}}", "{{cloze:Text}}<br>\n{{Back Extra}}"}}},
		strconv.FormatInt(ModelTypeIn, 10): {ModelTypeIn, "Basic (type in the answer)", 0, stockTyping, fb, []Template{typed}},
	}
}

// Schema versions a written collection may have.
const (
	Schema11 = schemaLegacy
	Schema18 = schemaLatest
)

// Collection is a collection being written, in one SQLite transaction (a
// statement per row would be a commit per row).
type Collection struct {
	conn   *gorm.DB // the file
	db     *gorm.DB // the transaction on it
	schema int
	did    int64
	crt    time.Time
	ids    *revlogIDs
}

// NewCollection creates a collection of the schema at path with the note
// types and, unless deckName is "", one deck besides Default that the
// cards go to; crt is its creation, the day review due dates count from.
// The caller ends it with Close.
func NewCollection(ctx context.Context, path string, schema int, models map[string]Model, deckName string, crt time.Time) (*Collection, error) {
	// A scratch file zipped once written: no journal, no syncs.
	conn, err := open(path + "?_pragma=journal_mode(off)&_pragma=synchronous(off)")
	if err != nil {
		return nil, err
	}
	c := &Collection{conn: conn, db: conn.WithContext(ctx).Begin(), schema: schema, did: 1, crt: crt,
		ids: &revlogIDs{taken: map[int64]bool{}, next: map[int64]int64{}}}
	decks := map[int64]string{1: "Default"}
	if deckName != "" {
		decks[DeckID], c.did = deckName, DeckID
	}
	if err = c.db.Error; err == nil {
		if schema == Schema18 {
			err = c.tables(models, decks)
		} else {
			err = c.legacy(models, decks)
		}
	}
	if err != nil {
		c.db.Rollback()
		Close(conn)
		return nil, err
	}
	return c, nil
}

// legacy writes schema 11: note types and decks as JSON in the col row.
func (c *Collection) legacy(models map[string]Model, decks map[int64]string) error {
	m, _ := json.Marshal(models)
	ds := map[string]any{}
	for id, name := range decks {
		ds[strconv.FormatInt(id, 10)] = map[string]any{"id": id, "name": name}
	}
	d, _ := json.Marshal(ds)
	if err := c.db.Exec(schema11 + graves11).Error; err != nil {
		return err
	}
	return c.db.Exec(`INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')`,
		c.crt.Unix(), string(m), string(d)).Error
}

// tables writes schema 18: the col row's JSON columns empty, note types,
// their fields and templates, and decks in their tables with the
// protobuf configurations Anki reads (notetypes.proto, decks.proto).
func (c *Collection) tables(models map[string]Model, decks map[int64]string) error {
	if err := c.db.Exec(schema11 + schema18).Error; err != nil {
		return err
	}
	err := c.db.Exec(`INSERT INTO col VALUES (1, ?, 0, 0, 18, 0, 0, 0, '', '', '', '', '')`, c.crt.Unix()).Error
	for _, k := range slices.Sorted(maps.Keys(models)) {
		m := models[k]
		if err == nil {
			err = c.db.Exec(`INSERT INTO notetypes VALUES (?, ?, 0, 0, ?)`, m.ID, m.Name, notetypeConfig(m)).Error
		}
		for _, f := range m.Flds {
			if err == nil {
				err = c.db.Exec(`INSERT INTO fields VALUES (?, ?, ?, ?)`, m.ID, f.Ord, f.Name, fieldConfig()).Error
			}
		}
		for _, t := range m.Tmpls {
			if err == nil {
				err = c.db.Exec(`INSERT INTO templates VALUES (?, ?, ?, 0, 0, ?)`, m.ID, t.Ord, t.Name, templateConfig(t)).Error
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(decks)) {
		if err == nil {
			err = c.db.Exec(`INSERT INTO decks VALUES (?, ?, 0, 0, x'', ?)`, decks[id], id, normalDeckKind()).Error
		}
	}
	return err
}

// AddNote writes a note of a note type with its fields, and a card for
// each ordinal (id nid*1000+ord, in the collection's deck): new, or with
// the schedule whose Ord it is, and that schedule's reviews.
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
				card.ID, nid, c.did, ord, card.Type, card.Queue, card.Due, card.Ivl, card.Factor, card.Reps,
				card.Lapses, card.Left, card.Data).Error
		}
	}
	return err
}

// Exec runs statements on the collection being written (the fixtures'
// tampering with a package made in a test).
func (c *Collection) Exec(sql string) error { return c.db.Exec(sql).Error }

// Close commits what was written, gives a schema-18 collection Anki's
// collation names, and closes the file.
func (c *Collection) Close() error {
	err := c.db.Commit().Error
	if err == nil && c.schema == Schema18 {
		err = c.conn.Exec(unicase).Error
	}
	if cerr := Close(c.conn); err == nil {
		err = cerr
	}
	return err
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

// Write writes the notes as an Anki package in the layout, each card new
// or with its note's schedule for it, that Read, and Anki, read back. A
// note's Image is shown in its first field when ImageOnFront, else at the
// end of its second; images are the files the notes' Images name,
// numbered in the media map in order.
func Write(ctx context.Context, w io.Writer, layout Layout, deckName string, notes []Note, images []MediaFile) error {
	p, err := NewPackage(ctx, layout, deckName, Epoch(notes, time.Now()))
	if err != nil {
		return err
	}
	defer p.Remove()
	for _, n := range notes {
		if err := p.Add(n); err != nil {
			return err
		}
	}
	if err := p.Finish(); err != nil {
		return err
	}
	return p.WriteTo(w, images)
}

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
