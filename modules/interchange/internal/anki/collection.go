package anki

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

// Schema versions (col.ver): 11 keeps note types and decks as JSON in the
// col row; from 15 they have tables of their own; Anki opens up to 18.
const (
	schemaLegacy = 11
	schemaTables = 15
	schemaLatest = 18
)

// reader reads one collection file: every row through the budget, every
// integer column cast so a text or blob stored in it is never copied out.
type reader struct {
	db  *gorm.DB
	ctx context.Context
	lim Limits
	b   budget
}

func (r *reader) bad(err error) error {
	if r.ctx.Err() != nil {
		return ErrTooLarge{"the collection took too long to read"}
	}
	switch err.(type) {
	case ErrTooLarge, ErrMalformed, ErrHostile:
		return err
	}
	return ErrMalformed{fmt.Sprintf("the collection cannot be read: %v", err)}
}

func readCollection(ctx context.Context, path string, md *mediaSet, lim Limits) (*Result, error) {
	if err := sqliteHeader(path); err != nil {
		return nil, err
	}
	// Views, triggers and the like are refused before anything is read.
	if err := inspect(ctx, path); err != nil {
		return nil, err
	}
	conn, err := openReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer Close(conn)
	r := &reader{db: conn.WithContext(ctx), ctx: ctx, lim: lim, b: budget{row: lim.MaxRowBytes, left: lim.MaxReadBytes}}
	var col struct {
		Crt, Ver, Size int64
		Models, Decks  string
	}
	err = r.db.Raw(`SELECT CAST(crt AS INTEGER) AS crt, CAST(ver AS INTEGER) AS ver,
		length(CAST(models AS BLOB)) + length(CAST(decks AS BLOB)) AS size,
		CASE WHEN length(CAST(models AS BLOB)) + length(CAST(decks AS BLOB)) <= ? THEN models END AS models,
		CASE WHEN length(CAST(models AS BLOB)) + length(CAST(decks AS BLOB)) <= ? THEN decks END AS decks
		FROM col LIMIT 1`, lim.MaxRowBytes, lim.MaxRowBytes).Scan(&col).Error
	if err != nil {
		return nil, r.bad(err)
	}
	if err := r.b.take(col.Size, "the collection's note types and decks"); err != nil {
		return nil, err
	}
	if col.Ver < schemaLegacy || col.Ver > schemaLatest {
		return nil, ErrMalformed{fmt.Sprintf("the collection's schema version is %d; Anki's are %d to %d", col.Ver, schemaLegacy, schemaLatest)}
	}
	var types map[int64]*noteType
	var decks map[int64]string
	if col.Ver >= schemaTables {
		types, err = r.noteTypes()
		if err == nil {
			decks, err = r.decks()
		}
	} else {
		types, decks, err = legacyTypes(col.Models, col.Decks)
	}
	if err != nil {
		return nil, r.bad(err)
	}
	out := &Result{Media: map[string][]byte{}}
	var dids []int64
	if err := r.db.Raw(`SELECT CAST(did AS INTEGER) FROM cards GROUP BY did ORDER BY count(*) DESC LIMIT 1`).Scan(&dids).Error; err == nil && len(dids) == 1 {
		out.DeckName = decks[dids[0]]
	}
	cards, err := r.cards()
	if err != nil {
		return nil, r.bad(err)
	}
	revs, err := r.revlog()
	if err != nil {
		return nil, r.bad(err)
	}
	crt := time.Unix(col.Crt, 0).UTC()
	mapped := &mappings{}
	err = r.notes(func(item int, id, mid int64, flds string) error {
		nt := types[mid]
		name := ""
		if nt != nil {
			name = nt.Name
		}
		fields := strings.Split(flds, "\x1f")
		for i := range cards[id] {
			c := &cards[id][i]
			c.sched = decodeCard(c, revs[c.ID], crt)
		}
		notes, how, why := nt.toCards(fields, cards[id], r.lim)
		if why == "" {
			why, err = md.attach(notes)
			if err != nil {
				return err
			}
		}
		if why != "" {
			out.Refused = append(out.Refused, format.Refusal{Item: item, Name: name, Reason: why})
			return nil
		}
		mapped.add(name, notes[0].Type, how)
		for i := range notes {
			notes[i].Item = item
			if notes[i].Image != "" {
				out.Media[notes[i].Image] = md.read[notes[i].Image]
			}
		}
		out.Notes = append(out.Notes, notes...)
		return nil
	})
	if err != nil {
		return nil, r.bad(err)
	}
	out.Mapped = mapped.list
	return out, nil
}

// openReadOnly opens a collection read-only and immutable (no journal,
// no locks), with an untrusted schema (functions in it may not have side
// effects) and queries only.
func openReadOnly(path string) (*gorm.DB, error) {
	conn, err := open("file:" + path + "?mode=ro&immutable=1&_pragma=query_only(1)&_pragma=trusted_schema(0)")
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("the collection cannot be opened: %v", err)}
	}
	return conn, nil
}

// inspect checks the collection's schema (checkSchema: every table the
// reader may read is a real one) and renames Anki's collation in the
// reader's copy (renameUnicase).
func inspect(ctx context.Context, path string) error {
	conn, err := openReadOnly(path)
	if err != nil {
		return err
	}
	err = checkSchema(conn.WithContext(ctx), "col", "notes", "cards", "revlog")
	if err == nil {
		err = checkSchema(conn.WithContext(ctx), "notetypes", "fields", "templates", "decks")
		if _, missing := err.(ErrMalformed); missing {
			err = nil // schema 11 has no such tables
		}
	}
	Close(conn)
	if err != nil {
		return err
	}
	return renameUnicase(path)
}

// notes calls fn with each note, refusing a collection of more than
// MaxNotes and a note whose fields pass the row bound.
func (r *reader) notes(fn func(item int, id, mid int64, flds string) error) error {
	rows, err := r.db.Raw(`SELECT CAST(id AS INTEGER), CAST(mid AS INTEGER), length(CAST(flds AS BLOB)),
		CASE WHEN length(CAST(flds AS BLOB)) <= ? THEN flds END FROM notes ORDER BY id LIMIT ?`,
		r.lim.MaxRowBytes, r.lim.MaxNotes+1).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	item := 0
	for rows.Next() {
		if item++; item > r.lim.MaxNotes {
			return ErrTooLarge{fmt.Sprintf("the package holds more than %d notes", r.lim.MaxNotes)}
		}
		var id, mid, size int64
		var flds *string
		if err := rows.Scan(&id, &mid, &size, &flds); err != nil {
			return err
		}
		if err := r.b.take(size, fmt.Sprintf("note %d", item)); err != nil {
			return err
		}
		if flds == nil {
			flds = new(string)
		}
		if err := fn(item, id, mid, *flds); err != nil {
			return err
		}
	}
	return rows.Err()
}

// cards reads the cards, per note: the card templates each note made
// (ordinal 0 the first template, n-1 cloze deletion n) and their
// scheduling.
func (r *reader) cards() (map[int64][]cardRow, error) {
	rows, err := r.db.Raw(`SELECT CAST(id AS INTEGER) AS id, CAST(nid AS INTEGER) AS nid, CAST(ord AS INTEGER) AS ord,
		CAST(type AS INTEGER) AS type, CAST(queue AS INTEGER) AS queue, CAST(due AS INTEGER) AS due,
		CAST(ivl AS INTEGER) AS ivl, CAST(factor AS INTEGER) AS factor, CAST(reps AS INTEGER) AS reps,
		CAST(lapses AS INTEGER) AS lapses, CAST(left AS INTEGER) AS left, CAST(odue AS INTEGER) AS odue,
		CAST(odid AS INTEGER) AS odid, length(CAST(data AS BLOB)) AS size,
		CASE WHEN length(CAST(data AS BLOB)) <= 1024 THEN coalesce(data, '') ELSE '' END AS data
		FROM cards ORDER BY nid, ord LIMIT ?`, r.lim.MaxNotes*4+1).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]cardRow{}
	n := 0
	for rows.Next() {
		var c cardRow
		if err := r.db.ScanRows(rows, &c); err != nil {
			return nil, err
		}
		if n++; n > r.lim.MaxNotes*4 {
			return nil, ErrTooLarge{fmt.Sprintf("the package holds more than %d cards", r.lim.MaxNotes*4)}
		}
		if err := r.b.take(c.Size, fmt.Sprintf("card %d", c.ID)); err != nil {
			return nil, err
		}
		out[c.Nid] = append(out[c.Nid], c)
	}
	return out, rows.Err()
}

// revlog reads the review log, per card, oldest first; more than
// MaxReviews rows is ErrTooLarge.
func (r *reader) revlog() (map[int64][]revlogRow, error) {
	var revs []revlogRow
	err := r.db.Raw(`SELECT CAST(id AS INTEGER) AS id, CAST(cid AS INTEGER) AS cid, CAST(ease AS INTEGER) AS ease,
		CAST(ivl AS INTEGER) AS ivl, CAST(lastIvl AS INTEGER) AS last_ivl, CAST(factor AS INTEGER) AS factor,
		CAST(time AS INTEGER) AS time, CAST(type AS INTEGER) AS type FROM revlog
		ORDER BY cid, id LIMIT ?`, r.lim.MaxReviews+1).Scan(&revs).Error
	if err != nil {
		return nil, err
	}
	if len(revs) > r.lim.MaxReviews {
		return nil, ErrTooLarge{fmt.Sprintf("the package holds more than %d reviews", r.lim.MaxReviews)}
	}
	if err := r.b.take(int64(len(revs))*64, "the review log"); err != nil {
		return nil, err
	}
	out := map[int64][]revlogRow{}
	for _, rv := range revs {
		out[rv.Cid] = append(out[rv.Cid], rv)
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

// mappings counts how the notes of each note type were taken, in the
// order first seen.
type mappings struct{ list []Mapping }

func (m *mappings) add(noteType, as, how string) {
	for i := range m.list {
		if e := &m.list[i]; e.NoteType == noteType && e.As == as && e.How == how {
			e.Notes++
			return
		}
	}
	m.list = append(m.list, Mapping{NoteType: noteType, As: as, How: how, Notes: 1})
}
