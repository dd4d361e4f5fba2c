// Package media_test drives the media module end to end: figure uploads
// with their hostile inputs, GET /uploads with its per-file authorisation
// and thumbnails, and the bin, restore and purge.
package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestMedia(t *testing.T) { RunSuite(t, "Media") }

const api = "/api/v1"

type q = map[string]any

// Small limits keep the over-size cases cheap.
const (
	stillLimit = 256 << 10
	clipLimit  = 512 << 10
)

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
	seq  int
)

var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) }, WithConfig(func(c *config.Config) {
	c.Set("media.max_still_bytes", stillLimit)
	c.Set("media.max_clip_bytes", clipLimit)
}))

func path(format string, args ...any) string { return api + fmt.Sprintf(format, args...) }

// article makes an article with two sections as a moderator.
func article(status string) int64 {
	seq++
	res := mod.Client(h).Post(api+"/articles/", q{"title": fmt.Sprintf("Media article %d", seq), "status": status,
		"sections": []q{{"id": "intro", "heading": "Intro", "markdown": "Opening text."},
			{"id": "findings", "heading": "Findings", "markdown": "What is seen."}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// form builds a multipart body with a file and fields.
func form(data []byte, filename string, fields map[string]string) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		Expect(w.WriteField(k, v)).To(Succeed())
	}
	if data != nil {
		fw, err := w.CreateFormFile("file", filename)
		Expect(err).NotTo(HaveOccurred())
		_, _ = fw.Write(data)
	}
	Expect(w.Close()).To(Succeed())
	return buf.Bytes(), w.FormDataContentType()
}

// upload posts a figure to an article's section.
func upload(u *User, articleID int64, data []byte, filename string, fields map[string]string) *Response {
	body, ct := form(data, filename, fields)
	return u.Client(h).With("Content-Type", ct).Post(path("/articles/%d/figures/image", articleID), body)
}

func fields(section, caption string, extra ...string) map[string]string {
	f := map[string]string{"section_id": section, "caption": caption}
	for i := 0; i+1 < len(extra); i += 2 {
		f[extra[i]] = extra[i+1]
	}
	return f
}

// pngOf draws a w×h PNG.
func pngOf(w, hgt int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, hgt))
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	Expect(png.Encode(&buf, img)).To(Succeed())
	return buf.Bytes()
}

// box is an ISO BMFF box.
func box(typ string, parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	return append(append(out, typ...), body...)
}

// mp4 is a minimal MP4 with one track per handler ("vide", "soun").
func mp4(handlers ...string) []byte {
	var traks [][]byte
	for _, hd := range handlers {
		hdlr := box("hdlr", make([]byte, 8), []byte(hd), make([]byte, 13))
		traks = append(traks, box("trak", box("mdia", hdlr)))
	}
	ftyp := box("ftyp", []byte("isom"), []byte{0, 0, 2, 0}, []byte("isomiso2mp41"))
	return append(ftyp, box("moov", traks...)...)
}

// ebml is an EBML element with a one-byte-coded size (bodies < 127 bytes)
// or an 8-byte size.
func ebml(id []byte, parts ...[]byte) []byte {
	body := bytes.Join(parts, nil)
	size := binary.BigEndian.AppendUint64(nil, uint64(len(body)))
	size[0] = 0x01
	return append(append(append([]byte{}, id...), size...), body...)
}

// webm is a minimal WebM with one track per type (1 video, 2 audio).
func webm(types ...byte) []byte {
	header := ebml([]byte{0x1A, 0x45, 0xDF, 0xA3}, ebml([]byte{0x42, 0x82}, []byte("webm")))
	var entries [][]byte
	for _, t := range types {
		entries = append(entries, ebml([]byte{0xAE}, ebml([]byte{0x83}, []byte{t})))
	}
	seg := ebml([]byte{0x18, 0x53, 0x80, 0x67}, ebml([]byte{0x16, 0x54, 0xAE, 0x6B}, entries...))
	return append(header, seg...)
}

// scalar reads one value from the database.
func scalar[T any](sql string, args ...any) T {
	var v T
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&v).Error).To(Succeed())
	return v
}

func assets() int64 { return scalar[int64](`SELECT count(*) FROM media.assets`) }

func markdown(articleID int64, section string) string {
	return scalar[string](`SELECT markdown FROM library.sections WHERE article_id = ? AND key = ?`, articleID, section)
}
