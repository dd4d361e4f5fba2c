package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sync"
)

// LogBuffer keeps every line the app logged (CaptureLog): a test reads
// what reached the log, from the access log's path to a failure's detail.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer for the app's JSON log handler.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything logged so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Mark is where the log stands now, for RecordsSince.
func (b *LogBuffer) Mark() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// Records decodes every line logged so far whose msg is msg ("" for all).
func (b *LogBuffer) Records(msg string) []map[string]any { return b.RecordsSince(0, msg) }

// RecordsSince is Records of the lines logged after mark (Mark).
func (b *LogBuffer) RecordsSince(mark int, msg string) []map[string]any {
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader([]byte(b.String()[mark:])))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil && (msg == "" || rec["msg"] == msg) {
			out = append(out, rec)
		}
	}
	return out
}

// CaptureLog keeps the app's log, info level and up, in the harness's Log.
func CaptureLog() Option { return func(s *setup) { s.captureLog = true } }
