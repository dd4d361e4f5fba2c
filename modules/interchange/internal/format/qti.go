package format

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strings"
)

// QTI 2.1 namespaces, resource types and the response processing templates
// the items use.
const (
	nsQTI          = "http://www.imsglobal.org/xsd/imsqti_v2p1"
	nsCP           = "http://www.imsglobal.org/xsd/imscp_v1p1"
	nsXSI          = "http://www.w3.org/2001/XMLSchema-instance"
	qtiSchemaLoc   = nsQTI + " http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
	cpSchemaLoc    = nsCP + " http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd"
	QTIItemType    = "imsqti_item_xmlv2p1"
	QTITestType    = "imsqti_test_xmlv2p1"
	TemplateMatch  = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"
	TemplateMap    = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"
	QTIManifest    = "imsmanifest.xml"
	QTITestFile    = "assessment-test.xml"
	qtiGeneralFeed = "GENERAL"
)

// QTIItem is one question of a QTI package: the question, its identifier
// (unique in the package, an XML name) and the package paths of its stem
// and explanation images ("" for none).
type QTIItem struct {
	Question
	ID               string
	Image            string
	ExplanationImage string
}

// Href is the item's file in the package.
func (it QTIItem) Href() string { return "items/" + it.ID + ".xml" }

// File is a file copied into an archive as it is written (an image),
// opened only when its turn comes so no two are held at once.
type File struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// CopyInto writes the file into the archive, deflated even when it is an
// image: a streamed entry is followed by a data descriptor, which some
// readers (Java's ZipInputStream) accept on deflated entries only.
func (f File) CopyInto(zw *zip.Writer) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dst, err := zw.Create(f.Name)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, rc)
	return err
}

// WriteQTI streams a QTI 2.1 content package to w: one assessmentItem per
// question, an assessmentTest referring to them in order, the files (the
// items' images) and the IMS CP manifest listing every one of them.
func WriteQTI(w io.Writer, testID, title string, items []QTIItem, files []File) error {
	zw := zip.NewWriter(w)
	put := func(name string, v any) error {
		f, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(f, xml.Header); err != nil {
			return err
		}
		enc := xml.NewEncoder(f)
		enc.Indent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		return enc.Close()
	}
	for _, it := range items {
		if err := put(it.Href(), qtiItem(it)); err != nil {
			return fmt.Errorf("qti: item %s: %w", it.ID, err)
		}
	}
	if err := put(QTITestFile, qtiTest(testID, title, items)); err != nil {
		return fmt.Errorf("qti: test: %w", err)
	}
	for _, f := range files {
		if err := f.CopyInto(zw); err != nil {
			return fmt.Errorf("qti: file %s: %w", f.Name, err)
		}
	}
	if err := put(QTIManifest, qtiManifest(testID, items)); err != nil {
		return fmt.Errorf("qti: manifest: %w", err)
	}
	return zw.Close()
}

// The assessmentItem, as encoding/xml writes it.
type (
	xItem struct {
		XMLName        xml.Name      `xml:"assessmentItem"`
		NS             string        `xml:"xmlns,attr"`
		XSI            string        `xml:"xmlns:xsi,attr"`
		SchemaLocation string        `xml:"xsi:schemaLocation,attr"`
		Identifier     string        `xml:"identifier,attr"`
		Title          string        `xml:"title,attr"`
		Adaptive       bool          `xml:"adaptive,attr"`
		TimeDependent  bool          `xml:"timeDependent,attr"`
		Response       xResponseDecl `xml:"responseDeclaration"`
		Outcomes       []xOutcome    `xml:"outcomeDeclaration"`
		Body           xBody         `xml:"itemBody"`
		Processing     xProcessing   `xml:"responseProcessing"`
		Feedback       *xModal       `xml:"modalFeedback,omitempty"`
	}
	xResponseDecl struct {
		Identifier  string    `xml:"identifier,attr"`
		Cardinality string    `xml:"cardinality,attr"`
		BaseType    string    `xml:"baseType,attr"`
		Correct     xValues   `xml:"correctResponse"`
		Mapping     *xMapping `xml:"mapping,omitempty"`
	}
	xValues struct {
		Values []string `xml:"value"`
	}
	xMapping struct {
		DefaultValue float64     `xml:"defaultValue,attr"`
		Entries      []xMapEntry `xml:"mapEntry"`
	}
	xMapEntry struct {
		Key           string  `xml:"mapKey,attr"`
		Value         float64 `xml:"mappedValue,attr"`
		CaseSensitive bool    `xml:"caseSensitive,attr"`
	}
	xOutcome struct {
		Identifier  string   `xml:"identifier,attr"`
		Cardinality string   `xml:"cardinality,attr"`
		BaseType    string   `xml:"baseType,attr"`
		Default     *xValues `xml:"defaultValue,omitempty"`
	}
	// xBody holds the item's blocks in order: paragraphs, images, the
	// interaction, the tutors' rubric.
	xBody struct {
		Blocks []any
	}
	// xP is a paragraph of text, an image or a text entry.
	xP struct {
		XMLName   xml.Name    `xml:"p"`
		Text      string      `xml:",chardata"`
		Img       *xImg       `xml:"img,omitempty"`
		TextEntry *xTextEntry `xml:"textEntryInteraction,omitempty"`
	}
	xImg struct {
		Src string `xml:"src,attr"`
		Alt string `xml:"alt,attr"`
	}
	xChoice struct {
		XMLName    xml.Name  `xml:"choiceInteraction"`
		Response   string    `xml:"responseIdentifier,attr"`
		Shuffle    bool      `xml:"shuffle,attr"`
		MaxChoices int       `xml:"maxChoices,attr"`
		MinChoices int       `xml:"minChoices,attr"`
		Choices    []xSimple `xml:"simpleChoice"`
	}
	xSimple struct {
		Identifier string `xml:"identifier,attr"`
		Text       string `xml:",chardata"`
	}
	xTextEntry struct {
		Response string `xml:"responseIdentifier,attr"`
	}
	xRubric struct {
		XMLName xml.Name `xml:"rubricBlock"`
		View    string   `xml:"view,attr"`
		Blocks  []any
	}
	xProcessing struct {
		Template string `xml:"template,attr"`
	}
	xModal struct {
		Outcome    string `xml:"outcomeIdentifier,attr"`
		Identifier string `xml:"identifier,attr"`
		ShowHide   string `xml:"showHide,attr"`
		Title      string `xml:"title,attr"`
		Blocks     []any
	}
)

// ChoiceID is the identifier of option i (0-based) of an item.
func ChoiceID(i int) string { return fmt.Sprintf("choice_%d", i+1) }

// paragraphs are a plain text's lines, each a <p> (the bank's texts are
// plain; a line break is a paragraph).
func paragraphs(text string) []any {
	var out []any
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, xP{Text: line})
		}
	}
	return out
}

// imageBlock refers to an image of the package relative to the item file.
func imageBlock(pkgPath, alt string) any {
	return xP{Img: &xImg{Src: relFromItems(pkgPath), Alt: alt}}
}

// relFromItems is a package path as seen from items/.
func relFromItems(p string) string { return "../" + path.Clean(p) }

func qtiItem(it QTIItem) xItem {
	out := xItem{NS: nsQTI, XSI: nsXSI, SchemaLocation: qtiSchemaLoc, Identifier: it.ID, Title: it.Name,
		Outcomes: []xOutcome{
			{Identifier: "SCORE", Cardinality: "single", BaseType: "float", Default: &xValues{[]string{"0"}}},
			{Identifier: "FEEDBACK", Cardinality: "single", BaseType: "identifier"},
		}}
	body := paragraphs(it.Text)
	if it.Image != "" {
		body = append(body, imageBlock(it.Image, "question image"))
	}
	if it.Type == TypeFillIn {
		alts := fillInAnswers(it.CorrectAnswer)
		m := &xMapping{}
		for _, a := range alts {
			m.Entries = append(m.Entries, xMapEntry{Key: a, Value: 1})
		}
		out.Response = xResponseDecl{Identifier: "RESPONSE", Cardinality: "single", BaseType: "string",
			Correct: xValues{alts[:min(1, len(alts))]}, Mapping: m}
		body = append(body, xP{TextEntry: &xTextEntry{Response: "RESPONSE"}})
		out.Processing = xProcessing{TemplateMap}
	} else {
		ch := xChoice{Response: "RESPONSE", MaxChoices: 1, MinChoices: 1}
		correct := ""
		for i, o := range it.Options {
			ch.Choices = append(ch.Choices, xSimple{Identifier: ChoiceID(i), Text: o})
			if o == it.CorrectAnswer {
				correct = ChoiceID(i)
			}
		}
		out.Response = xResponseDecl{Identifier: "RESPONSE", Cardinality: "single", BaseType: "identifier",
			Correct: xValues{[]string{correct}}}
		body = append(body, ch)
		out.Processing = xProcessing{TemplateMatch}
	}
	// The templates set SCORE only: per-option feedback cannot be chosen
	// by them, so it goes to the tutors' rubric.
	var notes []any
	for i, fb := range it.OptionFeedback {
		if fb = strings.TrimSpace(fb); fb != "" && i < len(it.Options) {
			notes = append(notes, xP{Text: it.Options[i] + ": " + fb})
		}
	}
	if len(notes) > 0 {
		body = append(body, xRubric{View: "tutor", Blocks: notes})
	}
	out.Body = xBody{Blocks: body}
	if it.Explanation != "" || it.ExplanationImage != "" {
		fb := paragraphs(it.Explanation)
		if it.ExplanationImage != "" {
			fb = append(fb, imageBlock(it.ExplanationImage, "explanation image"))
		}
		// FEEDBACK is never set by the template, so a "hide" feedback on
		// it is shown to every candidate once the item is answered.
		out.Feedback = &xModal{Outcome: "FEEDBACK", Identifier: qtiGeneralFeed, ShowHide: "hide",
			Title: "Explanation", Blocks: fb}
	}
	return out
}

// fillInAnswers are a fill-in question's accepted answers, without blanks
// or repeats (in any case: the mapping ignores case, as the bank's marking).
func fillInAnswers(correct string) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range strings.Split(correct, AnswerSeparator) {
		if a = strings.TrimSpace(a); a != "" && !seen[strings.ToLower(a)] {
			seen[strings.ToLower(a)] = true
			out = append(out, a)
		}
	}
	return out
}

// The assessmentTest.
type (
	xTest struct {
		XMLName        xml.Name  `xml:"assessmentTest"`
		NS             string    `xml:"xmlns,attr"`
		XSI            string    `xml:"xmlns:xsi,attr"`
		SchemaLocation string    `xml:"xsi:schemaLocation,attr"`
		Identifier     string    `xml:"identifier,attr"`
		Title          string    `xml:"title,attr"`
		Part           xTestPart `xml:"testPart"`
	}
	xTestPart struct {
		Identifier     string   `xml:"identifier,attr"`
		NavigationMode string   `xml:"navigationMode,attr"`
		SubmissionMode string   `xml:"submissionMode,attr"`
		Section        xSection `xml:"assessmentSection"`
	}
	xSection struct {
		Identifier string     `xml:"identifier,attr"`
		Title      string     `xml:"title,attr"`
		Visible    bool       `xml:"visible,attr"`
		Refs       []xItemRef `xml:"assessmentItemRef"`
	}
	xItemRef struct {
		Identifier string `xml:"identifier,attr"`
		Href       string `xml:"href,attr"`
	}
)

func qtiTest(id, title string, items []QTIItem) xTest {
	t := xTest{NS: nsQTI, XSI: nsXSI, SchemaLocation: qtiSchemaLoc, Identifier: id, Title: title,
		Part: xTestPart{Identifier: "part_1", NavigationMode: "nonlinear", SubmissionMode: "simultaneous",
			Section: xSection{Identifier: "section_1", Title: title, Visible: true}}}
	for _, it := range items {
		t.Part.Section.Refs = append(t.Part.Section.Refs, xItemRef{Identifier: it.ID, Href: it.Href()})
	}
	return t
}

// The IMS CP 1.1 manifest.
type (
	xManifest struct {
		XMLName        xml.Name    `xml:"manifest"`
		NS             string      `xml:"xmlns,attr"`
		XSI            string      `xml:"xmlns:xsi,attr"`
		SchemaLocation string      `xml:"xsi:schemaLocation,attr"`
		Identifier     string      `xml:"identifier,attr"`
		Metadata       xMetadata   `xml:"metadata"`
		Organizations  struct{}    `xml:"organizations"`
		Resources      []xResource `xml:"resources>resource"`
	}
	xMetadata struct {
		Schema        string `xml:"schema"`
		SchemaVersion string `xml:"schemaversion"`
	}
	xResource struct {
		Identifier   string        `xml:"identifier,attr"`
		Type         string        `xml:"type,attr"`
		Href         string        `xml:"href,attr"`
		Files        []xFile       `xml:"file"`
		Dependencies []xDependency `xml:"dependency"`
	}
	xFile struct {
		Href string `xml:"href,attr"`
	}
	xDependency struct {
		Ref string `xml:"identifierref,attr"`
	}
)

func qtiManifest(testID string, items []QTIItem) xManifest {
	m := xManifest{NS: nsCP, XSI: nsXSI, SchemaLocation: cpSchemaLoc, Identifier: "manifest_" + testID,
		Metadata: xMetadata{Schema: "QTIv2.1 Package", SchemaVersion: "1.0.0"}}
	test := xResource{Identifier: testID, Type: QTITestType, Href: QTITestFile, Files: []xFile{{QTITestFile}}}
	for _, it := range items {
		test.Dependencies = append(test.Dependencies, xDependency{it.ID})
	}
	m.Resources = append(m.Resources, test)
	for _, it := range items {
		r := xResource{Identifier: it.ID, Type: QTIItemType, Href: it.Href(), Files: []xFile{{it.Href()}}}
		if it.Image != "" {
			r.Files = append(r.Files, xFile{it.Image})
		}
		if it.ExplanationImage != "" && it.ExplanationImage != it.Image {
			r.Files = append(r.Files, xFile{it.ExplanationImage})
		}
		m.Resources = append(m.Resources, r)
	}
	return m
}
