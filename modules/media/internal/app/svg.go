package app

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/roundsedu/rounds/platform/apperr"
)

const svgNS = "http://www.w3.org/2000/svg"

// svgElements are the elements a figure may hold: shapes, text, grouping,
// markers and gradients. Anything else (script, foreignObject, iframe,
// image, use, animate, set, style, a...) is refused.
var svgElements = set("svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line", "polyline",
	"polygon", "path", "text", "tspan", "marker", "lineargradient", "radialgradient", "stop")

// svgAttributes are the presentation and geometry attributes allowed.
var svgAttributes = set("id", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy",
	"width", "height", "viewbox", "d", "points", "fill", "fill-rule", "fill-opacity", "stroke", "stroke-width",
	"stroke-dasharray", "stroke-linecap", "stroke-linejoin", "stroke-opacity", "opacity", "transform",
	"font-size", "font-family", "font-weight", "font-style", "text-anchor", "dominant-baseline", "dx", "dy",
	"marker-start", "marker-mid", "marker-end", "markerwidth", "markerheight", "refx", "refy", "orient",
	"markerunits", "offset", "stop-color", "stop-opacity", "gradientunits", "gradienttransform", "spreadmethod",
	"style", "version", "preserveaspectratio", "role", "aria-label", "href")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	fragment = regexp.MustCompile(`^#[A-Za-z_][\w.-]{0,63}$`)
	// urlRef is every url(...) in a value; each must name a fragment.
	urlRef      = regexp.MustCompile(`(?i)url\s*\(\s*['"]?([^'")]*)['"]?\s*\)`)
	badCSSValue = regexp.MustCompile(`(?i)javascript:|vbscript:|data:|expression\s*\(|@import|behavior\s*:|-moz-binding|\\`)
)

func svgRefused(format string, args ...any) error {
	return apperr.Invalidf("svg", "the SVG is refused: "+format, args...)
}

// SanitiseSVG parses an SVG as XML tokens against the allowlists and writes
// it back out from the tokens: only allowed elements and attributes reach
// the output, DOCTYPE, entities and processing instructions are refused,
// every url() or href must be a same-document fragment, the root must be
// svg with a viewBox, and the xmlns is always written.
func SanitiseSVG(in []byte, max int) ([]byte, error) {
	if len(in) > max {
		return nil, apperr.BadRequestf("the SVG is larger than the limit of %d bytes", max)
	}
	dec := xml.NewDecoder(bytes.NewReader(in))
	dec.Strict = true
	dec.Entity = nil // only the five predefined entities
	var out bytes.Buffer
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, svgRefused("it is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if t.Name.Space != "" && t.Name.Space != svgNS {
				return nil, svgRefused("element %s:%s is outside the SVG namespace", t.Name.Space, t.Name.Local)
			}
			if !svgElements[name] {
				return nil, svgRefused("element <%s> is not allowed", t.Name.Local)
			}
			if depth == 0 {
				roots++
				if name != "svg" || roots > 1 {
					return nil, svgRefused("the document must be one <svg> element")
				}
			} else if name == "svg" {
				return nil, svgRefused("nested <svg> is not allowed")
			}
			out.WriteString("<" + t.Name.Local)
			if depth == 0 {
				out.WriteString(` xmlns="` + svgNS + `"`)
			}
			hasViewBox := false
			for _, a := range t.Attr {
				keep, err := checkAttr(a)
				if err != nil {
					return nil, err
				}
				if !keep {
					continue
				}
				local := strings.ToLower(a.Name.Local)
				hasViewBox = hasViewBox || local == "viewbox"
				out.WriteString(" " + a.Name.Local + `="`)
				_ = xml.EscapeText(&out, []byte(a.Value))
				out.WriteString(`"`)
			}
			if depth == 0 && !hasViewBox {
				return nil, svgRefused("the <svg> element needs a viewBox")
			}
			out.WriteString(">")
			depth++
		case xml.EndElement:
			depth--
			out.WriteString("</" + t.Name.Local + ">")
		case xml.CharData:
			if depth == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					return nil, svgRefused("text outside the <svg> element")
				}
				continue
			}
			_ = xml.EscapeText(&out, t)
		case xml.Comment:
			// dropped
		case xml.ProcInst:
			if t.Target != "xml" || out.Len() > 0 {
				return nil, svgRefused("processing instruction <?%s?> is not allowed", t.Target)
			}
		case xml.Directive:
			return nil, svgRefused("DOCTYPE and entity declarations are not allowed")
		}
	}
	if roots != 1 {
		return nil, svgRefused("the document must be one <svg> element")
	}
	if out.Len() > max {
		return nil, apperr.BadRequestf("the SVG is larger than the limit of %d bytes", max)
	}
	return out.Bytes(), nil
}

// checkAttr refuses what may run or fetch something; keep is false for
// namespace declarations (the output writes its own xmlns).
func checkAttr(a xml.Attr) (keep bool, err error) {
	local := strings.ToLower(a.Name.Local)
	switch {
	case a.Name.Space == "xmlns" || (a.Name.Space == "" && local == "xmlns"):
		return false, nil
	case strings.HasPrefix(local, "on"):
		return false, svgRefused("event handler attribute %s is not allowed", a.Name.Local)
	case a.Name.Space == "xml" || a.Name.Space == "http://www.w3.org/XML/1998/namespace":
		if local == "space" || local == "lang" {
			return false, nil
		}
		return false, svgRefused("attribute xml:%s is not allowed", a.Name.Local)
	case local == "href":
		if a.Name.Space != "" && a.Name.Space != "http://www.w3.org/1999/xlink" && a.Name.Space != "xlink" {
			return false, svgRefused("attribute %s:href is not allowed", a.Name.Space)
		}
		if !fragment.MatchString(strings.TrimSpace(a.Value)) {
			return false, svgRefused("href %q is not a same-document fragment", a.Value)
		}
		return true, nil
	case a.Name.Space != "" && a.Name.Space != svgNS:
		return false, svgRefused("attribute %s:%s is not allowed", a.Name.Space, a.Name.Local)
	case !svgAttributes[local]:
		return false, svgRefused("attribute %s is not allowed", a.Name.Local)
	}
	if badCSSValue.MatchString(a.Value) {
		return false, svgRefused("attribute %s holds a script, data or escaped reference", a.Name.Local)
	}
	for _, m := range urlRef.FindAllStringSubmatch(a.Value, -1) {
		if !fragment.MatchString(strings.TrimSpace(m[1])) {
			return false, svgRefused("url(%s) in %s is not a same-document fragment", m[1], a.Name.Local)
		}
	}
	// url( written with comments or odd spacing that the pattern above
	// did not take as a reference is refused outright.
	if strings.Count(strings.ToLower(a.Value), "url") != len(urlRef.FindAllString(a.Value, -1)) {
		return false, svgRefused("attribute %s holds a reference that cannot be read", a.Name.Local)
	}
	return true, nil
}
