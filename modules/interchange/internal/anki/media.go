package anki

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	htmlpkg "html"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// ImageTypes are the pictures a package may bring, by their bytes (what
// the media module stores as card pictures).
var ImageTypes = []string{"image/png", "image/jpeg", "image/webp"}

// mediaSet is a package's media: the map from numbered entry to file name,
// read once; the files of notes read so far, by name, and each refusal.
type mediaSet struct {
	layout  Layout
	entries map[string]*zip.File // zip entry by media file name
	read    map[string][]byte
	refused map[string]string
	total   int64
	lim     Limits
}

// readMediaMap reads the media map: a JSON object ({"0": "heart.png"})
// in the legacy layouts, a zstd protobuf list (MediaEntries, the file of
// entry n named "n") in the latest. Bounded; names that are plain file
// names (a path is ErrHostile: an importer that wrote the files under
// those names would write outside its folder), no name twice, every
// numbered file in the package.
func readMediaMap(f *zip.File, l Layout, entries map[string]*zip.File, lim Limits) (*mediaSet, error) {
	m := &mediaSet{layout: l, entries: map[string]*zip.File{}, read: map[string][]byte{}, refused: map[string]string{}, lim: lim}
	if f == nil {
		return m, nil
	}
	rc, err := openEntry(f, l, lim.MaxMediaMapBytes, "the media map")
	if err != nil {
		return nil, ErrMalformed{fmt.Sprintf("the media map cannot be read: %v", err)}
	}
	defer rc.Close()
	data, err := readBounded(rc, lim.MaxMediaMapBytes, "the media map")
	if err != nil {
		return nil, err
	}
	names, err := mediaNames(data, l, lim)
	if err != nil {
		return nil, err
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

// mediaNames decodes the map as the layout writes it: zip entry name to
// file name.
func mediaNames(data []byte, l Layout, lim Limits) (map[string]string, error) {
	names := map[string]string{}
	tooMany := ErrTooLarge{fmt.Sprintf("the package holds more than %d media files", lim.MaxMediaFiles)}
	if !l.zstd() {
		if err := json.Unmarshal(data, &names); err != nil {
			return nil, ErrMalformed{"the media map is not a JSON object of file names"}
		}
		if len(names) > lim.MaxMediaFiles {
			return nil, tooMany
		}
		return names, nil
	}
	// MediaEntries { repeated MediaEntry entries = 1; }, MediaEntry { string name = 1; ... }
	err := eachField(data, func(num protowire.Number, typ protowire.Type, _ uint64, entry []byte) error {
		if num != 1 || typ != protowire.BytesType {
			return nil
		}
		if len(names) >= lim.MaxMediaFiles {
			return tooMany
		}
		name := ""
		err := eachField(entry, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
			if num == 1 && typ == protowire.BytesType {
				name = string(b)
			}
			return nil
		})
		if err != nil || name == "" || !utf8.ValidString(name) {
			return ErrMalformed{fmt.Sprintf("media entry %d of the media map cannot be read", len(names))}
		}
		names[strconv.Itoa(len(names))] = name
		return nil
	})
	var large ErrTooLarge
	var malformed ErrMalformed
	switch {
	case errors.As(err, &large), errors.As(err, &malformed):
		return nil, err
	case err != nil:
		return nil, ErrMalformed{"the media map is not a list of media entries"}
	}
	return names, nil
}

var imgSrc = regexp.MustCompile(`(?is)<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`)

// imageSources are the distinct image names an HTML text shows, in order.
func imageSources(html string) []string {
	var names []string
	for _, m := range imgSrc.FindAllStringSubmatch(html, -1) {
		if src := htmlpkg.UnescapeString(m[1] + m[2] + m[3]); !slices.Contains(names, src) {
			names = append(names, src)
		}
	}
	return names
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
	rc, err := openEntry(f, m.layout, m.lim.MaxMediaFileBytes, fmt.Sprintf("media file %q", name))
	if err != nil {
		return "", "", ErrMalformed{fmt.Sprintf("media file %q cannot be unpacked: %v", name, err)}
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, m.lim.MaxMediaFileBytes+1))
	switch large := (ErrTooLarge{}); {
	case errors.As(err, &large):
		return "", "", err
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

// attach reads the one picture each card shows and brings its sides to
// plain text: a card showing several pictures, or one the package lacks
// or that is not a picture, refuses the note (the reason); an occlusion
// card's shapes are placed on its picture.
func (m *mediaSet) attach(notes []Note) (string, error) {
	for i := range notes {
		n := &notes[i]
		srcs := imageSources(n.Front)
		front := len(srcs) > 0
		for _, src := range imageSources(n.Back) {
			if !slices.Contains(srcs, src) {
				srcs = append(srcs, src)
			}
		}
		if n.Type == Occlusion {
			srcs, front = []string{n.Image}, true
		}
		switch len(srcs) {
		case 0:
		case 1:
			name, why, err := m.image(srcs[0])
			if why != "" || err != nil {
				return why, err
			}
			n.Image, n.ImageOnFront = name, front
		default:
			return fmt.Sprintf("the note shows %d images; a card holds one picture", len(srcs)), nil
		}
		if len(n.Shapes) > 0 {
			if err := placeShapes(n.Shapes, m.read[n.Image]); err != nil {
				return fmt.Sprintf("its image %q cannot be read as a picture: %v", n.Image, err), nil
			}
		}
		n.Front, n.Back = plainText(n.Front), plainText(n.Back)
		if n.Type == TypeIn {
			n.Back = strings.TrimSpace(n.Back)
		}
	}
	return "", nil
}
