package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

// decoyText is the one note of the decoy collection.anki2 that Anki
// writes beside a newer collection: what an Anki too old to read the
// package shows (Anki's exporting-colpkg-too-new string).
const decoyText = "Please update to the latest Anki version, then import the .colpkg/.apkg file again."

// Package is a package being written: its collection first, row by row
// into a file on disk, then the zip, streamed, with the media read one
// file at a time. Memory stays bounded whatever the deck's size.
type Package struct {
	dir    string
	layout Layout
	col    *Collection
	nid    int64
	mids   map[string]int64
}

// NewPackage starts a package of the stock note types in the layout
// (schema 18 for Latest, 11 otherwise) with one deck; crt is the
// collection's creation, on or before every time its cards hold.
// Remove ends it.
func NewPackage(ctx context.Context, layout Layout, deckName string, crt time.Time) (*Package, error) {
	return NewPackageOf(ctx, layout, StockModels(), deckName, crt)
}

// NewPackageOf starts a package of the given note types.
func NewPackageOf(ctx context.Context, layout Layout, models map[string]Model, deckName string, crt time.Time) (*Package, error) {
	dir, err := os.MkdirTemp("", "rounds-apkg-out-*")
	if err != nil {
		return nil, err
	}
	schema := Schema11
	if layout == Latest {
		schema = Schema18
	}
	col, err := NewCollection(ctx, filepath.Join(dir, "collection"), schema, models, deckName, crt)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Package{dir: dir, layout: layout, col: col,
		mids: map[string]int64{Basic: ModelBasic, Reversed: ModelReversed, Cloze: ModelCloze, TypeIn: ModelTypeIn}}, nil
}

// Collection is the collection being written (the fixtures write notes
// of any type into it).
func (p *Package) Collection() *Collection { return p.col }

// Add writes a note of a stock type and its cards.
func (p *Package) Add(n Note) error {
	mid, ok := p.mids[n.Type]
	if !ok {
		return fmt.Errorf("anki: no stock note type for %s cards", n.Type)
	}
	p.nid++
	return p.col.AddNote(p.nid, mid, noteFields(n), ords(n), n.Schedules)
}

// Finish commits the collection; WriteTo then zips it.
func (p *Package) Finish() error { return p.col.Close() }

// Remove deletes the package's files.
func (p *Package) Remove() { os.RemoveAll(p.dir) }

// WriteTo writes the package: the collection, the images numbered in the
// media map in order.
func (p *Package) WriteTo(w io.Writer, images []MediaFile) error {
	media := make([]mediaEntry, len(images))
	for i, img := range images {
		media[i] = mediaEntry{key: strconv.Itoa(i), name: img.Name, open: img.Open}
	}
	return zipPackage(w, p.layout, p.dir, filepath.Join(p.dir, "collection"), media, nil)
}

// Zip writes a collection written at path as a package of the layout,
// with the media map given and the entries in files: those the map names
// as media files, any others as they are, replacing an entry of the same
// name (the fixtures' hostile entries).
func Zip(w io.Writer, layout Layout, path string, media map[string]string, files map[string][]byte) error {
	dir, err := os.MkdirTemp("", "rounds-apkg-zip-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var entries []mediaEntry
	for _, k := range slices.Sorted(maps.Keys(media)) {
		e := mediaEntry{key: k, name: media[k]}
		if data, ok := files[k]; ok {
			e.open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		}
		entries = append(entries, e)
	}
	var raw []MediaFile
	for _, k := range slices.Sorted(maps.Keys(files)) {
		if _, ok := media[k]; !ok {
			data := files[k]
			raw = append(raw, MediaFile{Name: k, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
		}
	}
	return zipPackage(w, layout, dir, path, entries, raw)
}

// MediaFile is a file written into a package, opened when its turn comes
// so that no two are held at once.
type MediaFile = format.File

// mediaEntry is a media file: its zip entry name, its file name, and how
// to read it (nil: named in the map only).
type mediaEntry struct {
	key, name string
	open      func() (io.ReadCloser, error)
}

// zipPackage writes the package as Anki's exporter does
// (rslib/src/import_export/package/colpkg/export.rs): meta, the
// collection, the decoy collection.anki2, the media files, then the media
// map. Latest: every entry stored, the collection, the map and each file
// zstd-compressed, the map a MediaEntries protobuf. Legacy2: meta, the
// collection deflated, the rest stored, the map JSON. Legacy1: no meta,
// no decoy, everything deflated. Stored entries are written with their
// sizes and checksums up front (no data descriptor). raw entries are
// written as they are and replace the package's own of the same name.
func zipPackage(w io.Writer, l Layout, dir, collection string, media []mediaEntry, raw []MediaFile) error {
	zw := zip.NewWriter(w)
	replaced := func(name string) bool {
		return slices.ContainsFunc(raw, func(f MediaFile) bool { return f.Name == name })
	}
	var enc *zstd.Encoder
	if l.zstd() {
		var err error
		if enc, err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true)); err != nil {
			return err
		}
		defer enc.Close()
	}
	step := func(name string, write func() error) error {
		if replaced(name) {
			return nil
		}
		if err := write(); err != nil {
			return fmt.Errorf("anki: writing %s: %w", name, err)
		}
		return nil
	}
	if l != Legacy1 {
		meta := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(l))
		if err := step("meta", func() error { return storeBytes(zw, "meta", meta) }); err != nil {
			return err
		}
	}
	err := step(l.collectionName(), func() error {
		if !l.zstd() {
			return deflateFile(zw, l.collectionName(), collection)
		}
		packed := filepath.Join(dir, "collection.zst")
		if err := zstdFile(enc, collection, packed); err != nil {
			return err
		}
		return storeFile(zw, l.collectionName(), packed)
	})
	if err == nil && l != Legacy1 {
		err = step("collection.anki2", func() error {
			decoy, err := writeDecoy(dir)
			if err == nil {
				err = storeFile(zw, "collection.anki2", decoy)
			}
			return err
		})
	}
	if err != nil {
		return err
	}
	var list []byte
	names := map[string]string{}
	for _, m := range media {
		names[m.key] = m.name
		var size int
		sum := sha1.New()
		if m.open != nil {
			err := step(m.key, func() error {
				rc, err := m.open()
				if err != nil {
					return err
				}
				defer rc.Close()
				var plain bytes.Buffer
				if _, err := io.Copy(io.MultiWriter(&plain, sum), rc); err != nil {
					return err
				}
				size = plain.Len()
				switch l {
				case Latest:
					return storeBytes(zw, m.key, enc.EncodeAll(plain.Bytes(), nil))
				case Legacy2:
					return storeBytes(zw, m.key, plain.Bytes())
				}
				return deflateBytes(zw, m.key, plain.Bytes())
			})
			if err != nil {
				return err
			}
		}
		entry := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), m.name)
		entry = protowire.AppendVarint(protowire.AppendTag(entry, 2, protowire.VarintType), uint64(size))
		entry = protowire.AppendBytes(protowire.AppendTag(entry, 3, protowire.BytesType), sum.Sum(nil))
		list = protowire.AppendBytes(protowire.AppendTag(list, 1, protowire.BytesType), entry)
	}
	err = step("media", func() error {
		switch l {
		case Latest:
			return storeBytes(zw, "media", enc.EncodeAll(list, nil))
		case Legacy2:
			data, _ := json.Marshal(names)
			return storeBytes(zw, "media", data)
		}
		data, _ := json.Marshal(names)
		return deflateBytes(zw, "media", data)
	})
	if err != nil {
		return err
	}
	for _, f := range raw {
		if err := f.CopyInto(zw); err != nil {
			return fmt.Errorf("anki: writing %s: %w", f.Name, err)
		}
	}
	return zw.Close()
}

// writeDecoy writes the schema-11 collection whose one Basic note, in the
// Default deck, asks the user to update Anki.
func writeDecoy(dir string) (string, error) {
	path := filepath.Join(dir, "decoy")
	basic := StockModels()[strconv.FormatInt(ModelBasic, 10)]
	col, err := NewCollection(context.Background(), path, Schema11, map[string]Model{strconv.FormatInt(ModelBasic, 10): basic}, "",
		time.Now().UTC().Truncate(day))
	if err != nil {
		return "", err
	}
	err = col.AddNote(1, ModelBasic, []string{decoyText, ""}, []int{0}, nil)
	if cerr := col.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	// Small pages, as Anki writes its decoy: it is stored uncompressed.
	conn, err := open(path)
	if err != nil {
		return "", err
	}
	err = conn.Exec(`PRAGMA page_size = 512; VACUUM`).Error
	if cerr := Close(conn); err == nil {
		err = cerr
	}
	return path, err
}

// zstdFile compresses a file into another, streaming.
func zstdFile(enc *zstd.Encoder, src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	enc.Reset(out)
	_, err = io.Copy(enc, in)
	if cerr := enc.Close(); err == nil {
		err = cerr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// storeFile writes a file as a stored entry, its checksum and size read
// first so that the header carries them.
func storeFile(zw *zip.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	crc := crc32.NewIEEE()
	n, err := io.Copy(crc, f)
	if err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dst, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Store, CRC32: crc.Sum32(),
		CompressedSize64: uint64(n), UncompressedSize64: uint64(n), Modified: time.Now()})
	if err != nil {
		return err
	}
	copied, err := io.Copy(dst, f)
	if err == nil && copied != n {
		err = errors.New("the file changed while it was written")
	}
	return err
}

func storeBytes(zw *zip.Writer, name string, data []byte) error {
	dst, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Store, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data)), Modified: time.Now()})
	if err == nil {
		_, err = dst.Write(data)
	}
	return err
}

func deflateFile(zw *zip.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dst, err := zw.Create(name)
	if err == nil {
		_, err = io.Copy(dst, f)
	}
	return err
}

func deflateBytes(zw *zip.Writer, name string, data []byte) error {
	dst, err := zw.Create(name)
	if err == nil {
		_, err = dst.Write(data)
	}
	return err
}

// notetypeConfig is Notetype.Config: kind = 1 (cloze 1), sort_field_idx
// = 2 (0), css = 3, original_stock_kind = 9.
func notetypeConfig(m Model) []byte {
	var b []byte
	if m.Type == 1 {
		b = protowire.AppendVarint(protowire.AppendTag(b, 1, protowire.VarintType), 1)
	}
	b = protowire.AppendString(protowire.AppendTag(b, 3, protowire.BytesType),
		".card {\n    font-family: arial;\n    font-size: 20px;\n    text-align: center;\n    color: black;\n    background-color: white;\n}\n")
	if m.Stock != 0 {
		b = protowire.AppendVarint(protowire.AppendTag(b, 9, protowire.VarintType), uint64(m.Stock))
	}
	return b
}

// fieldConfig is Notetype.Field.Config: font_name = 3, font_size = 4, as
// Anki's stock fields have them.
func fieldConfig() []byte {
	b := protowire.AppendString(protowire.AppendTag(nil, 3, protowire.BytesType), "Arial")
	return protowire.AppendVarint(protowire.AppendTag(b, 4, protowire.VarintType), 20)
}

// templateConfig is Notetype.Template.Config: q_format = 1, a_format = 2.
func templateConfig(t Template) []byte {
	b := protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), t.Qfmt)
	return protowire.AppendString(protowire.AppendTag(b, 2, protowire.BytesType), t.Afmt)
}

// normalDeckKind is Deck.KindContainer { normal = 1 { config_id = 1 } }.
func normalDeckKind() []byte {
	normal := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1)
	return protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), normal)
}
