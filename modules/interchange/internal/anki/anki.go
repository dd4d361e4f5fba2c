// Package anki reads and writes Anki packages (.apkg): a zip holding a
// SQLite collection, a media map and numbered media files, in the layout
// its meta entry names (schema 11 with JSON note types, or Anki 2.1.50's
// zstd schema 18 with note types in tables). Every step is bounded:
// entries counted, names checked (no paths), the collection unpacked
// through a byte limit into a temporary file, only real tables read (no
// views or triggers), each row and all rows bounded, queries under a
// deadline. The collection is read through gorm on glebarez/sqlite (pure
// Go, no cgo).
package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

// Card types, flashcards' names; Occlusion is an image card whose picture
// carries the shapes it hides.
const (
	Basic     = "basic"
	Reversed  = "reversed"
	Cloze     = "cloze"
	TypeIn    = "type_in"
	Occlusion = "occlusion"
)

// Limits bound what one package may make the reader hold.
type Limits struct {
	MaxEntries       int   // zip entries (media files included)
	MaxUnpackedBytes int64 // the collection, unpacked
	MaxNotes         int
	MaxReviews       int // revlog rows
	MaxFieldBytes    int
	MaxRowBytes      int64 // one row read from the collection
	MaxReadBytes     int64 // all rows read from the collection
	QueryTimeout     time.Duration

	MaxMediaMapBytes  int64 // the media map, unpacked
	MaxMediaFiles     int   // names in the media map
	MaxMediaFileBytes int64 // one media file, unpacked
	MaxMediaBytes     int64 // the notes' media files together, unpacked
}

// Note is one card as flashcards can hold it (a note of a type with
// several card templates may give several), with the schedules of its
// rows (a row with none is new).
type Note struct {
	Item      int // the note's 1-based position in the collection
	Type      string
	Front     string
	Back      string
	Schedules []Schedule
	// Image is the media file name of the card's one picture ("" none);
	// ImageOnFront that its question side shows it. Shapes are the
	// areas an occlusion card hides, in the picture's pixels.
	Image        string
	ImageOnFront bool
	Shapes       []Shape
}

// Shape is an area of a picture an occlusion card hides: a rect or an
// ellipse by its box, a polygon by its points (pixels), and its label.
type Shape struct {
	Kind       string
	X, Y, W, H float64
	Points     [][2]float64
	Label      string
}

// Mapping tells how the notes of one note type were taken: as which card
// type and why, and how many.
type Mapping struct {
	NoteType string
	As       string
	How      string
	Notes    int
}

// Result is what the reader found: the deck's name, the cards it can
// import, how each note type was mapped, each note refused with the
// reason (Item is the note's 1-based position in the collection), and the
// pictures of the cards, by name.
type Result struct {
	DeckName string
	Layout   Layout
	Notes    []Note
	Mapped   []Mapping
	Refused  []format.Refusal
	Media    map[string][]byte
}

// ErrHostile is a package that tries to reach outside itself (a path in an
// entry name or the media map) or to run its own SQL (a view, a trigger).
type ErrHostile struct{ Reason string }

func (e ErrHostile) Error() string { return e.Reason }

// ErrTooLarge is a package over the limits (a zip bomb, too many entries
// or notes).
type ErrTooLarge struct{ Reason string }

func (e ErrTooLarge) Error() string { return e.Reason }

// ErrMalformed is a file that is not an Anki package we can read.
type ErrMalformed struct{ Reason string }

func (e ErrMalformed) Error() string { return e.Reason }

// Read reads a package held in memory (the request body, already
// bounded): the layout from its meta entry, then that layout's collection
// and media map only (never the decoy collection.anki2 of the latest one).
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
	layout, err := layoutOf(entries)
	if err != nil {
		return nil, err
	}
	coll := entries[layout.collectionName()]
	if coll == nil {
		return nil, ErrMalformed{fmt.Sprintf("not an Anki package: no %s inside", layout.collectionName())}
	}
	md, err := readMediaMap(entries["media"], layout, entries, lim)
	if err != nil {
		return nil, err
	}
	path, err := unpack(coll, layout, lim.MaxUnpackedBytes)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path)
	ctx, cancel := context.WithTimeout(ctx, lim.QueryTimeout)
	defer cancel()
	res, err := readCollection(ctx, path, md, lim)
	if res != nil {
		res.Layout = layout
	}
	return res, err
}

// plainName admits "collection.anki2", "media", "0", "17": no separators,
// no dot-dot, nothing hidden.
func plainName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\:`+"\x00") && !strings.HasPrefix(name, ".")
}

// unpack copies the collection to a temporary file, refusing it once it
// passes max bytes whatever its header claims (a zip bomb).
func unpack(f *zip.File, l Layout, max int64) (string, error) {
	rc, err := openEntry(f, l, max, "the collection")
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
	switch large := (ErrTooLarge{}); {
	case errors.As(err, &large):
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
