package app

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"runtime"
	"syscall"
	"testing"

	"github.com/roundsedu/rounds/platform/memstat"
)

// jpeg24MP is a 6000×4000 photo-like JPEG (smooth gradients with noise).
func jpeg24MP(b *testing.B) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 6000, 4000))
	seed := uint32(1)
	for y := 0; y < 4000; y++ {
		for x := 0; x < 6000; x++ {
			seed = seed*1664525 + 1013904223
			n := uint8(seed >> 28)
			img.Set(x, y, color.RGBA{uint8(x/24) + n, uint8(y/16) + n, uint8((x+y)/40) + n, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkThumbnail24MP times one derivative of a 24-megapixel JPEG:
// decode, Catmull-Rom scale, WebP encode (gen2brain/webp, wasm).
//
//	go test ./modules/media/internal/app/ -run '^$' -bench Thumbnail24MP -benchtime 3x
func BenchmarkThumbnail24MP(b *testing.B) {
	data := jpeg24MP(b)
	s := &Service{cfg: Config{MaxSide: 12000, MaxPixels: 40_000_000}}
	for _, w := range ThumbWidths {
		b.Run(map[int]string{256: "w256", 640: "w640"}[w], func(b *testing.B) {
			runtime.GC()
			stop := memstat.HeapPeak()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Thumbnail(data, w); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(stop())/(1<<20), "peak-heap-MiB")
			var ru syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			b.ReportMetric(float64(ru.Maxrss)/1024, "max-rss-MiB")
			b.ReportMetric(float64(len(data))/(1<<20), "jpeg-MiB")
		})
	}
}
