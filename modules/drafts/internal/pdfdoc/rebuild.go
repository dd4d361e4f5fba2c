package pdfdoc

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

var (
	reObj     = regexp.MustCompile(`(?:^|[\r\n\t \x00>])(\d{1,10})[ \t\r\n]+(\d{1,5})[ \t\r\n]+obj\b`)
	reTrailer = regexp.MustCompile(`trailer[ \t\r\n]*<<`)
	reRef     = func(key string) *regexp.Regexp {
		return regexp.MustCompile(`/` + key + `[ \t\r\n]+(\d{1,10})[ \t\r\n]+(\d{1,5})[ \t\r\n]+R`)
	}
	reRoot, reInfo, reEncrypt = reRef("Root"), reRef("Info"), reRef("Encrypt")
	reID                      = regexp.MustCompile(`/ID[ \t\r\n]*\[[^\]]*\]`)
	reCatalog                 = regexp.MustCompile(`/Type[ \t\r\n]*/Catalog\b`)
)

// rebuildXref rebuilds a file's cross-reference table the way pdf.js
// does when the table is missing, wrong or without a trailer: it scans
// the bytes for "N G obj" (a later definition wins, as in an incremental
// update), takes the root, info, encryption and ID from the last trailer
// (or cross-reference stream) that names a root, else the object that is
// a /Catalog, and appends a fresh table and trailer. Objects stored inside
// object streams cannot be found this way; files that need them are
// left to pdfcpu's own reading.
func rebuildXref(file []byte) ([]byte, error) {
	size := int64(len(file))
	offsets := map[int64]int64{}
	gens := map[int64]int64{}
	var highest int64
	for _, m := range reObj.FindAllSubmatchIndex(file, -1) {
		num, _ := strconv.ParseInt(string(file[m[2]:m[3]]), 10, 64)
		gen, _ := strconv.ParseInt(string(file[m[4]:m[5]]), 10, 64)
		if num <= 0 {
			continue
		}
		if num >= maxObjects(size) {
			return nil, refused("its objects are numbered up to %d, more than a file of %s can hold", num, HumanSize(size))
		}
		offsets[num], gens[num] = int64(m[2]), gen
		highest = max(highest, num)
	}
	if len(offsets) == 0 {
		return nil, damaged("no objects were found in it")
	}
	root, info, encrypt, id := trailerRefs(file, offsets)
	if root == "" {
		return nil, damaged("it has no document catalog")
	}
	var out bytes.Buffer
	out.Write(file)
	xref := out.Len() + 1
	fmt.Fprintf(&out, "\nxref\n0 %d\n0000000000 65535 f \n", highest+1)
	for n := int64(1); n <= highest; n++ {
		if off, ok := offsets[n]; ok {
			fmt.Fprintf(&out, "%010d %05d n \n", off, gens[n])
		} else {
			out.WriteString("0000000000 65535 f \n")
		}
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %s%s%s%s >>\nstartxref\n%d\n%%%%EOF\n", highest+1, root, info, encrypt, id, xref)
	return out.Bytes(), nil
}

// trailerRefs finds the root (and info, encryption, ID) for a rebuilt
// trailer, as "N G R" strings; info, encrypt and id come with their keys.
func trailerRefs(file []byte, offsets map[int64]int64) (root, info, encrypt, id string) {
	dicts := [][]byte{}
	for _, m := range reTrailer.FindAllIndex(file, -1) {
		dicts = append(dicts, file[m[1]-2:min(m[1]+4096, len(file))])
	}
	for _, m := range regexp.MustCompile(`/Type[ \t\r\n]*/XRef\b`).FindAllIndex(file, -1) {
		dicts = append(dicts, file[max(m[0]-2048, 0):min(m[1]+2048, len(file))])
	}
	for i := len(dicts) - 1; i >= 0 && root == ""; i-- {
		d := dicts[i]
		if end := bytes.Index(d, []byte("stream")); end > 0 {
			d = d[:end]
		}
		m := reRoot.FindSubmatch(d)
		if m == nil || !defined(m, offsets) {
			continue
		}
		root = string(m[1]) + " " + string(m[2]) + " R"
		if m := reInfo.FindSubmatch(d); m != nil && defined(m, offsets) {
			info = " /Info " + string(m[1]) + " " + string(m[2]) + " R"
		}
		if m := reEncrypt.FindSubmatch(d); m != nil && defined(m, offsets) {
			encrypt = " /Encrypt " + string(m[1]) + " " + string(m[2]) + " R"
		}
		if m := reID.Find(d); m != nil {
			id = " " + string(m)
		}
	}
	if root != "" {
		return root, info, encrypt, id
	}
	// No trailer names a root: the last object that says it is the catalog.
	var best int64 = -1
	for num, off := range offsets {
		end := min(off+4096, int64(len(file)))
		body := file[off:end]
		if i := bytes.Index(body, []byte("endobj")); i > 0 {
			body = body[:i]
		}
		if reCatalog.Match(body) && off > best {
			best, root = off, fmt.Sprintf("%d 0 R", num)
		}
	}
	return root, "", "", ""
}

func defined(m [][]byte, offsets map[int64]int64) bool {
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	_, ok := offsets[n]
	return ok
}
