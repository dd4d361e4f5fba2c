package app

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // stills
	_ "image/png"  // stills
	"io"

	"github.com/gabriel-vasile/mimetype"
	_ "golang.org/x/image/webp" // stills

	"github.com/roundsedu/rounds/platform/apperr"
)

// fileType is what an upload's bytes say it is: the client's file name and
// content type are not consulted.
type fileType struct {
	kind, contentType, ext string
	clip                   bool
}

var accepted = map[string]fileType{
	"image/png":  {kind: "image", contentType: "image/png", ext: "png"},
	"image/jpeg": {kind: "image", contentType: "image/jpeg", ext: "jpg"},
	"image/webp": {kind: "image", contentType: "image/webp", ext: "webp"},
	"video/mp4":  {kind: "video", contentType: "video/mp4", ext: "mp4", clip: true},
	"video/webm": {kind: "video", contentType: "video/webm", ext: "webm", clip: true},
}

// sniff names the file's type from its magic bytes (422 for anything but
// PNG, JPEG, WebP, MP4 and WebM).
func sniff(data []byte) (fileType, error) {
	m := mimetype.Detect(data)
	for ; m != nil; m = m.Parent() {
		if t, ok := accepted[m.String()]; ok {
			return t, nil
		}
	}
	return fileType{}, apperr.Invalidf("file", "the file is not a PNG, JPEG or WebP still or an MP4 or WebM clip")
}

// checkStill reads the image's dimensions from its header before any pixel
// is decoded (a small file may declare a huge canvas), then decodes it to
// prove it is whole.
func (s *Service) checkStill(r io.ReaderAt, size int64) (w, h int, err error) {
	if w, h, err = s.checkStillHeader(io.NewSectionReader(r, 0, size)); err != nil {
		return 0, 0, err
	}
	if _, _, err := image.Decode(io.NewSectionReader(r, 0, size)); err != nil {
		return 0, 0, apperr.Invalidf("file", "the image cannot be read: %v", err)
	}
	return w, h, nil
}

// checkStillHeader bounds an image's declared dimensions.
func (s *Service) checkStillHeader(r io.Reader) (w, h int, err error) {
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return 0, 0, apperr.Invalidf("file", "the image cannot be read: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > s.cfg.MaxSide || cfg.Height > s.cfg.MaxSide ||
		int64(cfg.Width)*int64(cfg.Height) > s.cfg.MaxPixels {
		return 0, 0, apperr.Invalidf("file", "the image is %d×%d pixels; at most %d on a side and %d pixels in all",
			cfg.Width, cfg.Height, s.cfg.MaxSide, s.cfg.MaxPixels)
	}
	return cfg.Width, cfg.Height, nil
}

// checkClip parses the container enough to find its tracks and refuses a
// sound track (or a container that cannot be read). The parsers read
// headers at offsets and skip media data, so a clip is never held whole.
func checkClip(t fileType, r io.ReaderAt, size int64) error {
	var audio bool
	var err error
	if t.ext == "mp4" {
		audio, err = mp4HasAudio(r, size)
	} else {
		audio, err = webmHasAudio(r, size)
	}
	if err != nil {
		return apperr.Invalidf("file", "the clip cannot be read: %v", err)
	}
	if audio {
		return apperr.Invalidf("file", "clips must be silent: this one has an audio track")
	}
	return nil
}

var errTruncated = errors.New("truncated container")

// maxDepth bounds how deep the container parsers descend.
const maxDepth = 8

// maxElements bounds how many boxes or elements a parser reads: each is a
// read of the spooled file, and a crafted clip of tiny boxes could ask for
// millions.
const maxElements = 100_000

// readAt fills buf from off or reports a truncated container.
func readAt(r io.ReaderAt, buf []byte, off int64) error {
	if n, _ := r.ReadAt(buf, off); n < len(buf) {
		return errTruncated
	}
	return nil
}

// mp4HasAudio walks the ISO BMFF boxes (moov/trak/mdia/hdlr) looking for a
// track whose handler is "soun". Every box is bounded by its parent.
func mp4HasAudio(r io.ReaderAt, size int64) (bool, error) {
	found, tracks, budget := false, 0, maxElements
	var walk func(off, end int64, depth int) error
	walk = func(off, end int64, depth int) error {
		if depth > maxDepth {
			return errors.New("boxes nest too deep")
		}
		var hdr [16]byte
		for off < end {
			if budget--; budget < 0 {
				return errors.New("too many boxes")
			}
			if end-off < 8 || readAt(r, hdr[:8], off) != nil {
				return errTruncated
			}
			size, typ, hl := uint64(binary.BigEndian.Uint32(hdr[:4])), string(hdr[4:8]), int64(8)
			switch size {
			case 1:
				if end-off < 16 || readAt(r, hdr[8:16], off+8) != nil {
					return errTruncated
				}
				size, hl = binary.BigEndian.Uint64(hdr[8:16]), 16
			case 0:
				size = uint64(end - off)
			}
			if size < uint64(hl) || size > uint64(end-off) {
				return errTruncated
			}
			body, next := off+hl, off+int64(size)
			switch typ {
			case "moov", "trak", "mdia":
				if typ == "trak" {
					tracks++
				}
				if err := walk(body, next, depth+1); err != nil {
					return err
				}
			case "hdlr":
				// version+flags (4), pre_defined (4), handler_type (4)
				var h [12]byte
				if next-body >= 12 && readAt(r, h[:], body) == nil && string(h[8:12]) == "soun" {
					found = true
				}
			}
			off = next
		}
		return nil
	}
	if err := walk(0, size, 0); err != nil {
		return false, err
	}
	if tracks == 0 {
		return false, errors.New("no tracks found")
	}
	return found, nil
}

// EBML ids of the WebM elements read.
const (
	ebmlSegment    = 0x18538067
	ebmlTracks     = 0x1654AE6B
	ebmlTrackEntry = 0xAE
	ebmlTrackType  = 0x83
	ebmlCluster    = 0x1F43B675
	trackTypeAudio = 2
)

// webmHasAudio reads the EBML elements Segment/Tracks/TrackEntry/TrackType
// looking for an audio track (type 2); clusters (the frames) are skipped.
func webmHasAudio(r io.ReaderAt, size int64) (bool, error) {
	found, tracks, budget := false, 0, maxElements
	var walk func(off, end int64, depth int) error
	walk = func(off, end int64, depth int) error {
		if depth > maxDepth {
			return errors.New("elements nest too deep")
		}
		var hdr [16]byte // an id and a size take at most 8 bytes each
		for off < end {
			if budget--; budget < 0 {
				return errors.New("too many elements")
			}
			b := hdr[:min(int64(len(hdr)), end-off)]
			if readAt(r, b, off) != nil {
				return errTruncated
			}
			id, n, err := ebmlVint(b, true)
			if err != nil {
				return err
			}
			size, m, err := ebmlVint(b[n:], false)
			if err != nil {
				return err
			}
			off += int64(n + m)
			if size < 0 || size > end-off {
				if id == ebmlSegment || id == ebmlCluster { // unknown or streaming size: to the end
					size = end - off
				} else {
					return errTruncated
				}
			}
			next := off + size
			switch id {
			case ebmlSegment, ebmlTracks:
				if err := walk(off, next, depth+1); err != nil {
					return err
				}
			case ebmlTrackEntry:
				tracks++
				if err := walk(off, next, depth+1); err != nil {
					return err
				}
			case ebmlTrackType:
				if size > 8 {
					return errors.New("a track type longer than 8 bytes")
				}
				var body [8]byte
				if readAt(r, body[:size], off) != nil {
					return errTruncated
				}
				var v uint64
				for _, c := range body[:size] {
					v = v<<8 | uint64(c)
				}
				if v == trackTypeAudio {
					found = true
				}
			}
			off = next
		}
		return nil
	}
	if err := walk(0, size, 0); err != nil {
		return false, err
	}
	if tracks == 0 {
		return false, errors.New("no tracks found")
	}
	return found, nil
}

// ebmlVint reads a variable-length integer: an element id keeps its marker
// bit, a size drops it (all ones means unknown, returned as -1).
func ebmlVint(b []byte, keepMarker bool) (int64, int, error) {
	if len(b) == 0 {
		return 0, 0, errTruncated
	}
	n := 1
	for mask := byte(0x80); n <= 8 && b[0]&mask == 0; mask >>= 1 {
		n++
	}
	if n > 8 || len(b) < n {
		return 0, 0, fmt.Errorf("bad EBML number: %w", errTruncated)
	}
	v := uint64(b[0])
	if !keepMarker {
		v &= uint64(0xFF >> n)
	}
	allOnes := v == uint64(0xFF>>n)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(b[i])
		allOnes = allOnes && b[i] == 0xFF
	}
	if !keepMarker && allOnes {
		return -1, n, nil
	}
	return int64(v), n, nil
}
