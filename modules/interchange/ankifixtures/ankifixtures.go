// Package ankifixtures builds Anki packages (.apkg) for tests: a legacy
// collection (schema 11, what Anki writes with "Support older Anki
// versions") with the stock note types and a three-template one, notes
// with whatever cards a test asks for, and hostile entries.
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

// Note types of the collection.
const (
	Basic          = anki.ModelBasic
	Reversed       = anki.ModelReversed
	Cloze          = anki.ModelCloze
	Custom   int64 = 1004 // three fields, three card templates
)

// Note is one note: its type, fields and the card ordinals it made.
type Note struct {
	Model  int64
	Fields []string
	Ords   []int
}

// Package is an .apkg to build.
type Package struct {
	DeckName string
	Notes    []Note
	Media    map[string]string // the media map ("0": "heart.png")
	Files    map[string][]byte // extra zip entries (media files, hostile names)
}

// Build writes the package and returns its bytes.
func Build(p Package) ([]byte, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "ankifixture")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "collection")
	models := anki.StockModels()
	models[strconv.FormatInt(Custom, 10)] = anki.Model{ID: Custom, Name: "Three ways",
		Flds:  []anki.Field{{Name: "A", Ord: 0}, {Name: "B", Ord: 1}, {Name: "C", Ord: 2}},
		Tmpls: []anki.Template{{Name: "1", Ord: 0}, {Name: "2", Ord: 1}, {Name: "3", Ord: 2}}}
	col, err := anki.NewCollection(ctx, path, models, p.DeckName, time.Now().UTC().Truncate(24*time.Hour))
	if err != nil {
		return nil, err
	}
	for i, n := range p.Notes {
		if err = col.AddNote(int64(1000+i), n.Model, n.Fields, n.Ords, nil); err != nil {
			break
		}
	}
	if cerr := col.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := anki.Zip(&buf, path, p.Media, p.Files); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
