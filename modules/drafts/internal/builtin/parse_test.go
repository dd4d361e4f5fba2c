package builtin

import (
	"reflect"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/modules/drafts/extraction"
)

func pagesOf(pp []pdffixtures.Page) []extraction.Page {
	out := make([]extraction.Page, len(pp))
	for i, p := range pp {
		out[i] = extraction.Page{Number: i + 1, Text: strings.Join(p, "\n")}
	}
	return out
}

func TestParseThePaper(t *testing.T) {
	got := Parse(pagesOf(pdffixtures.PaperPages))
	want := []extraction.Question{
		{Type: "mcq", Page: 1, Text: "Which chamber of the heart pumps oxygenated blood to the systemic circulation?",
			Options:       []string{"Right atrium", "Right ventricle", "Left atrium", "Left ventricle"},
			CorrectAnswer: "Left ventricle", Explanation: "The left ventricle ejects blood into the aorta."},
		{Type: "mcq", Page: 1, Text: "What is the normal resting heart rate in adults?",
			Options:       []string{"20-40 beats per minute", "60-100 beats per minute", "120-160 beats per minute", "180-220 beats per minute"},
			CorrectAnswer: "60-100 beats per minute"},
		{Type: "mcq", Page: 1, Text: "Which drug class gives first-line symptom relief in stable angina?",
			Options:       []string{"Nitrates", "Antibiotics", "Antihistamines", "Laxatives"},
			CorrectAnswer: "Nitrates"},
		{Type: "mcq", Page: 2, Text: "Which electrolyte disturbance causes peaked T waves?",
			Options:       []string{"Hyponatraemia", "Hypocalcaemia", "Hyperkalaemia", "Hypomagnesaemia"},
			CorrectAnswer: "Hyperkalaemia", Explanation: "Hyperkalaemia produces tall, peaked T waves."},
		{Type: "mcq", Page: 2, Text: "Which artery most often supplies the sinoatrial node?",
			Options:       []string{"Right coronary artery", "Left anterior descending artery", "Left circumflex artery"},
			CorrectAnswer: "Right coronary artery", Explanation: "The right coronary artery supplies the node in most people."},
		{Type: "fill_in", Page: 2, Text: "Name the valve between the left atrium and the left ventricle.",
			CorrectAnswer: "Mitral valve"},
		{Type: "mcq", Page: 2, Text: "Which sound is heard in aortic stenosis?",
			Options: []string{"Ejection systolic murmur", "Pansystolic murmur", "Early diastolic murmur"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d questions, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("question %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	if len(got) != pdffixtures.PaperQuestions {
		t.Errorf("PaperQuestions = %d, parsed %d", pdffixtures.PaperQuestions, len(got))
	}
}

func TestProseHasNoQuestions(t *testing.T) {
	if got := Parse(pagesOf(pdffixtures.PaperPages[3:])); len(got) != 0 {
		t.Fatalf("prose gave %+v", got)
	}
}

func parseText(pages ...string) []extraction.Question {
	in := make([]extraction.Page, len(pages))
	for i, p := range pages {
		in[i] = extraction.Page{Number: i + 1, Text: p}
	}
	return Parse(in)
}

func TestCompactKeyAndPageNumbers(t *testing.T) {
	got := parseText(
		"1. First?\nA. one\nB. two\n2",
		"Q2: Second?\nA) three\nB) four\nPage 3 of 4",
		"Answers\n1-B 2-A",
	)
	if len(got) != 2 || got[0].CorrectAnswer != "two" || got[1].CorrectAnswer != "three" {
		t.Fatalf("got %+v", got)
	}
	if got[0].Options[1] != "two" {
		t.Fatalf("page number leaked into an option: %q", got[0].Options[1])
	}
}

func TestNumberedListInsideAStem(t *testing.T) {
	got := parseText("5. Which statements are true?\n1. the first\n2. the second\nA. 1 only\nB. 1 and 2\nAnswer: B")
	if len(got) != 1 {
		t.Fatalf("got %d questions: %+v", len(got), got)
	}
	if got[0].Text != "Which statements are true? 1. the first 2. the second" || got[0].CorrectAnswer != "1 and 2" {
		t.Fatalf("got %+v", got[0])
	}
}

func TestUnresolvableAnswerIsKeptAsWritten(t *testing.T) {
	got := parseText("1. Pick one?\nA. red\nB. blue\nAnswer: F")
	if got[0].CorrectAnswer != "F" {
		t.Fatalf("got %q", got[0].CorrectAnswer)
	}
}

func TestOptionsDoNotRunOntoTheNextPage(t *testing.T) {
	got := parseText("1. Pick one?\nA. red\nB. blue", "Chapter two begins here with prose.")
	if got[0].Options[1] != "blue" {
		t.Fatalf("option swallowed the next page: %q", got[0].Options[1])
	}
}

func TestStemStartingWithAnArticleIsNotAnOption(t *testing.T) {
	got := parseText("1. Read the case.\nA 45-year-old man has chest pain. What next?\nA. ECG\nB. Discharge\nAnswer: A")
	if len(got[0].Options) != 2 || !strings.Contains(got[0].Text, "45-year-old") || got[0].CorrectAnswer != "ECG" {
		t.Fatalf("got %+v", got[0])
	}
}

func TestQuestionNumbersPast9999(t *testing.T) {
	got := parseText(
		"9999. Last of the old range?\nA. yes\nB. no\n10000. First past it?\nA. red\nB. blue\nAnswer: B",
		"123456789) Far along?\nA. near\nB. far",
		"Answer Key\n9999. A\n123456789 B",
	)
	if len(got) != 3 {
		t.Fatalf("got %d questions: %+v", len(got), got)
	}
	want := []struct{ text, answer string }{{"Last of the old range?", "yes"}, {"First past it?", "blue"}, {"Far along?", "far"}}
	for i, w := range want {
		if got[i].Text != w.text || got[i].CorrectAnswer != w.answer {
			t.Errorf("question %d: got %q answer %q, want %q answer %q", i, got[i].Text, got[i].CorrectAnswer, w.text, w.answer)
		}
	}
}
