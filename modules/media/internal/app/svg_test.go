package app

import (
	"strings"
	"testing"
)

const okSVG = `<svg viewBox="0 0 10 10"><rect x="1" y="1" width="5" height="5" fill="url(#g)"/></svg>`

func TestSanitiseKeepsAllowedDrawingAndInjectsXMLNS(t *testing.T) {
	out, err := SanitiseSVG([]byte(`<?xml version="1.0"?><!-- hi --><svg viewBox="0 0 10 10">`+
		`<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>`+
		`<rect width="5" height="5" fill="url(#g)"/><text x="1" y="2">a &lt; b</text></svg>`), 60000)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.HasPrefix(got, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">`) {
		t.Fatalf("xmlns not injected: %s", got)
	}
	if !strings.Contains(got, "a &lt; b") || strings.Contains(got, "hi") {
		t.Fatalf("text or comment mishandled: %s", got)
	}
}

func TestSanitiseRefusesEveryForbiddenConstruct(t *testing.T) {
	cases := map[string]string{
		"script":                 `<svg viewBox="0 0 1 1"><script>alert(1)</script></svg>`,
		"script mixed case":      `<svg viewBox="0 0 1 1"><ScRiPt>alert(1)</ScRiPt></svg>`,
		"namespaced script":      `<svg xmlns:s="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><s:script>x</s:script></svg>`,
		"foreignObject":          `<svg viewBox="0 0 1 1"><foreignObject><div/></foreignObject></svg>`,
		"iframe":                 `<svg viewBox="0 0 1 1"><iframe src="x"/></svg>`,
		"image":                  `<svg viewBox="0 0 1 1"><image href="#a"/></svg>`,
		"use":                    `<svg viewBox="0 0 1 1"><use href="#a"/></svg>`,
		"animate":                `<svg viewBox="0 0 1 1"><animate attributeName="href" to="javascript:x"/></svg>`,
		"set":                    `<svg viewBox="0 0 1 1"><set attributeName="onclick" to="x"/></svg>`,
		"style element":          `<svg viewBox="0 0 1 1"><style>*{background:url(http://x)}</style></svg>`,
		"onload":                 `<svg viewBox="0 0 1 1" onload="alert(1)"></svg>`,
		"onclick mixed case":     `<svg viewBox="0 0 1 1"><rect OnClIcK="x"/></svg>`,
		"remote url()":           `<svg viewBox="0 0 1 1"><rect fill="url(http://evil/x#a)"/></svg>`,
		"style url()":            `<svg viewBox="0 0 1 1"><rect style="fill:url( 'https://evil' )"/></svg>`,
		"escaped url in style":   `<svg viewBox="0 0 1 1"><rect style="fill:u\72l(https://evil)"/></svg>`,
		"entity-obfuscated url":  `<svg viewBox="0 0 1 1"><rect style="fill:&#117;rl(https://evil)"/></svg>`,
		"javascript in style":    `<svg viewBox="0 0 1 1"><rect style="x:javascript:alert(1)"/></svg>`,
		"xlink:href remote":      `<svg xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><linearGradient xlink:href="http://evil/#g"/></svg>`,
		"href javascript":        `<svg viewBox="0 0 1 1"><linearGradient href="javascript:alert(1)"/></svg>`,
		"href entity javascript": `<svg viewBox="0 0 1 1"><linearGradient href="&#106;avascript:alert(1)"/></svg>`,
		"xml:base":               `<svg viewBox="0 0 1 1" xml:base="http://evil/"></svg>`,
		"doctype":                `<!DOCTYPE svg [<!ENTITY x "y">]><svg viewBox="0 0 1 1">&x;</svg>`,
		"undeclared entity":      `<svg viewBox="0 0 1 1"><text>&x;</text></svg>`,
		"stylesheet PI":          `<?xml-stylesheet href="http://evil/x.css"?><svg viewBox="0 0 1 1"></svg>`,
		"no viewBox":             `<svg width="10" height="10"></svg>`,
		"not svg root":           `<html><svg viewBox="0 0 1 1"/></html>`,
		"two roots":              `<svg viewBox="0 0 1 1"></svg><svg viewBox="0 0 1 1"></svg>`,
		"foreign attribute":      `<svg xmlns:e="urn:evil" viewBox="0 0 1 1" e:x="1"></svg>`,
		"not XML":                `<svg viewBox="0 0 1 1"><rect></svg>`,
		"data uri in fill":       `<svg viewBox="0 0 1 1"><rect fill="data:image/png;base64,xx"/></svg>`,
		"too large":              `<svg viewBox="0 0 1 1">` + strings.Repeat(" ", 60000) + `</svg>`,
	}
	for name, in := range cases {
		if out, err := SanitiseSVG([]byte(in), 60000); err == nil {
			t.Errorf("%s: accepted as %s", name, out)
		}
	}
	if _, err := SanitiseSVG([]byte(okSVG), 60000); err != nil {
		t.Fatalf("plain drawing refused: %v", err)
	}
}

func TestDiagramRendersThroughTheSanitiser(t *testing.T) {
	row, col := 1, 2
	d := Diagram{Columns: 3, Boxes: []DiagramBox{{ID: "lv", Label: "Left <ventricle>"}, {ID: "ao", Label: "Aorta"},
		{ID: "body", Label: "Body & organs", Row: &row, Col: &col}},
		Arrows: []DiagramArrow{{From: "lv", To: "ao", Label: "systole"}, {From: "ao", To: "body"}},
		Groups: []DiagramGroup{{Label: "Heart", Boxes: []string{"lv"}}}}
	raw, err := d.Render()
	if err != nil {
		t.Fatal(err)
	}
	out, err := SanitiseSVG(raw, 60000)
	if err != nil {
		t.Fatalf("rendered diagram refused: %v\n%s", err, raw)
	}
	for _, want := range []string{"Left &lt;ventricle&gt;", "Body &amp; organs", `marker-end="url(#arrow)"`, "systole"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in %s", want, out)
		}
	}
	bad := []Diagram{
		{},
		{Boxes: []DiagramBox{{ID: "a", Label: ""}}},
		{Boxes: []DiagramBox{{ID: "a", Label: "x"}, {ID: "a", Label: "y"}}},
		{Boxes: []DiagramBox{{ID: "a", Label: "x"}}, Arrows: []DiagramArrow{{From: "a", To: "b"}}},
		{Boxes: []DiagramBox{{ID: "1bad", Label: "x"}}},
		{Columns: 9, Boxes: []DiagramBox{{ID: "a", Label: "x"}}},
		{Boxes: []DiagramBox{{ID: "a", Label: strings.Repeat("x", 81)}}},
	}
	for i, d := range bad {
		if _, err := d.Render(); err == nil {
			t.Errorf("bad diagram %d rendered", i)
		}
	}
}
