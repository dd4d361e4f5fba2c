package app

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

func box(typ string, body []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	return append(append(out, typ...), body...)
}

func TestMP4ParserIsBoundedOnHostileBoxes(t *testing.T) {
	deep := box("hdlr", append(make([]byte, 8), "soun"...))
	for i := 0; i < 20; i++ {
		deep = box("moov", deep)
	}
	lying := append(box("moov", nil)[:4:4], []byte("moov")...)
	binary.BigEndian.PutUint32(lying, 1<<30) // claims 1 GiB
	for name, data := range map[string][]byte{"deep": deep, "lying size": lying, "short": {0, 0, 0},
		"large size header": {0, 0, 0, 1, 'm', 'o', 'o', 'v', 0xFF}} {
		if _, err := mp4HasAudio(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWebMParserIsBoundedOnHostileElements(t *testing.T) {
	for name, data := range map[string][]byte{
		"no marker bit": {0x00, 0x00},
		"size past end": {0xAE, 0x88},
		"truncated id":  {0x1A, 0x45},
		"empty":         {},
		"no tracks":     {0xEC, 0x81, 0x00},
	} {
		if _, err := webmHasAudio(bytes.NewReader(data), int64(len(data))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A clip of more tiny boxes or elements than the budget is refused
// rather than read box by box.
func TestParsersBoundTheNumberOfReads(t *testing.T) {
	boxes := bytes.Repeat(box("free", nil), maxElements+1)
	if _, err := mp4HasAudio(bytes.NewReader(boxes), int64(len(boxes))); err == nil || err.Error() != "too many boxes" {
		t.Errorf("mp4: %v", err)
	}
	elements := bytes.Repeat([]byte{0xEC, 0x80}, maxElements+1) // Void elements of size 0
	if _, err := webmHasAudio(bytes.NewReader(elements), int64(len(elements))); err == nil || err.Error() != "too many elements" {
		t.Errorf("webm: %v", err)
	}
}

// Random bytes never panic either parser or the sniffer.
func TestParsersSurviveNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		data := make([]byte, r.IntN(256))
		for j := range data {
			data[j] = byte(r.UintN(256))
		}
		_, _ = mp4HasAudio(bytes.NewReader(data), int64(len(data)))
		_, _ = webmHasAudio(bytes.NewReader(data), int64(len(data)))
		_, _ = sniff(data)
	}
}
