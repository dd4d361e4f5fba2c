package format_test

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/support/qticheck"
	"github.com/roundsedu/rounds/modules/interchange/internal/format"
)

func TestWriteQTIParsesBack(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	items := []format.QTIItem{
		{ID: "item_1", Image: "images/1-heart.png", ExplanationImage: "images/1-heart.png", Question: format.Question{
			Type: format.TypeMCQ, Name: "Question 1", Text: "Which drug is a <beta> blocker?\n\nChoose one & only one.",
			Options: []string{"Amlodipine", "Metoprolol"}, OptionFeedback: []string{"A calcium channel blocker.", ""},
			CorrectAnswer: "Metoprolol", Explanation: "Metoprolol is β1-selective."}},
		{ID: "item_2", Question: format.Question{Type: format.TypeFillIn, Name: "Question 2", Text: "Name the drug",
			CorrectAnswer: "aspirin| ASA |Aspirin"}},
	}
	files := []format.File{{Name: "images/1-heart.png", Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(png)), nil
	}}}
	var buf bytes.Buffer
	if err := format.WriteQTI(&buf, "quiz_7", "Cardiology & co", items, files); err != nil {
		t.Fatal(err)
	}
	pkg, err := qticheck.Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if pkg.TestTitle != "Cardiology & co" || strings.Join(pkg.TestRefs, ",") != "item_1,item_2" {
		t.Fatalf("test: %q %v", pkg.TestTitle, pkg.TestRefs)
	}
	mcq := pkg.Items["item_1"]
	if mcq.Interaction != "choice" || strings.Join(mcq.Choices, "|") != "Amlodipine|Metoprolol" ||
		strings.Join(mcq.Correct, "|") != "Metoprolol" || mcq.Template != format.TemplateMatch {
		t.Fatalf("mcq: %+v", mcq)
	}
	if mcq.Text != "Which drug is a <beta> blocker?\nChoose one & only one." || mcq.Feedback != "Metoprolol is β1-selective." ||
		strings.Join(mcq.Images, ",") != "images/1-heart.png,images/1-heart.png" {
		t.Fatalf("mcq texts: %+v", mcq)
	}
	if strings.Join(mcq.Rubric, "|") != "Amlodipine: A calcium channel blocker." {
		t.Fatalf("rubric: %v", mcq.Rubric)
	}
	fill := pkg.Items["item_2"]
	if fill.Interaction != "textEntry" || strings.Join(fill.Correct, "|") != "aspirin|ASA" || fill.Template != format.TemplateMap {
		t.Fatalf("fill-in: %+v", fill)
	}
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	for _, f := range zr.File {
		if f.Name == "images/1-heart.png" {
			rc, _ := f.Open()
			got, _ := io.ReadAll(rc)
			if !bytes.Equal(got, png) {
				t.Fatal("the image's bytes changed")
			}
		}
	}
}
