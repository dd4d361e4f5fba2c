// Package anki reads Anki packages (.apkg): a zip holding a SQLite
// collection, a media map and numbered media files. Every step is bounded:
// entries counted, names checked (no paths), the collection unpacked
// through a byte limit into a temporary file, queries under a deadline and
// a row limit. The collection is read through gorm on glebarez/sqlite
// (pure Go, no cgo).
package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

// Card types, flashcards' names.
const (
	Basic    = "basic"
	Reversed = "reversed"
	Cloze    = "cloze"
)

// Limits bound what one package may make the reader hold.
type Limits struct {
	MaxEntries       int   // zip entries (media files included)
	MaxUnpackedBytes int64 // the collection, unpacked
	MaxNotes         int
	MaxReviews       int // revlog rows
	MaxFieldBytes    int
	QueryTimeout     time.Duration

	MaxMediaMapBytes  int64 // the media map's JSON
	MaxMediaFiles     int   // names in the media map
	MaxMediaFileBytes int64 // one media file, unpacked
	MaxMediaBytes     int64 // the notes' media files together, unpacked
}

// Note is one note as flashcards can hold it, with the schedules of its
// cards (a card with none is new).
type Note struct {
	Item      int // 1-based position in the collection
	Type      string
	Front     string
	Back      string
	Schedules []Schedule
	// Image is the media file name of the note's one picture ("" none);
	// ImageOnFront that the first field shows it.
	Image        string
	ImageOnFront bool
}

// Result is what the reader found: the deck's name, the notes it can
// import and each note refused with the reason (Item is the note's 1-based
// position in the collection), and the pictures of the notes, by name.
type Result struct {
	DeckName string
	Notes    []Note
	Refused  []format.Refusal
	Media    map[string][]byte
}

// ErrHostile is a package that tries to reach outside itself (a path in an
// entry name or the media map).
type ErrHostile struct{ Reason string }

func (e ErrHostile) Error() string { return e.Reason }

// ErrTooLarge is a package over the limits (a zip bomb, too many entries
// or notes).
type ErrTooLarge struct{ Reason string }

func (e ErrTooLarge) Error() string { return e.Reason }

// ErrMalformed is a file that is not an Anki package we can read.
type ErrMalformed struct{ Reason string }

func (e ErrMalformed) Error() string { return e.Reason }

// Read reads a package held in memory (the request body, already bounded).
func Read(ctx context.Context, data []byte, lim Limits) (*Result, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, ErrMalformed{"not an Anki package: the file is not a zip archive"}
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, ErrTooLarge{fmt.Sprintf("the package has more than %d entries", lim.MaxEntries)}
	}
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		if !plainName(f.Name) {
			return nil, ErrHostile{fmt.Sprintf("the package has an entry named %q: entries must be plain file names", f.Name)}
		}
		entries[f.Name] = f
	}
	md, err := readMediaMap(entries["media"], entries, lim)
	if err != nil {
		return nil, err
	}
	coll := entries["collection.anki21"]
	if coll == nil {
		coll = entries["collection.anki2"]
	}
	if coll == nil {
		if entries["collection.anki21b"] != nil {
			return nil, ErrMalformed{"the package uses Anki's newest collection format only; export it again with \"Support older Anki versions\" ticked"}
		}
		return nil, ErrMalformed{"not an Anki package: no collection.anki2 inside"}
	}
	path, err := unpack(coll, lim.MaxUnpackedBytes)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path)
	ctx, cancel := context.WithTimeout(ctx, lim.QueryTimeout)
	defer cancel()
	return readCollection(ctx, path, md, lim)
}

// plainName admits "collection.anki2", "media", "0", "17": no separators,
// no dot-dot, nothing hidden.
func plainName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\:`+"\x00") && !strings.HasPrefix(name, ".")
}

// unpack copies the collection to a temporary file, refusing it once it
// passes max bytes whatever its header claims (a zip bomb).
func unpack(f *zip.File, max int64) (string, error) {
	rc, err := f.Open()
	if err != nil {
		return "", ErrMalformed{fmt.Sprintf("the collection cannot be unpacked: %v", err)}
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "rounds-apkg-*.sqlite")
	if err != nil {
		return "", err
	}
	n, err := io.Copy(tmp, io.LimitReader(rc, max+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil: // a corrupt stream, a bad checksum
		err = ErrMalformed{fmt.Sprintf("the collection cannot be unpacked: %v", err)}
	case n > max:
		err = ErrTooLarge{fmt.Sprintf("the collection unpacks to more than %d bytes", max)}
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

type model struct {
	Name string `json:"name"`
	Type int    `json:"type"`
	Flds []struct {
		Name string `json:"name"`
	} `json:"flds"`
	Tmpls []struct {
		Name string `json:"name"`
	} `json:"tmpls"`
}

type deck struct {
	Name string `json:"name"`
}

func readCollection(ctx context.Context, path string, md *mediaSet, lim Limits) (*Result, error) {
	if err := sqliteHeader(path); err != nil {
		return nil, err
	}
	conn, err := open("file:" + path + "?mode=ro&immutable=1")
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("the collection cannot be opened: %v", err)}
	}
	defer Close(conn)
	db := conn.WithContext(ctx)
	bad := func(err error) error {
		if ctx.Err() != nil {
			return ErrTooLarge{"the collection took too long to read"}
		}
		return ErrMalformed{fmt.Sprintf("the collection cannot be read: %v", err)}
	}
	var col struct {
		Crt           int64
		Models, Decks string
	}
	if err := db.Raw(`SELECT crt, models, decks FROM col LIMIT 1`).Scan(&col).Error; err != nil {
		return nil, bad(err)
	}
	var models map[string]model
	var decks map[string]deck
	if json.Unmarshal([]byte(col.Models), &models) != nil || json.Unmarshal([]byte(col.Decks), &decks) != nil {
		return nil, ErrMalformed{"the collection's note types or decks cannot be read"}
	}
	out := &Result{Media: map[string][]byte{}}
	var dids []int64
	if err := db.Raw(`SELECT did FROM cards GROUP BY did ORDER BY count(*) DESC LIMIT 1`).Scan(&dids).Error; err == nil && len(dids) == 1 {
		out.DeckName = decks[strconv.FormatInt(dids[0], 10)].Name
	}
	cards, err := readCards(db, lim)
	if err != nil {
		return nil, bad(err)
	}
	revs, err := readRevlog(db, lim)
	if _, large := err.(ErrTooLarge); err != nil && !large {
		err = bad(err)
	}
	if err != nil {
		return nil, err
	}
	rows, err := db.Raw(`SELECT id, mid, flds FROM notes ORDER BY id LIMIT ?`, lim.MaxNotes+1).Rows()
	if err != nil {
		return nil, bad(err)
	}
	defer rows.Close()
	item := 0
	for rows.Next() {
		item++
		if item > lim.MaxNotes {
			return nil, ErrTooLarge{fmt.Sprintf("the package holds more than %d notes", lim.MaxNotes)}
		}
		var id, mid int64
		var flds string
		if err := rows.Scan(&id, &mid, &flds); err != nil {
			return nil, bad(err)
		}
		m, ok := models[strconv.FormatInt(mid, 10)]
		ords := map[int]bool{}
		for _, c := range cards[id] {
			ords[c.Ord] = true
		}
		fields := strings.Split(flds, "\x1f")
		n, why := toNote(m, ok, fields, ords, lim)
		if why == "" {
			if n.Image, n.ImageOnFront, why, err = md.noteImage(fields); err != nil {
				return nil, err
			}
		}
		if why != "" {
			out.Refused = append(out.Refused, format.Refusal{Item: item, Name: m.Name, Reason: why})
			continue
		}
		n.Item = item
		if n.Image != "" {
			out.Media[n.Image] = md.read[n.Image]
		}
		for i := range cards[id] {
			c := &cards[id][i]
			if sc := decodeCard(c, revs[c.ID], time.Unix(col.Crt, 0).UTC()); sc != nil {
				n.Schedules = append(n.Schedules, *sc)
			}
		}
		out.Notes = append(out.Notes, n)
	}
	if err := rows.Err(); err != nil {
		return nil, bad(err)
	}
	return out, nil
}

// sqliteHeader refuses a collection that is not a SQLite database before
// the driver sees it.
func sqliteHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 16)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "SQLite format 3\x00" {
		return ErrMalformed{"the collection is not a SQLite database"}
	}
	return nil
}

// readCards reads the cards, per note: the card templates each note made
// (ordinal 0 front→back, 1 back→front, n-1 cloze deletion n) and their
// scheduling.
func readCards(db *gorm.DB, lim Limits) (map[int64][]cardRow, error) {
	rows, err := db.Raw(`SELECT id, nid, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, odid,
		coalesce(data, '') AS data FROM cards ORDER BY nid, ord LIMIT ?`, lim.MaxNotes*4+1).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]cardRow{}
	for rows.Next() {
		var c cardRow
		if err := db.ScanRows(rows, &c); err != nil {
			return nil, err
		}
		out[c.Nid] = append(out[c.Nid], c)
	}
	return out, rows.Err()
}

// readRevlog reads the review log, per card, oldest first; more than
// MaxReviews rows is ErrTooLarge.
func readRevlog(db *gorm.DB, lim Limits) (map[int64][]revlogRow, error) {
	var revs []revlogRow
	err := db.Raw(`SELECT id, cid, ease, ivl, lastIvl AS last_ivl, factor, time, type FROM revlog
		ORDER BY cid, id LIMIT ?`, lim.MaxReviews+1).Scan(&revs).Error
	if err != nil {
		return nil, err
	}
	if len(revs) > lim.MaxReviews {
		return nil, ErrTooLarge{fmt.Sprintf("the package holds more than %d reviews", lim.MaxReviews)}
	}
	out := map[int64][]revlogRow{}
	for _, r := range revs {
		out[r.Cid] = append(out[r.Cid], r)
	}
	return out, nil
}

// toNote maps a note by its type: cloze types to a cloze card (text and
// extra), two-field types with one card to basic, with both directions to
// reversed. HTML becomes plain text (the note's picture is read apart;
// sounds are not kept).
func toNote(m model, known bool, fields []string, ords map[int]bool, lim Limits) (Note, string) {
	if !known {
		return Note{}, "its note type is missing from the collection"
	}
	for _, f := range fields {
		if len(f) > lim.MaxFieldBytes {
			return Note{}, fmt.Sprintf("a field is longer than %d bytes", lim.MaxFieldBytes)
		}
	}
	text := func(i int) string {
		if i < len(fields) {
			return format.PlainText(fields[i])
		}
		return ""
	}
	if m.Type == 1 {
		return Note{Type: Cloze, Front: text(0), Back: text(1)}, ""
	}
	if len(fields) < 2 || len(m.Tmpls) > 2 {
		return Note{}, fmt.Sprintf("note type %q has %d fields and %d card templates; front/back types with one or both directions are imported",
			m.Name, len(fields), len(m.Tmpls))
	}
	switch {
	case len(ords) == 0:
		return Note{}, "the note has no cards"
	case len(ords) == 1 && ords[0]:
		return Note{Type: Basic, Front: text(0), Back: text(1)}, ""
	case len(ords) == 2 && ords[0] && ords[1]:
		return Note{Type: Reversed, Front: text(0), Back: text(1)}, ""
	}
	return Note{}, "only the back-to-front card of the note exists; import it as basic by hand"
}
