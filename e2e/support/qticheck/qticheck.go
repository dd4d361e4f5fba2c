// Package qticheck reads a QTI 2.1 content package back for the tests (unit
// and e2e): every XML file must be well-formed, identifiers unique, correct
// responses must name a choice, every referenced file must be in the
// package and the manifest must list every file. It is the package as a
// QTI player would see it, decoded with encoding/xml only.
package qticheck

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// Item is what an assessmentItem says.
type Item struct {
	Identifier  string
	Title       string
	Href        string
	Interaction string   // "choice" or "textEntry"
	Text        string   // the stem's paragraphs, one per line
	Choices     []string // in order
	Correct     []string // choice texts (choice) or accepted answers (textEntry: the mapping's keys)
	Template    string
	Feedback    string   // the modal feedback's paragraphs
	Rubric      []string // the tutors' rubric paragraphs
	Images      []string // package paths of the stem's then the feedback's images
}

// Package is what a QTI package says.
type Package struct {
	TestTitle string
	TestRefs  []string // item identifiers in the test's order
	Items     map[string]Item
	Files     map[string][]byte
}

type para struct {
	Text string `xml:",chardata"`
	Img  *struct {
		Src string `xml:"src,attr"`
	} `xml:"img"`
	TextEntry *struct {
		Response string `xml:"responseIdentifier,attr"`
	} `xml:"textEntryInteraction"`
}

type item struct {
	Identifier string `xml:"identifier,attr"`
	Title      string `xml:"title,attr"`
	Response   struct {
		Identifier string   `xml:"identifier,attr"`
		BaseType   string   `xml:"baseType,attr"`
		Correct    []string `xml:"correctResponse>value"`
		Mapping    []struct {
			Key string `xml:"mapKey,attr"`
		} `xml:"mapping>mapEntry"`
	} `xml:"responseDeclaration"`
	Body struct {
		Paras  []para `xml:"p"`
		Choice *struct {
			Response string `xml:"responseIdentifier,attr"`
			Choices  []struct {
				Identifier string `xml:"identifier,attr"`
				Text       string `xml:",chardata"`
			} `xml:"simpleChoice"`
		} `xml:"choiceInteraction"`
		Rubric []para `xml:"rubricBlock>p"`
	} `xml:"itemBody"`
	Processing struct {
		Template string `xml:"template,attr"`
	} `xml:"responseProcessing"`
	Feedback []para `xml:"modalFeedback>p"`
}

type test struct {
	Title string `xml:"title,attr"`
	Refs  []struct {
		Identifier string `xml:"identifier,attr"`
		Href       string `xml:"href,attr"`
	} `xml:"testPart>assessmentSection>assessmentItemRef"`
}

type file struct {
	Href string `xml:"href,attr"`
}

type resource struct {
	Identifier   string `xml:"identifier,attr"`
	Type         string `xml:"type,attr"`
	Href         string `xml:"href,attr"`
	Files        []file `xml:"file"`
	Dependencies []struct {
		Ref string `xml:"identifierref,attr"`
	} `xml:"dependency"`
}

type manifest struct {
	Resources []resource `xml:"resources>resource"`
}

func decode(data []byte, v any) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return d.DecodeElement(v, &se)
		}
	}
}

// wellFormed reads every token of an XML file.
func wellFormed(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// Read checks a package and says what it holds.
func Read(data []byte) (*Package, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	pkg := &Package{Items: map[string]Item{}, Files: map[string][]byte{}}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		if _, dup := pkg.Files[f.Name]; dup {
			return nil, fmt.Errorf("%s is in the package twice", f.Name)
		}
		pkg.Files[f.Name] = b
		if strings.HasSuffix(f.Name, ".xml") {
			if err := wellFormed(b); err != nil {
				return nil, fmt.Errorf("%s is not well-formed: %w", f.Name, err)
			}
		}
	}
	var m manifest
	if err := decode(pkg.Files["imsmanifest.xml"], &m); err != nil {
		return nil, fmt.Errorf("imsmanifest.xml: %w", err)
	}
	listed := map[string]bool{"imsmanifest.xml": true}
	ids := map[string]bool{}
	var testHref string
	for _, r := range m.Resources {
		if ids[r.Identifier] {
			return nil, fmt.Errorf("identifier %s is used twice", r.Identifier)
		}
		ids[r.Identifier] = true
		for _, f := range r.Files {
			if _, ok := pkg.Files[f.Href]; !ok {
				return nil, fmt.Errorf("the manifest lists %s, which is not in the package", f.Href)
			}
			listed[f.Href] = true
		}
		switch r.Type {
		case "imsqti_test_xmlv2p1":
			testHref = r.Href
			for _, d := range r.Dependencies {
				if !slices.ContainsFunc(m.Resources, func(o resource) bool { return o.Identifier == d.Ref }) {
					return nil, fmt.Errorf("the test depends on %s, which the manifest lacks", d.Ref)
				}
			}
		case "imsqti_item_xmlv2p1":
			it, err := readItem(pkg, r.Href)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Href, err)
			}
			if it.Identifier != r.Identifier {
				return nil, fmt.Errorf("%s is %s in the manifest, %s in the item", r.Href, r.Identifier, it.Identifier)
			}
			for _, img := range it.Images {
				if !slices.Contains(r.Files, file{img}) {
					return nil, fmt.Errorf("%s shows %s, which its resource does not list", r.Href, img)
				}
			}
			pkg.Items[it.Identifier] = *it
		default:
			return nil, fmt.Errorf("resource %s has type %q", r.Identifier, r.Type)
		}
	}
	for name := range pkg.Files {
		if !listed[name] {
			return nil, fmt.Errorf("%s is in the package but not in the manifest", name)
		}
	}
	var t test
	if err := decode(pkg.Files[testHref], &t); err != nil {
		return nil, fmt.Errorf("test %q: %w", testHref, err)
	}
	pkg.TestTitle = t.Title
	for _, r := range t.Refs {
		it, ok := pkg.Items[r.Identifier]
		if !ok || it.Href != path.Join(path.Dir(testHref), r.Href) {
			return nil, fmt.Errorf("the test refers to %s at %s, which the manifest does not hold", r.Identifier, r.Href)
		}
		pkg.TestRefs = append(pkg.TestRefs, r.Identifier)
	}
	if len(pkg.TestRefs) != len(pkg.Items) {
		return nil, fmt.Errorf("the test refers to %d items, the manifest holds %d", len(pkg.TestRefs), len(pkg.Items))
	}
	return pkg, nil
}

func readItem(pkg *Package, href string) (*Item, error) {
	var x item
	if err := decode(pkg.Files[href], &x); err != nil {
		return nil, err
	}
	it := &Item{Identifier: x.Identifier, Title: x.Title, Href: href, Template: x.Processing.Template}
	img := func(p para) error {
		if p.Img == nil {
			return nil
		}
		full := path.Join(path.Dir(href), p.Img.Src)
		if _, ok := pkg.Files[full]; !ok || strings.HasPrefix(full, "..") {
			return fmt.Errorf("image %s is not in the package", p.Img.Src)
		}
		it.Images = append(it.Images, full)
		return nil
	}
	var lines, entries []string
	for _, p := range x.Body.Paras {
		if err := img(p); err != nil {
			return nil, err
		}
		if p.TextEntry != nil {
			entries = append(entries, p.TextEntry.Response)
		}
		if t := strings.TrimSpace(p.Text); t != "" {
			lines = append(lines, t)
		}
	}
	it.Text = strings.Join(lines, "\n")
	lines = nil
	for _, p := range x.Feedback {
		if err := img(p); err != nil {
			return nil, err
		}
		if t := strings.TrimSpace(p.Text); t != "" {
			lines = append(lines, t)
		}
	}
	it.Feedback = strings.Join(lines, "\n")
	for _, p := range x.Body.Rubric {
		it.Rubric = append(it.Rubric, strings.TrimSpace(p.Text))
	}
	switch {
	case x.Body.Choice != nil:
		it.Interaction = "choice"
		if x.Body.Choice.Response != x.Response.Identifier {
			return nil, fmt.Errorf("the interaction answers %s, the declaration is %s", x.Body.Choice.Response, x.Response.Identifier)
		}
		byID := map[string]string{}
		for _, c := range x.Body.Choice.Choices {
			if _, dup := byID[c.Identifier]; dup {
				return nil, fmt.Errorf("choice %s is used twice", c.Identifier)
			}
			byID[c.Identifier] = c.Text
			it.Choices = append(it.Choices, c.Text)
		}
		for _, v := range x.Response.Correct {
			text, ok := byID[v]
			if !ok {
				return nil, fmt.Errorf("the correct response %s is no choice", v)
			}
			it.Correct = append(it.Correct, text)
		}
	case len(entries) == 1:
		it.Interaction = "textEntry"
		if entries[0] != x.Response.Identifier {
			return nil, fmt.Errorf("the interaction answers %s, the declaration is %s", entries[0], x.Response.Identifier)
		}
		for _, e := range x.Response.Mapping {
			it.Correct = append(it.Correct, e.Key)
		}
		if len(x.Response.Correct) != 1 || !slices.Contains(it.Correct, x.Response.Correct[0]) {
			return nil, fmt.Errorf("the correct response %v is not among the mapped answers", x.Response.Correct)
		}
	default:
		return nil, fmt.Errorf("the item has no choice or text entry interaction")
	}
	if len(it.Correct) == 0 {
		return nil, fmt.Errorf("the item has no correct response")
	}
	return it, nil
}
