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
