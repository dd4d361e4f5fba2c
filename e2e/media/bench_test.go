package media_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/memstat"
)

// BenchmarkServeClip20MiB measures GET /uploads for a 20 MiB clip through
// HTTP on loopback: the whole file, then 1 MiB ranges across it.
//
//	go test ./e2e/media/ -run '^$' -bench ServeClip20MiB -benchtime 10x
func BenchmarkServeClip20MiB(b *testing.B) {
	hh, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = hh.Stop() }()
	m := hh.NewUser(auth.RoleModerator)
	art := m.Client(hh).Post(api+"/articles/", map[string]any{"title": "Bench", "status": "published",
		"sections": []map[string]any{{"id": "intro", "heading": "Intro", "markdown": "x"}}})
	if art.Status != 201 {
		b.Fatalf("article: %d %s", art.Status, art.Body)
	}
	clip := append(mp4("vide"), make([]byte, 20<<20-len(mp4("vide")))...)
	body, ct := formB(clip)
	up := m.Client(hh).With("Content-Type", ct).Post(fmt.Sprintf("%s/articles/%d/figures/image", api,
		int64(art.Map()["id"].(float64))), body)
	if up.Status != 201 {
		b.Fatalf("upload: %d %s", up.Status, up.Body)
	}
	url := hh.BaseURL + up.Map()["asset"].(map[string]any)["url"].(string)
	get := func(rng string) int64 {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		res, err := hh.HTTP.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		n, _ := io.Copy(io.Discard, res.Body)
		return n
	}
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(clip)))
		for i := 0; i < b.N; i++ {
			if n := get(""); n != int64(len(clip)) {
				b.Fatalf("got %d bytes", n)
			}
		}
	})
	b.Run("ranges-1MiB", func(b *testing.B) {
		b.SetBytes(1 << 20)
		for i := 0; i < b.N; i++ {
			start := (i % 20) << 20
			if n := get(fmt.Sprintf("bytes=%d-%d", start, start+1<<20-1)); n != 1<<20 {
				b.Fatalf("got %d bytes", n)
			}
		}
	})
}

// formB is form() without Gomega (benchmarks run outside Ginkgo).
func formB(data []byte) ([]byte, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.WriteField("section_id", "intro")
	_ = w.WriteField("caption", "Bench clip")
	fw, _ := w.CreateFormFile("file", "clip.mp4")
	_, _ = fw.Write(data)
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// BenchmarkUploadClip25MiB measures the Go heap an upload of a 25 MiB
// clip (the limit) adds: the body is streamed from a pipe, so the client
// holds none of it and the peak above the heap before is the server's.
//
//	go test ./e2e/media/ -run '^$' -bench UploadClip25MiB -benchtime 5x
func BenchmarkUploadClip25MiB(b *testing.B) {
	hh, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = hh.Stop() }()
	m := hh.NewUser(auth.RoleModerator)
	head := mp4("vide")
	var worst uint64
	for i := 0; i < b.N; i++ {
		art := m.Client(hh).Post(api+"/articles/", map[string]any{"title": fmt.Sprintf("Upload bench %d", i),
			"status": "draft", "sections": []map[string]any{{"id": "intro", "heading": "Intro", "markdown": "x"}}})
		if art.Status != 201 {
			b.Fatalf("article: %d %s", art.Status, art.Body)
		}
		pr, pw := io.Pipe()
		w := multipart.NewWriter(pw)
		go func() {
			_ = w.WriteField("section_id", "intro")
			_ = w.WriteField("caption", "Bench clip")
			fw, _ := w.CreateFormFile("file", "clip.mp4")
			_, _ = fw.Write(head)
			_, _ = io.CopyN(fw, zeros{}, 25<<20-int64(len(head)))
			_ = w.Close()
			_ = pw.Close()
		}()
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s%s/articles/%d/figures/image", hh.BaseURL, api,
			int64(art.Map()["id"].(float64))), pr)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		req.Header.Set("Content-Type", w.FormDataContentType())
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		stop := memstat.HeapPeak()
		res, err := hh.HTTP.Do(req)
		peak := stop()
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		if res.StatusCode != 201 {
			b.Fatalf("upload: %d", res.StatusCode)
		}
		if peak > ms.HeapInuse && peak-ms.HeapInuse > worst {
			worst = peak - ms.HeapInuse
		}
	}
	b.ReportMetric(float64(worst)/(1<<20), "MiB-heap-added")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
