package format

import (
	"bytes"
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var lim = Limits{MaxQuestions: 100, MaxFieldBytes: 1 << 10, MaxOptions: 10, MaxPictureBytes: 64 << 10}

// tinyPNG is a 1×1 PNG.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

var sample = []Question{
	{Type: TypeMCQ, Name: "Chambers", Text: "Which chamber pumps **blood** to the body?\nPick one: a < b & c, 5 mg/m², CO₂\n\n- first\n- second",
		Image: &Picture{Name: "heart.png", Data: tinyPNG}, ExplanationImage: &Picture{Name: "aorta_1.png", Data: tinyPNG},
		Options:        []string{"Right atrium", "Left ventricle", "Left atrium"},
		OptionFeedback: []string{"No: the right atrium receives venous blood.", "Yes.", ""},
		CorrectAnswer:  "Left ventricle", Explanation: "The left ventricle ejects into the aorta.",
		Category: "Cardiology/Chambers", Tags: []string{"heart", "anatomy"}},
	{Type: TypeFillIn, Name: "Valve", Text: "Which valve lies between the left atrium and ventricle?",
		CorrectAnswer: "mitral|bicuspid", Explanation: "Two cusps.", Category: "Cardiology/Valves"},
	{Type: TypeMCQ, Name: "Q3", Text: "spaced ]]> text", Options: []string{"True", "False"},
		OptionFeedback: []string{"", ""}, CorrectAnswer: "False", Category: "Cardiology/Valves"},
}

func TestMoodleRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMoodle(&buf, sample); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMoodle(&buf, lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Refused) != 0 {
		t.Fatalf("refused %+v", got.Refused)
	}
	want := append([]Question(nil), sample...)
	want[1].OptionFeedback = nil
	if !reflect.DeepEqual(got.Questions, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got.Questions, want)
	}
}

const moodleFile = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Pharmacology</text></category></question>
  <question type="multichoice">
    <name><text>Beta blocker</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which drug is a <b>beta</b>&nbsp;blocker?</p><p>Choose one.<img src="@@PLUGINFILE@@/x.png"></p>]]></text>
      <file name="x.png" path="/" encoding="base64">iVBORw0KGgo=</file></questiontext>
    <generalfeedback format="html"><text>&lt;p&gt;Metoprolol is &amp;beta;1-selective.&lt;/p&gt;</text></generalfeedback>
    <single>true</single>
    <answer fraction="0" format="html"><text>Amlodipine</text><feedback><text>A calcium channel blocker.</text></feedback></answer>
    <answer fraction="100" format="html"><text>Metoprolol</text></answer>
    <tags><tag><text>drugs</text></tag></tags>
  </question>
  <question type="multichoice"><name><text>Multi</text></name><questiontext><text>Pick two</text></questiontext>
    <single>false</single><answer fraction="50"><text>a</text></answer><answer fraction="50"><text>b</text></answer></question>
  <question type="essay"><name><text>Essay</text></name><questiontext><text>Discuss.</text></questiontext></question>
  <question type="shortanswer"><name><text>Partial</text></name><questiontext><text>Name it</text></questiontext>
    <answer fraction="100"><text>x</text></answer><answer fraction="50"><text>y</text></answer></question>
  <question type="shortanswer"><name><text>Short</text></name><questiontext format="plain_text"><text>Name the drug</text></questiontext>
    <answer fraction="100"><text>aspirin</text></answer><answer fraction="0"><text>paracetamol</text><feedback><text>No.</text></feedback></answer></question>
  <question type="truefalse"><name><text>TF</text></name><questiontext><text>Aspirin is an NSAID.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>`

func TestMoodleRead(t *testing.T) {
	got, err := ReadMoodle(strings.NewReader(moodleFile), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Questions) != 3 {
		t.Fatalf("questions %+v", got.Questions)
	}
	q := got.Questions[0]
	if q.Text != "Which drug is a **beta** blocker?\n\nChoose one." || q.Explanation != "Metoprolol is β1-selective." ||
		q.Image == nil || q.Image.Name != "x.png" ||
		q.CorrectAnswer != "Metoprolol" || q.Category != "Pharmacology" || !reflect.DeepEqual(q.Tags, []string{"drugs"}) ||
		!reflect.DeepEqual(q.OptionFeedback, []string{"A calcium channel blocker.", ""}) {
		t.Fatalf("first question %+v", q)
	}
	if s := got.Questions[1]; s.Type != TypeFillIn || s.CorrectAnswer != "aspirin" {
		t.Fatalf("short answer %+v", s)
	}
	if tf := got.Questions[2]; !reflect.DeepEqual(tf.Options, []string{"True", "False"}) || tf.CorrectAnswer != "True" {
		t.Fatalf("true/false %+v", tf)
	}
	want := []Refusal{
		{2, "Multi", "several options may be right; the bank marks exactly one"},
		{3, "Essay", `question type "essay" is not supported (multichoice, truefalse and shortanswer are)`},
		{4, "Partial", "an answer has partial marks (50%); the bank marks answers right or wrong"},
	}
	if !reflect.DeepEqual(got.Refused, want) {
		t.Fatalf("refused %+v", got.Refused)
	}
}

func TestMoodleHostile(t *testing.T) {
	cases := map[string]struct {
		file string
		want error
	}{
		"billion laughs":    {`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><quiz>&lol2;</quiz>`, ErrDoctype},
		"external entity":   {`<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz><question type="shortanswer"><questiontext><text>&x;</text></questiontext></question></quiz>`, ErrDoctype},
		"undeclared entity": {`<quiz><question type="shortanswer"><questiontext><text>&x;</text></questiontext></question></quiz>`, ErrMalformed{}},
		"not xml":           {"%PDF-1.4", ErrMalformed{}},
		"wrong root":        {"<html></html>", ErrMalformed{}},
		"empty":             {"", ErrMalformed{}},
		"truncated":         {`<quiz><question type="shortanswer">`, ErrMalformed{}},
		"too many":          {"<quiz>" + strings.Repeat(`<question type="essay"/>`, 101) + "</quiz>", ErrTooMany{}},
	}
	for name, c := range cases {
		_, err := ReadMoodle(strings.NewReader(c.file), lim)
		if !errors.Is(err, c.want) && reflect.TypeOf(err) != reflect.TypeOf(c.want) {
			t.Errorf("%s: got %v, want %T", name, err, c.want)
		}
	}
	long := `<quiz><question type="shortanswer"><questiontext><text>` + strings.Repeat("a", 2000) +
		`</text></questiontext><answer fraction="100"><text>a</text></answer></question></quiz>`
	got, err := ReadMoodle(strings.NewReader(long), lim)
	if err != nil || len(got.Refused) != 1 || got.Refused[0].Reason != "a text is longer than 1024 bytes" {
		t.Fatalf("long field: %v %+v", err, got)
	}
}

func TestMoodlePictures(t *testing.T) {
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	q := func(text, files string) string {
		return `<quiz><question type="shortanswer"><name><text>P</text></name><questiontext format="html"><text><![CDATA[` + text +
			`]]></text>` + files + `</questiontext><answer fraction="100"><text>a</text></answer></question></quiz>`
	}
	small := lim
	small.MaxPictureBytes = 100
	cases := map[string]struct {
		file string
		lim  Limits
		why  string
	}{
		"from another site":   {q(`<img src="https://example.org/x.png">`, ""), lim, "from outside the file"},
		"a data URI":          {q(`<img src="data:image/png;base64,`+b64(tinyPNG)+`">`, ""), lim, "from outside the file"},
		"a file not held":     {q(`<img src="@@PLUGINFILE@@/gone.png">`, ""), lim, `picture "gone.png", which the file does not hold`},
		"not a picture":       {q(`<img src="@@PLUGINFILE@@/x.png">`, `<file name="x.png" encoding="base64">`+b64([]byte("<script>alert(1)</script>"))+`</file>`), lim, "not a PNG, JPEG or WebP"},
		"over the bound":      {q(`<img src="@@PLUGINFILE@@/x.png">`, `<file name="x.png" encoding="base64">`+b64(append(tinyPNG, make([]byte, 200)...))+`</file>`), small, "larger than 100 bytes"},
		"not base64":          {q(`<img src="@@PLUGINFILE@@/x.png">`, `<file name="x.png" encoding="base64">%%%%</file>`), lim, "not valid base64"},
		"two in the text":     {q(`<img src="@@PLUGINFILE@@/a.png"><img src="@@PLUGINFILE@@/b%20c.png">`, `<file name="a.png" encoding="base64">`+b64(tinyPNG)+`</file><file name="b c.png" encoding="base64">`+b64(tinyPNG)+`</file>`), lim, "shows 2 pictures"},
		"a picture as option": {`<quiz><question type="multichoice"><questiontext><text>Q</text></questiontext><answer fraction="100"><text><![CDATA[<img src="@@PLUGINFILE@@/a.png">]]></text></answer><answer fraction="0"><text>b</text></answer></question></quiz>`, lim, "options are text"},
	}
	for name, c := range cases {
		got, err := ReadMoodle(strings.NewReader(c.file), c.lim)
		if err != nil || len(got.Refused) != 1 || !strings.Contains(got.Refused[0].Reason, c.why) {
			t.Errorf("%s: %v %+v", name, err, got)
		}
	}
	got, err := ReadMoodle(strings.NewReader(q(`<p>See <img src="@@PLUGINFILE@@/b%20c.png"> H<sub>2</sub>O</p><script>x()</script>`,
		`<file name="b c.png" path="/" encoding="base64">`+b64(tinyPNG)+`</file>`)), lim)
	if err != nil || len(got.Questions) != 1 || got.Questions[0].Text != "See H₂O" || got.Questions[0].Image.Name != "b c.png" {
		t.Fatalf("escaped name: %v %+v", err, got)
	}
}

// The shortcut for texts of plain words gives what the converter gives.
func TestPlainParagraphAsConverted(t *testing.T) {
	for _, s := range []string{"Finding A of 12", "<p>Question 3: which is it?</p>", `<p dir="ltr" style="text-align: left;">2<br></p>`,
		"  spaced \n words ", "<p>Why A.</p>", "Ratio = 3:1"} {
		words, ok := plainParagraph(s)
		doc, _ := html.Parse(strings.NewReader(s))
		md, err := converter().ConvertNode(doc)
		if want := clean(string(md)); ok && (err != nil || clean(strings.Join(strings.Fields(words), " ")) != want) {
			t.Errorf("%q: shortcut %q, converter %q", s, words, want)
		}
	}
}
