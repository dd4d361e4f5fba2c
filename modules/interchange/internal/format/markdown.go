package format

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// PluginFile is how Moodle refers to a file kept with a text.
const PluginFile = "@@PLUGINFILE@@/"

// dropped are elements whose content is no text a learner reads.
var dropped = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Iframe: true, atom.Object: true,
	atom.Embed: true, atom.Audio: true, atom.Video: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Form: true, atom.Button: true, atom.Input: true, atom.Select: true, atom.Textarea: true}

// Markdown brings a Moodle HTML text to the markdown the bank holds, with
// html-to-markdown (CommonMark, GFM tables and strikethrough): bold,
// italics, lists, tables, headings and links stay; sub- and superscripts
// become Unicode (m², CO₂, Na⁺) where every character has one, else ^(x)
// and _(x); scripts, media and forms go; a link to a file of the text
// keeps its words only. Pictures are taken out: each <img> is removed and
// its source listed, in order, for the caller to keep as the question's
// picture. Line breaks are plain newlines; control characters go.
func Markdown(text string) (string, []string, error) {
	if words, ok := plainParagraph(text); ok {
		return clean(strings.Join(strings.Fields(words), " ")), nil, nil
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return "", nil, err
	}
	var images []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			switch {
			case c.Type == html.CommentNode, c.Type == html.ElementNode && dropped[c.DataAtom]:
				n.RemoveChild(c)
			case c.Type == html.ElementNode && c.DataAtom == atom.Img:
				if src := attr(c, "src"); src != "" {
					images = append(images, src)
				}
				n.RemoveChild(c)
			case c.Type == html.ElementNode && (c.DataAtom == atom.Sup || c.DataAtom == atom.Sub):
				n.InsertBefore(&html.Node{Type: html.TextNode, Data: script(textOf(c), c.DataAtom == atom.Sup)}, c)
				n.RemoveChild(c)
			case c.Type == html.ElementNode && c.DataAtom == atom.A && strings.HasPrefix(attr(c, "href"), PluginFile):
				walk(c)
				for gc := c.FirstChild; gc != nil; gc = c.FirstChild {
					c.RemoveChild(gc)
					n.InsertBefore(gc, c)
				}
				n.RemoveChild(c)
			default:
				walk(c)
			}
			c = next
		}
	}
	walk(doc)
	md, err := converter().ConvertNode(doc)
	if err != nil {
		return "", nil, err
	}
	out := looseLT.ReplaceAllString(string(md), "<$1")
	return clean(looseGT.ReplaceAllString(out, "$1>")), images, nil
}

// looseGT is a ">" the converter wrote as an entity where markdown would
// not start a quote (not at a line's start).
var looseGT = regexp.MustCompile(`([^\n])&gt;`)

// looseLT is a "<" the converter wrote as an entity where markdown would
// not read a tag anyway (not before a letter, "/", "!" or "?").
var looseLT = regexp.MustCompile(`&lt;([^A-Za-z/!?]|$)`)

// paragraph is one paragraph as Moodle's editor writes it.
var paragraph = regexp.MustCompile(`^\s*<p(?:\s[^<>]*)?>([^<>]*)</p>\s*$`)

// plainParagraph is the words of an HTML text that is nothing but words,
// alone or in one paragraph (most options, feedback and short stems),
// without entities or anything markdown would read: its markdown is its
// words, white space collapsed as a browser would, with no parsing.
func plainParagraph(s string) (string, bool) {
	if m := paragraph.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	t := strings.TrimSpace(s)
	return s, !strings.ContainsAny(s, "<>&\\`*_[]#+-!|~") && (t == "" || t[0] < '0' || t[0] > '9')
}

// converter is built once: building one registers every plugin, and one
// serves any number of goroutines (the library says so and tests it).
var converter = sync.OnceValue(func() *htmltomarkdown.Converter {
	return htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
})

// hardBreak is the converter's line break (two spaces or a backslash).
var hardBreak = regexp.MustCompile(`( {2,}|\\)\n`)

// clean is the bank's rule for stored text: valid UTF-8, no control
// characters but line breaks and tabs, no-break spaces as spaces, line
// breaks as newlines, no blank lines at either end.
func clean(s string) string {
	s = hardBreak.ReplaceAllString(strings.ToValidUTF8(s, "\ufffd"), "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u00a0':
			return ' '
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

var (
	superscripts = map[rune]rune{'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸',
		'9': '⁹', '+': '⁺', '-': '⁻', '−': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', 'n': 'ⁿ', 'i': 'ⁱ'}
	subscripts = map[rune]rune{'0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈',
		'9': '₉', '+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎', 'a': 'ₐ', 'e': 'ₑ', 'o': 'ₒ', 'x': 'ₓ',
		'h': 'ₕ', 'k': 'ₖ', 'l': 'ₗ', 'm': 'ₘ', 'n': 'ₙ', 'p': 'ₚ', 's': 'ₛ', 't': 'ₜ'}
)

// script writes a sub- or superscript in Unicode when every character has
// a form (units, doses, charges), else as ^(x) or _(x).
func script(s string, sup bool) string {
	table, mark := subscripts, "_("
	if sup {
		table, mark = superscripts, "^("
	}
	out := []rune{}
	for _, r := range s {
		u, ok := table[r]
		if !ok {
			return mark + s + ")"
		}
		out = append(out, u)
	}
	return string(out)
}

// PluginFileName is the file an @@PLUGINFILE@@ source names ("" for any
// other source): the path after the marker, %-escapes undone.
func PluginFileName(src string) string {
	if !strings.HasPrefix(src, PluginFile) {
		return ""
	}
	name := strings.TrimPrefix(src, PluginFile)
	if u, err := url.PathUnescape(name); err == nil {
		name = u
	}
	return name
}

var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithRendererOptions(gmhtml.WithHardWraps()))

// HTML renders the bank's markdown for Moodle (goldmark, raw HTML left
// out as in its safe default); a line break is a <br>, so that reading
// it back gives the same text.
func HTML(markdown string) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(markdown), &buf); err != nil {
		return "", err
	}
	return strings.TrimSpace(buf.String()), nil
}
