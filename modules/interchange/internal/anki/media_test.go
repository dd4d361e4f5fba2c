package anki_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	. "github.com/roundsedu/rounds/modules/interchange/internal/anki"
)

var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

func file(name string, data []byte) MediaFile {
	return MediaFile{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

func TestWriteReadsBackImages(t *testing.T) {
	jpeg := []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	notes := []Note{
		{Item: 1, Type: Basic, Front: "What is shown?", Back: "A heart", Image: "heart & co.png", ImageOnFront: true},
		{Item: 2, Type: Basic, Front: "", Back: "A lung", Image: "heart & co.png", ImageOnFront: true},
		{Item: 3, Type: Reversed, Front: "Tachycardia", Back: "HR > 100", Image: "ecg.jpg"},
		{Item: 4, Type: Cloze, Front: "The {{c1::aorta}}", Back: "", Image: "ecg.jpg"},
	}
	var buf bytes.Buffer
	err := Write(context.Background(), &buf, Latest, "Pictures", notes, []MediaFile{file("heart & co.png", png), file("ecg.jpg", jpeg)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(context.Background(), buf.Bytes(), lim)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Notes, notes) || len(got.Refused) != 0 {
		t.Fatalf("got %+v refused %+v", got.Notes, got.Refused)
	}
	if len(got.Media) != 2 || !bytes.Equal(got.Media["heart & co.png"], png) || !bytes.Equal(got.Media["ecg.jpg"], jpeg) {
		t.Fatalf("media %v", got.Media)
	}
}

func TestNoteImageRefusals(t *testing.T) {
	basic := func(front string) ankifixtures.Note {
		return ankifixtures.Note{Model: ankifixtures.Basic, Fields: []string{front, "back"}, Ords: []int{0}}
	}
	data := build(t, ankifixtures.Package{Notes: []ankifixtures.Note{
		basic(`<img src="missing.png">`),
		basic(`<img src="notes.txt">`),
		basic(`<img src="a.png"><img src='b.png'>`),
		basic(`<img src="../../etc/passwd">`),
		basic(`<IMG alt="x" SRC=a.png>`),
		basic(`<img src="b%2Epng">`),
	}, Media: map[string]string{"0": "a.png", "1": "b.png", "2": "notes.txt"},
		Files: map[string][]byte{"0": png, "1": png, "2": []byte("just some text")}})
	got, err := Read(context.Background(), data, lim)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`its image "missing.png" is not in the package's media`,
		`its image "notes.txt" is not a PNG, JPEG or WebP picture (its bytes say text/plain; charset=utf-8)`,
		"the note shows 2 images; a card holds one picture",
		`its image "../../etc/passwd" is not in the package's media`,
	}
	if len(got.Refused) != len(want) {
		t.Fatalf("refused %+v", got.Refused)
	}
	for i, r := range got.Refused {
		if r.Item != i+1 || r.Reason != want[i] {
			t.Errorf("refusal %d: %+v, want %q", i, r, want[i])
		}
	}
	if len(got.Notes) != 2 || got.Notes[0].Image != "a.png" || got.Notes[1].Image != "b.png" {
		t.Fatalf("notes %+v", got.Notes)
	}
	if len(got.Media) != 2 {
		t.Fatalf("media holds %d files, want the two the notes show", len(got.Media))
	}
}

func TestHostileMedia(t *testing.T) {
	shows := []ankifixtures.Note{{Model: ankifixtures.Basic, Fields: []string{`<img src="big.png">`, "b"}, Ords: []int{0}}}
	twice := []ankifixtures.Note{
		{Model: ankifixtures.Basic, Fields: []string{`<img src="a.png">`, "b"}, Ords: []int{0}},
		{Model: ankifixtures.Basic, Fields: []string{`<img src="b.png">`, "b"}, Ords: []int{0}}}
	bomb := append(append([]byte{}, png...), make([]byte, 8<<20)...)
	half := append(append([]byte{}, png...), make([]byte, 60<<10)...)
	manyNames := map[string]string{}
	for i := 0; i < 11; i++ {
		manyNames[fmt.Sprint(i)] = fmt.Sprintf("%d.png", i)
	}
	cases := map[string]struct {
		p    ankifixtures.Package
		want error
	}{
		"map names a missing file": {ankifixtures.Package{Notes: shows, Media: map[string]string{"0": "big.png"}}, ErrMalformed{}},
		"oversized map": {ankifixtures.Package{Layout: ankifixtures.Legacy1, Notes: shows,
			Files: map[string][]byte{"media": []byte(`{"0": "` + strings.Repeat("a", 5000) + `"}`)}}, ErrTooLarge{}},
		"zstd bomb as the map":     {ankifixtures.Package{Notes: shows, Files: map[string][]byte{"media": zstdOf(make([]byte, 1<<20))}}, ErrTooLarge{}},
		"a map that is not a list": {ankifixtures.Package{Notes: shows, Files: map[string][]byte{"media": zstdOf([]byte(`{"0": "a.png"}`))}}, ErrMalformed{}},
		"too many names":           {ankifixtures.Package{Notes: shows, Media: manyNames}, ErrTooLarge{}},
		"NUL in a name":            {ankifixtures.Package{Notes: shows, Media: map[string]string{"0": "a\x00.png"}, Files: map[string][]byte{"0": png}}, ErrHostile{}},
		"drive path":               {ankifixtures.Package{Notes: shows, Media: map[string]string{"0": `C:\x.png`}, Files: map[string][]byte{"0": png}}, ErrHostile{}},
		"name twice":               {ankifixtures.Package{Notes: shows, Media: map[string]string{"0": "big.png", "1": "big.png"}, Files: map[string][]byte{"0": png, "1": png}}, ErrMalformed{}},
		"zip bomb in a picture":    {ankifixtures.Package{Notes: shows, Media: map[string]string{"0": "big.png"}, Files: map[string][]byte{"0": bomb}}, ErrTooLarge{}},
		"pictures over the total": {ankifixtures.Package{Notes: twice, Media: map[string]string{"0": "a.png", "1": "b.png"},
			Files: map[string][]byte{"0": half, "1": half}}, ErrTooLarge{}},
	}
	for name, c := range cases {
		_, err := Read(context.Background(), build(t, c.p), lim)
		if reflect.TypeOf(err) != reflect.TypeOf(c.want) {
			t.Errorf("%s: got %v (%T), want %T", name, err, err, c.want)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%s: no reason", name)
		}
	}
}

func zstdOf(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil)
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}
