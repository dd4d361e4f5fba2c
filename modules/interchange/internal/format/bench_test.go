package format

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkReadMoodle10k reads a 10,000-question file written by
// WriteMoodle (the reader alone; e2e/interchange measures the whole import).
func BenchmarkReadMoodle10k(b *testing.B) {
	qs := make([]Question, 10000)
	for i := range qs {
		qs[i] = Question{Type: TypeMCQ, Text: fmt.Sprintf("Question %d: which finding is most typical?", i),
			Options:        []string{"A", "B", "C", "D"},
			OptionFeedback: []string{"Why A.", "Why B.", "Why C.", "Why D."},
			CorrectAnswer:  "C", Explanation: "C is the classic sign.", Category: fmt.Sprintf("Block %d", i/500)}
	}
	var file bytes.Buffer
	if err := WriteMoodle(&file, qs); err != nil {
		b.Fatal(err)
	}
	lim := Limits{MaxQuestions: 20000, MaxFieldBytes: 10000, MaxOptions: 20}
	b.SetBytes(int64(file.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := ReadMoodle(bytes.NewReader(file.Bytes()), lim)
		if err != nil || len(res.Questions) != 10000 {
			b.Fatalf("%v %d", err, len(res.Questions))
		}
	}
}

// BenchmarkWriteQTI1k writes the items, test and manifest of a 1,000-question
// package (no images: the writer alone; e2e/interchange measures the export).
func BenchmarkWriteQTI1k(b *testing.B) {
	items := make([]QTIItem, 1000)
	for i := range items {
		items[i] = QTIItem{ID: fmt.Sprintf("item_%d", i), Question: Question{Type: TypeMCQ, Name: fmt.Sprintf("Question %d", i),
			Text: fmt.Sprintf("Question %d: which finding is most typical?", i), Options: []string{"A", "B", "C", "D"},
			OptionFeedback: []string{"Why A.", "Why B.", "Why C.", "Why D."}, CorrectAnswer: "C",
			Explanation: "C is the classic sign."}}
	}
	for b.Loop() {
		var buf bytes.Buffer
		if err := WriteQTI(&buf, "quiz_1", "Bench", items, nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len())/1e6, "MB/package")
	}
}
