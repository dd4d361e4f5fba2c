package interchange_test

// Measurement (not run by `go test` without -bench):
//
//	go test ./e2e/interchange/ -run '^$' -bench ImportMoodle -benchtime 3x
//
// BenchmarkImportMoodle10k posts a 10,000-question Moodle XML file (HTML
// texts, four options with feedback each, a category every 500 questions)
// to the real app over HTTP and reports the request's time, the file's
// size and the process's peak heap.

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/memstat"
)

func moodleQuestions(n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<quiz>\n")
	for i := 0; i < n; i++ {
		if i%500 == 0 {
			fmt.Fprintf(&b, `<question type="category"><category><text>$course$/top/Block %d</text></category></question>`+"\n", i/500)
		}
		fmt.Fprintf(&b, `<question type="multichoice"><name><text>Q%d</text></name>
<questiontext format="html"><text><![CDATA[<p>Question %d: which of these findings is <b>most</b> typical of condition %d?</p>]]></text></questiontext>
<generalfeedback format="html"><text><![CDATA[<p>Finding C is the classic sign of condition %d.</p>]]></text></generalfeedback>
<single>true</single>`, i, i, i, i)
		for j, o := range []string{"A", "B", "C", "D"} {
			frac := "0"
			if j == 2 {
				frac = "100"
			}
			fmt.Fprintf(&b, `<answer fraction="%s" format="html"><text>Finding %s of %d</text><feedback format="html"><text>Why %s.</text></feedback></answer>`, frac, o, i, o)
		}
		b.WriteString("<tags><tag><text>bench</text></tag></tags></question>\n")
	}
	b.WriteString("</quiz>\n")
	return b.String()
}

func BenchmarkImportMoodle10k(b *testing.B) {
	hh, err := harness.Start()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = hh.Stop() })
	m := hh.NewUser(auth.RoleModerator)
	file := moodleQuestions(10000)
	var peak uint64
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := memstat.HeapPeak()
		res := m.Client(hh).With("Content-Type", "application/xml").Post("/api/v1/drafts/import/moodle-xml", file)
		if p := stop(); p > peak {
			peak = p
		}
		if res.Status != 201 || res.Map()["imported"].(float64) != 10000 {
			b.Fatalf("import: %d %.300s", res.Status, res.Body)
		}
	}
	b.ReportMetric(float64(len(file))/(1<<20), "MiB-file")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
}
