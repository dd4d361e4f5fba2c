package anki

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
)

// Layout is how a package lays out its collection and media, Anki's
// PackageMetadata.Version (rslib/src/import_export/package/meta.rs).
type Layout int

// The layouts Anki writes. Legacy1: no meta, collection.anki2 (schema
// 11), a JSON media map, files as they are. Legacy2: collection.anki21
// (schema 11), the same map; with a meta entry when current Anki writes it
// ("Support older Anki versions"), then beside a decoy collection.anki2.
// Latest (Anki 2.1.50 on, its default): meta, collection.anki21b (zstd,
// schema 18), a zstd protobuf media map, zstd media files, and the decoy
// collection.anki2 whose one note asks the user to update Anki.
const (
	Legacy1 Layout = 1
	Legacy2 Layout = 2
	Latest  Layout = 3
)

// collectionName is the entry holding the layout's real collection.
func (l Layout) collectionName() string {
	switch l {
	case Legacy2:
		return "collection.anki21"
	case Latest:
		return "collection.anki21b"
	}
	return "collection.anki2"
}

func (l Layout) zstd() bool { return l == Latest }

// maxMetaBytes bounds the meta entry (Anki's is two bytes).
const maxMetaBytes = 64

// layoutOf chooses the layout as Anki does: from meta when present (an
// unknown version is a package from a newer Anki), else collection.anki21
// when present, else collection.anki2.
func layoutOf(entries map[string]*zip.File) (Layout, error) {
	f := entries["meta"]
	if f == nil {
		if entries["collection.anki21"] != nil {
			return Legacy2, nil
		}
		if entries["collection.anki2"] == nil && entries["collection.anki21b"] != nil {
			return 0, ErrMalformed{"the package has collection.anki21b but no meta entry saying how to read it"}
		}
		return Legacy1, nil
	}
	data, err := readAll(f, maxMetaBytes, "the meta entry")
	if err != nil {
		return 0, err
	}
	version, err := metaVersion(data)
	if err != nil {
		return 0, err
	}
	switch l := Layout(version); l {
	case Legacy1, Legacy2, Latest:
		return l, nil
	}
	return 0, ErrMalformed{fmt.Sprintf("the package's format (version %d) is newer than this service reads; "+
		"export it with \"Support older Anki versions\" ticked", version)}
}

// metaVersion reads PackageMetadata { Version version = 1; }.
func metaVersion(data []byte) (uint64, error) {
	var version uint64
	err := eachField(data, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
		if num == 1 && typ == protowire.VarintType {
			version = v
		}
		return nil
	})
	if err != nil {
		return 0, ErrMalformed{"the package's meta entry cannot be read"}
	}
	return version, nil
}

// readAll reads a zip entry whole, refusing it past max bytes.
func readAll(f *zip.File, max int64, what string) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("%s cannot be read: %v", what, err)}
	}
	defer rc.Close()
	return readBounded(rc, max, what)
}

func readBounded(r io.Reader, max int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if large := (ErrTooLarge{}); errors.As(err, &large) {
		return nil, err
	}
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("%s cannot be read: %v", what, err)}
	}
	if int64(len(data)) > max {
		return nil, ErrTooLarge{fmt.Sprintf("%s unpacks to more than %d bytes", what, max)}
	}
	return data, nil
}

// maxWindow bounds the history a zstd frame may ask the decoder to keep:
// Anki's encoder (level 3) uses 2 MiB, ours 8 MiB.
const maxWindow = 8 << 20

// openEntry opens a zip entry as the layout stores it: zstd frames are
// decoded with a bounded window, one thread and no preallocation, so a
// frame that claims a larger window is refused (ErrTooLarge naming what)
// rather than allocated; what unpacks is bounded by the caller (max).
func openEntry(f *zip.File, l Layout, max int64, what string) (io.ReadCloser, error) {
	rc, err := f.Open()
	if err != nil || !l.zstd() {
		return rc, err
	}
	dec, err := zstd.NewReader(rc, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderMaxMemory(maxWindow))
	if err != nil {
		rc.Close()
		return nil, err
	}
	return zstdEntry{dec, rc, ErrTooLarge{fmt.Sprintf("%s unpacks to more than %d bytes", what, max)}}, nil
}

type zstdEntry struct {
	*zstd.Decoder
	raw      io.Closer
	tooLarge ErrTooLarge
}

func (z zstdEntry) Read(p []byte) (int, error) {
	n, err := z.Decoder.Read(p)
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		err = z.tooLarge
	}
	return n, err
}

func (z zstdEntry) Close() error {
	z.Decoder.Close()
	return z.raw.Close()
}

// eachField walks a protobuf message's fields: varints and fixed values
// as v, length-delimited ones as b. Groups are refused (Anki writes none).
func eachField(data []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(data)
		case protowire.Fixed32Type:
			var x uint32
			x, n = protowire.ConsumeFixed32(data)
			v = uint64(x)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(data)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(data)
		default:
			return fmt.Errorf("unsupported protobuf wire type %d", typ)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		if err := fn(num, typ, v, b); err != nil {
			return err
		}
	}
	return nil
}
