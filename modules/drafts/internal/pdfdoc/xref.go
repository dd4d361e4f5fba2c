package pdfdoc

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strconv"
)

// maxObjects is the most object numbers a file of size bytes can really
// use, with room for the sparse numbering writers leave. The library
// sizes its object table (32 bytes an entry) from the numbers the
// cross-reference sections give, so a 1 KiB file saying "object 10^12"
// would have it allocate terabytes; 65,536 spare numbers cost 2 MiB.
func maxObjects(size int64) int64 { return size/8 + 1<<16 }

// maxSections bounds the /Prev chain (incremental updates).
const maxSections = 1000

var (
	reSize  = regexp.MustCompile(`/Size\s+(\d+)`)
	rePrev  = regexp.MustCompile(`/Prev\s+(\d+)`)
	reIndex = regexp.MustCompile(`/Index\s*\[([^\]]*)\]`)
	reW     = regexp.MustCompile(`/W\s*\[([^\]]*)\]`)
)

// checkXref reads the cross-reference sections from startxref along /Prev
// before the library does: every object number they give must fit the
// file, and the chain must not come back on itself (the library follows
// /Prev without remembering where it has been). What it cannot parse it
// leaves to the library, which refuses it as damaged.
func checkXref(ctx context.Context, ra io.ReaderAt, size int64) error {
	off, ok := startXref(ra, size)
	seen := map[int64]bool{}
	for ok {
		checkpoint(ctx)
		if seen[off] {
			return damaged("its cross-reference sections chain back to one already read (offset %d)", off)
		}
		if len(seen) == maxSections {
			return refused("it has more than %d cross-reference sections", maxSections)
		}
		seen[off] = true
		var err error
		if off, ok, err = checkSection(ra, size, off); err != nil {
			return err
		}
	}
	return nil
}

// startXref is the offset the file's last startxref names.
func startXref(ra io.ReaderAt, size int64) (int64, bool) {
	tail := readAt(ra, max(size-1024, 0), 1024)
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(tail[i+len("startxref"):])
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(f[0]), 10, 64)
	return n, err == nil && n >= 0 && n < size
}

// checkSection checks the section at off and returns its /Prev, if any.
func checkSection(ra io.ReaderAt, size, off int64) (prev int64, ok bool, err error) {
	limit := maxObjects(size)
	head := readAt(ra, off, 4096)
	trimmed := bytes.TrimLeft(head, " \t\r\n\f\x00")
	if !bytes.HasPrefix(trimmed, []byte("xref")) {
		// A cross-reference stream: its dictionary gives /Size, /Index, /W.
		dict := head
		if i := bytes.Index(dict, []byte("stream")); i >= 0 {
			dict = dict[:i]
		}
		if err := checkStreamDict(dict, limit, size); err != nil {
			return 0, false, err
		}
		return findInt(rePrev, dict, size)
	}
	pos := off + int64(len(head)-len(trimmed)) + int64(len("xref"))
	for range limit {
		line, next := readLine(ra, pos)
		if bytes.HasPrefix(line, []byte("trailer")) {
			return findInt(rePrev, readAt(ra, pos, 4096), size)
		}
		first, count, parsed := subsection(line)
		if !parsed {
			return 0, false, nil
		}
		if first+count > limit {
			return 0, false, refused("its cross-reference table numbers objects up to %d, more than a file of %s can hold",
				first+count, HumanSize(size))
		}
		// Entries are 20 bytes; some writers end them with one byte, not two.
		pos = next + 20*count
		if l, _ := readLine(ra, pos); !bytes.HasPrefix(l, []byte("trailer")) {
			if _, _, ok := subsection(l); !ok {
				pos = next + 19*count
			}
		}
	}
	return 0, false, nil
}

func checkStreamDict(dict []byte, limit, size int64) error {
	tooMany := func(n int64) error {
		return refused("its cross-reference stream numbers objects up to %d, more than a file of %s can hold", n, HumanSize(size))
	}
	if m := reSize.FindSubmatch(dict); m != nil {
		if n, err := strconv.ParseInt(string(m[1]), 10, 64); err != nil || n > limit {
			return tooMany(n)
		}
	}
	if m := reIndex.FindSubmatch(dict); m != nil {
		f := bytes.Fields(m[1])
		for i := 0; i+1 < len(f); i += 2 {
			a, err1 := strconv.ParseInt(string(f[i]), 10, 64)
			b, err2 := strconv.ParseInt(string(f[i+1]), 10, 64)
			if err1 != nil || err2 != nil || a < 0 || b < 0 || a+b > limit {
				return tooMany(a + b)
			}
		}
	}
	if m := reW.FindSubmatch(dict); m != nil {
		for _, w := range bytes.Fields(m[1]) {
			if n, err := strconv.Atoi(string(w)); err != nil || n < 0 || n > 8 {
				return damaged("its cross-reference stream has entry widths %s", m[1])
			}
		}
	}
	return nil
}

// subsection parses "first count".
func subsection(line []byte) (first, count int64, ok bool) {
	f := bytes.Fields(line)
	if len(f) != 2 {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(string(f[0]), 10, 64)
	b, err2 := strconv.ParseInt(string(f[1]), 10, 64)
	return a, b, err1 == nil && err2 == nil && a >= 0 && b >= 0
}

// findInt is the value of a /Key n entry in dict that is a file offset.
func findInt(re *regexp.Regexp, dict []byte, size int64) (int64, bool, error) {
	m := re.FindSubmatch(dict)
	if m == nil {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil || n >= size {
		return 0, false, damaged("a cross-reference section points past the end of the file")
	}
	return n, true, nil
}

// readLine reads the line at pos, skipping blank lines first.
func readLine(ra io.ReaderAt, pos int64) (line []byte, next int64) {
	b := readAt(ra, pos, 256)
	skip := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	b = b[skip:]
	end := bytes.IndexAny(b, "\r\n")
	if end < 0 {
		end = len(b)
	}
	return b[:end], pos + int64(skip+end)
}

func readAt(ra io.ReaderAt, off int64, n int) []byte {
	buf := make([]byte, n)
	m, _ := ra.ReadAt(buf, off)
	return buf[:m]
}
