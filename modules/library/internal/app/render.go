package app

import (
	"bytes"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/roundsedu/rounds/modules/library/internal/store"
)

// md renders markdown in goldmark's default safe mode: raw HTML is
// omitted and dangerous link schemes (javascript:, vbscript:, file:,
// data: other than images) lose their destination.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// xrefPattern is a cross-reference: [[slug]], [[slug#section]], either
// with |label.
var xrefPattern = regexp.MustCompile(`\[\[([^\[\]\n]{1,300})\]\]`)

// Link is a cross-reference found in a section.
type Link struct {
	Section string // the key of the section it is in
	Target  string // as written: slug or slug#section
}

// BrokenLink is a cross-reference whose target does not exist.
type BrokenLink struct {
	Link
	Reason string
}

// xref is a parsed cross-reference.
type xref struct{ slug, section, label string }

func parseXref(inner string) xref {
	var x xref
	target := inner
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		target, x.label = inner[:i], strings.TrimSpace(inner[i+1:])
	}
	target = strings.TrimSpace(target)
	x.slug, x.section, _ = strings.Cut(target, "#")
	x.slug, x.section = strings.TrimSpace(x.slug), strings.TrimSpace(x.section)
	return x
}

// xrefSlugs lists the slugs the sections' cross-references name.
func xrefSlugs(secs []store.Section) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range secs {
		for _, m := range xrefPattern.FindAllStringSubmatch(s.Markdown, -1) {
			if x := parseXref(m[1]); x.slug != "" && !seen[x.slug] {
				seen[x.slug] = true
				out = append(out, x.slug)
			}
		}
	}
	return out
}

// renderSections fills each section's HTML, turning cross-references
// whose target exists into links to the target's current slug and
// listing the ones whose target is missing (they stay as written). The
// HTML is stored once for every reader: in a published article (public)
// a target that is not published is left as written too, since its title,
// slug and sections are not the learners' to read.
func renderSections(secs []store.Section, targets map[string]*store.Target, public bool) (links []Link, broken []BrokenLink, err error) {
	for i := range secs {
		s := &secs[i]
		src := xrefPattern.ReplaceAllStringFunc(s.Markdown, func(m string) string {
			inner := m[2 : len(m)-2]
			x := parseXref(inner)
			l := Link{Section: s.Key, Target: strings.TrimSpace(strings.SplitN(inner, "|", 2)[0])}
			t := targets[x.slug]
			switch {
			case x.slug == "" || t == nil:
				broken = append(broken, BrokenLink{Link: l, Reason: "no article has this slug"})
				return m
			case public && t.Status != StatusPublished:
				broken = append(broken, BrokenLink{Link: l, Reason: "the article is not published, so readers of this one may not open it"})
				return m
			case x.section != "" && t.Keys[x.section] == "":
				broken = append(broken, BrokenLink{Link: l, Reason: "the article has no such section"})
				return m
			}
			links = append(links, l)
			label, href := x.label, "/articles/"+t.Slug
			if x.section != "" {
				href += "#" + x.section
			}
			if label == "" {
				label = t.Title
				if x.section != "" {
					label += " › " + t.Keys[x.section]
				}
			}
			return "[" + escapeMarkdown(label) + "](<" + href + ">)"
		})
		var b bytes.Buffer
		if err := md.Convert([]byte(src), &b); err != nil {
			return nil, nil, err
		}
		s.HTML = b.String()
	}
	return links, broken, nil
}

// escapeMarkdown makes a label literal text inside a link.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+-.!|&~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// plainText is rendered HTML as readable text on one line.
func plainText(renderedHTML string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tagPattern.ReplaceAllString(renderedHTML, " "))), " ")
}
