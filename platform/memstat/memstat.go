// Package memstat measures memory for the benchmarks that report it beside
// time (uploads, imports, thumbnails): the peak of the Go heap in use while
// a piece of work runs.
package memstat

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// HeapPeak samples the Go heap in use every 2 ms until stop is called and
// returns the peak seen. Memory outside the Go heap (cgo) is not counted;
// a wasm module's linear memory is a Go allocation, so it is.
func HeapPeak() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}
