package memstat

import "testing"

func TestHeapPeakSeesAnAllocationMadeWhileSampling(t *testing.T) {
	stop := HeapPeak()
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	peak := stop()
	if peak < 64<<20 {
		t.Errorf("peak %d bytes, want at least the 64 MiB held", peak)
	}
	_ = buf[len(buf)-1]
}
