package interchange_test

// Measurements (not run by `go test` without -bench):
//
//	go test ./e2e/interchange/ -run '^$' -bench 'ExportQTI|ImportApkgImages' -benchtime 3x
//
// BenchmarkExportQTI1k exports a 1,000-question quiz (four options with
// feedback each; one question in five shows one of 200 stored PNGs) as a
// QTI package over HTTP and reports the package's size and the process's
// peak heap. BenchmarkImportApkgImages200 imports a package of 200 basic
// notes, each showing its own PNG, and reports the same.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/qticheck"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/memstat"
)

// benchPNG is a 64×64 picture, its pixels seeded by n (about 1.5 KiB).
func benchPNG(n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for x := 0; x < 64; x++ {
		for y := 0; y < 64; y++ {
			img.Set(x, y, color.RGBA{uint8(x*n + y), uint8(y * n), uint8(n + x*y), 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// benchModerator starts an app for one benchmark and signs a moderator in,
// with a category of the given name to file into.
func benchModerator(b *testing.B, category string) (*harness.Harness, *harness.Client, int64) {
	hh, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = hh.Stop() })
	c := hh.NewUser(auth.RoleModerator).Client(hh)
	cat := c.Post("/api/v1/question-categories/", map[string]any{"name": category})
	return hh, c, int64(cat.Map()["id"].(float64))
}

func BenchmarkExportQTI1k(b *testing.B) {
	hh, c, catID := benchModerator(b, "QTI bench")
	for i := 0; i < 1000; i++ {
		q := map[string]any{"question_type": "mcq", "question_category_id": catID,
			"question_text": fmt.Sprintf("Question %d: which finding is most typical of condition %d?", i, i),
			"options":       []string{"Finding A", "Finding B", "Finding C", "Finding D"}, "correct_answer": "Finding C",
			"explanation":         fmt.Sprintf("Finding C is the classic sign of condition %d.", i),
			"option_explanations": []string{"Why A.", "Why B.", "Why C.", "Why D."}}
		if i%5 == 0 {
			key := fmt.Sprintf("figures/bench-%d.png", i/5)
			if _, err := hh.App.Storage.Put(context.Background(), key, bytes.NewReader(benchPNG(i/5)), "image/png"); err != nil {
				b.Fatal(err)
			}
			q["image_path"] = key
		}
		if res := c.Post("/api/v1/questions/create", q); res.Status != 201 {
			b.Fatalf("question: %d %.300s", res.Status, res.Body)
		}
	}
	quiz := c.Post(fmt.Sprintf("/api/v1/question-categories/%d/create-quiz?title=Bench", catID), nil)
	if quiz.Status != 201 {
		b.Fatalf("quiz: %d %.300s", quiz.Status, quiz.Body)
	}
	path := fmt.Sprintf("/api/v1/quizzes/%d/export/qti", int64(quiz.Map()["id"].(float64)))
	var peak uint64
	var size int
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		res := c.Get(path)
		if p := stop(); p > peak {
			peak = p
		}
		if res.Status != 200 {
			b.Fatalf("export: %d %.300s", res.Status, res.Body)
		}
		size = len(res.Body)
	}
	b.StopTimer()
	res := c.Get(path)
	if pkg, err := qticheck.Read(res.Body); err != nil || len(pkg.Items) != 1000 {
		b.Fatalf("package: %v", err)
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB-package")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
}

func BenchmarkImportApkgImages200(b *testing.B) {
	_, c, catID := benchModerator(b, "Apkg bench")
	p := ankifixtures.Package{DeckName: "Pictures", Media: map[string]string{}, Files: map[string][]byte{}}
	for i := 0; i < 200; i++ {
		name := fmt.Sprintf("picture-%d.png", i)
		p.Notes = append(p.Notes, ankifixtures.Note{Model: ankifixtures.Basic,
			Fields: []string{fmt.Sprintf(`What is shown in %d?<img src="%s">`, i, name), "Answer"}, Ords: []int{0}})
		p.Media[fmt.Sprint(i)] = name
		p.Files[fmt.Sprint(i)] = benchPNG(i + 1)
	}
	data, err := ankifixtures.Build(p)
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		res := c.With("Content-Type", "application/octet-stream").
			Post(fmt.Sprintf("/api/v1/flashcard-decks/import/apkg?category_id=%d", catID), data)
		if p := stop(); p > peak {
			peak = p
		}
		if res.Status != 201 || res.Map()["cards"].(float64) != 200 {
			b.Fatalf("import: %d %.300s", res.Status, res.Body)
		}
	}
	b.ReportMetric(float64(len(data))/(1<<20), "MiB-package")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
}
