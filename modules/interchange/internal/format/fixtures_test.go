package format

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fixture reads one of Moodle's own fixtures (testdata/moodle/README.md).
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "moodle", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMoodleFixtures(t *testing.T) {
	got, err := ReadMoodle(bytes.NewReader(fixture(t, "sample_questions_with_old_image_tag.xml")), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Questions) != 1 || len(got.Refused) != 1 || !strings.Contains(got.Refused[0].Reason, `"cloze" is not supported`) {
		t.Fatalf("old image tag: %+v %+v", got.Questions, got.Refused)
	}
	q := got.Questions[0]
	if q.Text != `This is a multichoice question with an image in the old "image" field that was used in Moodle 1.9` ||
		!slices.Equal(q.Options, []string{"wrong answer", "another wrong answer", "right answer"}) || q.CorrectAnswer != "right answer" ||
		q.Category != "Default for Test images in backup" || q.Image == nil || q.Image.Name != "moodle.png" ||
		!bytes.HasPrefix(q.Image.Data, []byte("\x89PNG")) || len(q.Image.Data) < 500 {
		t.Fatalf("mcq with image: %+v", q)
	}

	got, err = ReadMoodle(bytes.NewReader(fixture(t, "error_invalid_grades.xml")), lim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Questions) != 0 || len(got.Refused) != 1 || got.Refused[0].Name != "Question with <strong>invalid grades</strong> : x > 1 & x < 2" {
		t.Fatalf("invalid grades: %+v", got.Refused)
	}

	got, err = ReadGIFT(bytes.NewReader(fixture(t, "questions.gift.txt")), lim)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, q := range got.Questions {
		names = append(names, q.Name)
	}
	if !slices.Equal(names, []string{"Q2", "Q1", "2-08 TSL", "2-08 TSL"}) {
		t.Fatalf("GIFT imported %q, refused %+v", names, got.Refused)
	}
	if q := got.Questions[1]; q.CorrectAnswer != "False" || q.Explanation != "This is, of course, a Hitchiker's Guide to the Galaxy reference." {
		t.Fatalf("true/false: %+v", q)
	}
	refused := map[string]bool{}
	for _, r := range got.Refused {
		refused[r.Name] = true
	}
	for _, n := range []string{"Q8", "Moodle activities", "colours", "Q5", "Shortanswer"} {
		if !refused[n] {
			t.Errorf("%s not refused by name: %+v", n, got.Refused)
		}
	}
}

// fractions are Moodle's question_bank::fraction_options_full() in
// percent (lib/questionlib.php), negatives included.
var fractions = []float64{100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667,
	14.28571, 12.5, 11.11111, 10, 5, 0}

type rText struct {
	Format string `xml:"format,attr"`
	Text   string `xml:"text"`
	Files  []struct {
		Name     string `xml:"name,attr"`
		Path     string `xml:"path,attr"`
		Encoding string `xml:"encoding,attr"`
		Data     string `xml:",chardata"`
	} `xml:"file"`
}

type rQuestion struct {
	Type            string `xml:"type,attr"`
	Name            string `xml:"name>text"`
	QuestionText    rText  `xml:"questiontext"`
	GeneralFeedback rText  `xml:"generalfeedback"`
	Single          string `xml:"single"`
	Answers         []struct {
		Fraction string `xml:"fraction,attr"`
		Format   string `xml:"format,attr"`
		Text     string `xml:"text"`
	} `xml:"answer"`
}

var pluginSrc = regexp.MustCompile(`src="@@PLUGINFILE@@/([^"]+)"`)

// moodleRules checks an exported file against Moodle's importer
// (question/format/xml/format.php and question/format.php), the rules
// docs/decisions/interchange.md lists; each breach is described.
func moodleRules(data []byte) []string {
	var quiz struct {
		Questions []rQuestion `xml:"question"`
	}
	if err := xml.Unmarshal(data, &quiz); err != nil {
		return []string{"not XML: " + err.Error()}
	}
	var bad []string
	fail := func(q rQuestion, f string, a ...any) { bad = append(bad, q.Name+": "+fmt.Sprintf(f, a...)) }
	for _, q := range quiz.Questions {
		if q.Type == "category" {
			continue
		}
		if n := len([]rune(q.Name)); n == 0 || n > 255 {
			fail(q, "a name of %d characters (1 to 255)", n)
		}
		for _, t := range []rText{q.QuestionText, q.GeneralFeedback} {
			if t.Format != "html" {
				fail(q, "text format %q, not html", t.Format)
			}
			for _, m := range pluginSrc.FindAllStringSubmatch(t.Text, -1) {
				name, _ := url.PathUnescape(m[1])
				i := slices.IndexFunc(t.Files, func(f struct {
					Name     string `xml:"name,attr"`
					Path     string `xml:"path,attr"`
					Encoding string `xml:"encoding,attr"`
					Data     string `xml:",chardata"`
				}) bool {
					return f.Name == name
				})
				if i < 0 {
					fail(q, "@@PLUGINFILE@@/%s has no <file> in its text", name)
					continue
				}
				f := t.Files[i]
				if _, err := base64.StdEncoding.DecodeString(f.Data); err != nil || f.Encoding != "base64" || f.Path != "/" {
					fail(q, "file %s: encoding %q path %q", name, f.Encoding, f.Path)
				}
			}
		}
		full := 0
		for _, a := range q.Answers {
			v, err := strconv.ParseFloat(a.Fraction, 64)
			if err != nil || !slices.ContainsFunc(fractions, func(f float64) bool { return math.Abs(math.Abs(v)-f) < 0.00001*100 }) {
				fail(q, "fraction %q is not one of Moodle's grades", a.Fraction)
			}
			if v == 100 {
				full++
			}
		}
		switch q.Type {
		case "multichoice":
			if q.Single != "true" || full != 1 || len(q.Answers) < 2 {
				fail(q, "multichoice: single %q, %d answers at 100 of %d", q.Single, full, len(q.Answers))
			}
		case "shortanswer":
			if full == 0 {
				fail(q, "shortanswer with no answer at 100")
			}
		default:
			fail(q, "type %q", q.Type)
		}
	}
	return bad
}

func TestMoodleExportFollowsMoodlesImporter(t *testing.T) {
	qs := append([]Question(nil), sample...)
	qs[2].Name = strings.Repeat("long name ", 40)
	var buf bytes.Buffer
	if err := WriteMoodle(&buf, qs); err != nil {
		t.Fatal(err)
	}
	if bad := moodleRules(buf.Bytes()); len(bad) > 0 {
		t.Fatalf("Moodle would refuse:\n%s\n%s", strings.Join(bad, "\n"), buf.String())
	}
	if !strings.Contains(buf.String(), `<file name="heart.png" path="/" encoding="base64">`) {
		t.Fatalf("no picture file:\n%s", buf.String())
	}
	// The checker itself refuses what Moodle refuses.
	for _, broken := range []string{`fraction="100"`, `encoding="base64"`, `format="html"`} {
		repl := map[string]string{`fraction="100"`: `fraction="33"`, `encoding="base64"`: `encoding="hex"`, `format="html"`: `format="plain_text"`}[broken]
		if bad := moodleRules(bytes.Replace(buf.Bytes(), []byte(broken), []byte(repl), 1)); len(bad) == 0 {
			t.Errorf("the checker accepts %s", repl)
		}
	}
}
