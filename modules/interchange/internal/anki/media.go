package anki

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// ImageTypes are the pictures a package may bring, by their bytes (what
// the media module stores as card pictures).
var ImageTypes = []string{"image/png", "image/jpeg", "image/webp"}

// mediaSet is a package's media: the map from numbered entry to file name,
// read once; the files of notes read so far, by name, and each refusal.
type mediaSet struct {
	entries map[string]*zip.File // zip entry by media file name
	read    map[string][]byte
	refused map[string]string
	total   int64
	lim     Limits
}

// readMediaMap reads the media map ({"0": "heart.png"}): bounded, a JSON
// object, names that are plain file names (a path is ErrHostile: an
// importer that wrote the files under those names would write outside its
// folder), no name twice, every numbered file in the package.
func readMediaMap(f *zip.File, entries map[string]*zip.File, lim Limits) (*mediaSet, error) {
	m := &mediaSet{entries: map[string]*zip.File{}, read: map[string][]byte{}, refused: map[string]string{}, lim: lim}
	if f == nil {
		return m, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("the media map cannot be read: %v", err)}
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, lim.MaxMediaMapBytes+1))
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("the media map cannot be read: %v", err)}
	}
	if int64(len(data)) > lim.MaxMediaMapBytes {
		return nil, ErrTooLarge{fmt.Sprintf("the media map is larger than %d bytes", lim.MaxMediaMapBytes)}
	}
	var names map[string]string
	if err := json.Unmarshal(data, &names); err != nil {
		return nil, ErrMalformed{"the media map is not a JSON object of file names"}
	}
	if len(names) > lim.MaxMediaFiles {
		return nil, ErrTooLarge{fmt.Sprintf("the package holds more than %d media files", lim.MaxMediaFiles)}
	}
	for k, name := range names {
		if !plainName(k) || !plainName(name) || strings.Contains(name, "..") {
			return nil, ErrHostile{fmt.Sprintf("the media map names %q: media must be plain file names, not paths", name)}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(names)) {
		name := names[k]
		if entries[k] == nil {
			return nil, ErrMalformed{fmt.Sprintf("the media map names file %s (%q), which the package does not hold", k, name)}
		}
		if m.entries[name] != nil {
			return nil, ErrMalformed{fmt.Sprintf("the media map names %q twice", name)}
		}
		m.entries[name] = entries[k]
	}
	return m, nil
}

var imgSrc = regexp.MustCompile(`(?is)<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`)

// images are the distinct image names a note's fields show, in order, and
// whether the first field shows any.
func images(fields []string) (names []string, onFront bool) {
	for i, f := range fields {
		for _, m := range imgSrc.FindAllStringSubmatch(f, -1) {
			src := html.UnescapeString(m[1] + m[2] + m[3])
			if !slices.Contains(names, src) {
				names = append(names, src)
			}
			onFront = onFront || i == 0
		}
	}
	return names, onFront
}

// image reads the file a note's image names, once per name: a name the
// map lacks, or a file whose bytes are not a picture, refuses the note
// (the reason); a file over the per-file or total bound refuses the
// package (a zip bomb is stopped as it unpacks).
func (m *mediaSet) image(src string) (string, string, error) {
	name := src
	f := m.entries[name]
	if f == nil {
		if u, err := url.PathUnescape(src); err == nil && m.entries[u] != nil {
			name, f = u, m.entries[u]
		}
	}
	if f == nil {
		return "", fmt.Sprintf("its image %q is not in the package's media", src), nil
	}
	if _, ok := m.read[name]; ok {
		return name, "", nil
	}
	if why, ok := m.refused[name]; ok {
		return "", why, nil
	}
	rc, err := f.Open()
	if err != nil {
		return "", "", ErrMalformed{fmt.Sprintf("media file %q cannot be unpacked: %v", name, err)}
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, m.lim.MaxMediaFileBytes+1))
	switch {
	case err != nil:
		return "", "", ErrMalformed{fmt.Sprintf("media file %q cannot be unpacked: %v", name, err)}
	case int64(len(data)) > m.lim.MaxMediaFileBytes:
		return "", "", ErrTooLarge{fmt.Sprintf("media file %q unpacks to more than %d bytes", name, m.lim.MaxMediaFileBytes)}
	}
	if m.total += int64(len(data)); m.total > m.lim.MaxMediaBytes {
		return "", "", ErrTooLarge{fmt.Sprintf("the notes' media unpack to more than %d bytes", m.lim.MaxMediaBytes)}
	}
	if t := http.DetectContentType(data); !slices.Contains(ImageTypes, t) {
		m.refused[name] = fmt.Sprintf("its image %q is not a PNG, JPEG or WebP picture (its bytes say %s)", name, t)
		m.total -= int64(len(data))
		return "", m.refused[name], nil
	}
	m.read[name] = data
	return name, "", nil
}

// noteImage gives the one image a note may bring: none, or the file of its
// only image; a note showing several is refused (a card holds one picture).
func (m *mediaSet) noteImage(fields []string) (name string, onFront bool, why string, err error) {
	srcs, onFront := images(fields)
	switch len(srcs) {
	case 0:
		return "", false, "", nil
	case 1:
		name, why, err = m.image(srcs[0])
		return name, onFront, why, err
	}
	return "", false, fmt.Sprintf("the note shows %d images; a card holds one picture", len(srcs)), nil
}
