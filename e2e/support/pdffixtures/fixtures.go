package pdffixtures

import (
	"fmt"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
)

func init() { api.DisableConfigDir() } // never write a pdfcpu config into $HOME

// PaperPages is the question paper: pages 1 to 3 hold seven numbered
// questions (inline answers in three styles, options one per line and all on
// one line, a wrapped stem, a fill-in question, one with no answer anywhere),
// page 3 ends with an answer section carrying keys and explanations, and page
// 4 is prose with no question at all.
var PaperPages = []Page{
	{
		"Cardiology Review Paper",
		"Choose the single best answer.",
		"1. Which chamber of the heart pumps oxygenated blood",
		"to the systemic circulation?",
		"A. Right atrium",
		"B. Right ventricle",
		"C. Left atrium",
		"D. Left ventricle",
		"Answer: D",
		"Explanation: The left ventricle ejects blood into the aorta.",
		"2. What is the normal resting heart rate in adults?",
		"A) 20-40 beats per minute",
		"B) 60-100 beats per minute",
		"C) 120-160 beats per minute",
		"D) 180-220 beats per minute",
		"Answer: B) 60-100 beats per minute",
		"3. Which drug class gives first-line symptom relief in stable angina?",
		"(A) Nitrates (B) Antibiotics (C) Antihistamines (D) Laxatives",
		"Correct answer: A",
	},
	{
		"4. Which electrolyte disturbance causes peaked T waves?",
		"A. Hyponatraemia",
		"B. Hypocalcaemia",
		"C. Hyperkalaemia",
		"D. Hypomagnesaemia",
		"5. Which artery most often supplies the sinoatrial node?",
		"a. Right coronary artery",
		"b. Left anterior descending artery",
		"c. Left circumflex artery",
		"6. Name the valve between the left atrium and the left ventricle.",
		"Answer: Mitral valve",
		"7. Which sound is heard in aortic stenosis?",
		"A. Ejection systolic murmur",
		"B. Pansystolic murmur",
		"C. Early diastolic murmur",
	},
	{
		"Answer Key",
		"4. C",
		"Explanation: Hyperkalaemia produces tall, peaked T waves.",
		"5. A - The right coronary artery supplies the node in most people.",
	},
	{
		"Notes for the reader",
		"This page summarises the cardiac cycle in prose. Systole follows",
		"diastole, and the valves open and close as pressures change.",
		"No questions appear on this page.",
	},
}

// PaperQuestions is how many questions PaperPages holds on pages 1 to 3.
const PaperQuestions = 7

// QuestionPaper is PaperPages as a compressed PDF.
func QuestionPaper() []byte { return Build(PaperPages, Options{Compress: true}) }

// LargePaper repeats the paper's question pages until it has n pages, each
// question numbered uniquely: the extraction benchmark's input.
func LargePaper(n int) []byte {
	pages := make([]Page, 0, n)
	q := 0
	for len(pages) < n {
		var p Page
		for i := 0; i < 8; i++ {
			q++
			p = append(p,
				fmt.Sprintf("%d. In case %d, which finding best supports the diagnosis of", q, q),
				"left ventricular failure in an older adult with breathlessness?",
				"A. Bibasal crackles", "B. Clear lung fields", "C. Low jugular pressure", "D. Normal heart size",
				"Answer: A", "Explanation: Crackles reflect pulmonary oedema from a failing left ventricle.")
		}
		pages = append(pages, p)
	}
	return Build(pages, Options{Compress: true})
}

// Dense is a PDF of n pages whose uncompressed content streams of
// numbered text lines add up to about size bytes: a large file the parser
// must read all of.
func Dense(n, size int) []byte {
	perPage := size / n
	line := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 2)
	pages := make([]Page, n)
	for i := range pages {
		for used := 0; used < perPage; used += len(line) + 16 {
			pages[i] = append(pages[i], line)
		}
	}
	return Build(pages, Options{})
}

// Sized is a valid one-page PDF of exactly size bytes (padded with a
// comment), for testing the upload limit at its edge.
func Sized(size int) []byte {
	base := Build([]Page{{"1. Padded question?", "A. Yes", "B. No", "Answer: A"}}, Options{})
	// The comment line adds its own length; offsets are recomputed by Build.
	extra := size - len(base)
	if extra < 2 {
		panic(fmt.Sprintf("pdffixtures: %d bytes is below the smallest padded PDF (%d)", size, len(base)+2))
	}
	out := Build([]Page{{"1. Padded question?", "A. Yes", "B. No", "Answer: A"}}, Options{Padding: extra})
	if len(out) != size {
		// The xref offsets grew by a digit; close the gap once more.
		out = Build([]Page{{"1. Padded question?", "A. Yes", "B. No", "Answer: A"}}, Options{Padding: extra - (len(out) - size)})
	}
	return out
}

// Malformed starts like a PDF but its body and cross-reference table are
// garbage.
func Malformed() []byte {
	return []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nthis is not a dictionary ]]] >>\n" +
		"xref\nnonsense\ntrailer\n<< /Root 9 0 R >>\nstartxref\n999999\n%%EOF\n")
}

// ZeroPages is a well-formed PDF whose page tree is empty.
func ZeroPages() []byte { return Build(nil, Options{}) }

// NotAPDF is a PNG image signature followed by text: what a renamed image
// looks like to a server that trusts the .pdf extension.
func NotAPDF() []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), []byte("this file was renamed to paper.pdf")...)
}
