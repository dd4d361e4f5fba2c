package app

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Diagram is the small spec a drawn figure is rendered from: labelled
// boxes on a grid (row and column from 0; a box without them takes the
// next free cell, left to right), arrows between boxes, and groups drawn
// as a labelled frame around their boxes.
type Diagram struct {
	Columns int            `json:"columns,omitempty" doc:"grid columns, 1 to 8 (default 3)"`
	Boxes   []DiagramBox   `json:"boxes"`
	Arrows  []DiagramArrow `json:"arrows,omitempty"`
	Groups  []DiagramGroup `json:"groups,omitempty"`
}

// DiagramBox is one labelled box.
type DiagramBox struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Row   *int   `json:"row,omitempty"`
	Col   *int   `json:"col,omitempty"`
}

// DiagramArrow joins two boxes, optionally labelled.
type DiagramArrow struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Label string `json:"label,omitempty"`
}

// DiagramGroup frames some boxes under a label.
type DiagramGroup struct {
	Label string   `json:"label"`
	Boxes []string `json:"boxes"`
}

// Diagram bounds.
const (
	maxBoxes    = 60
	maxArrows   = 120
	maxGroups   = 12
	maxColumns  = 8
	maxRows     = 20
	maxLabel    = 80
	cellW       = 200
	cellH       = 110
	boxW        = 150
	boxH        = 54
	margin      = 30
	groupInset  = 14
	labelOffset = 8
)

type cell struct{ row, col int }

func checkLabel(field, v string, required bool) error {
	if required && strings.TrimSpace(v) == "" {
		return apperr.Invalidf(field, "a label is required")
	}
	if utf8.RuneCountInString(v) > maxLabel || strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
		return apperr.Invalidf(field, "a label is at most %d characters of text", maxLabel)
	}
	return nil
}

// layout checks the spec and places every box on the grid.
func (d *Diagram) layout() (map[string]cell, int, error) {
	if d.Columns == 0 {
		d.Columns = 3
	}
	switch {
	case d.Columns < 1 || d.Columns > maxColumns:
		return nil, 0, apperr.Invalidf("spec.columns", "columns is 1 to %d", maxColumns)
	case len(d.Boxes) == 0 || len(d.Boxes) > maxBoxes:
		return nil, 0, apperr.Invalidf("spec.boxes", "a diagram has 1 to %d boxes", maxBoxes)
	case len(d.Arrows) > maxArrows:
		return nil, 0, apperr.Invalidf("spec.arrows", "a diagram has at most %d arrows", maxArrows)
	case len(d.Groups) > maxGroups:
		return nil, 0, apperr.Invalidf("spec.groups", "a diagram has at most %d groups", maxGroups)
	}
	at := map[string]cell{}
	taken, ids := map[cell]bool{}, map[string]bool{}
	for i, b := range d.Boxes {
		f := fmt.Sprintf("spec.boxes[%d]", i)
		if !fragment.MatchString("#"+b.ID) || len(b.ID) > 40 {
			return nil, 0, apperr.Invalidf(f+".id", "a box id is letters, digits, '_', '.' or '-', starting with a letter")
		}
		if ids[b.ID] {
			return nil, 0, apperr.Invalidf(f+".id", "box id %q is used twice", b.ID)
		}
		ids[b.ID] = true
		if err := checkLabel(f+".label", b.Label, true); err != nil {
			return nil, 0, err
		}
		if (b.Row == nil) != (b.Col == nil) {
			return nil, 0, apperr.Invalidf(f, "give both row and col, or neither")
		}
		if b.Row != nil {
			c := cell{*b.Row, *b.Col}
			if c.row < 0 || c.row >= maxRows || c.col < 0 || c.col >= d.Columns {
				return nil, 0, apperr.Invalidf(f, "row is 0 to %d and col 0 to %d", maxRows-1, d.Columns-1)
			}
			if taken[c] {
				return nil, 0, apperr.Invalidf(f, "cell %d,%d holds another box", c.row, c.col)
			}
			at[b.ID], taken[c] = c, true
		}
	}
	next := 0
	for _, b := range d.Boxes {
		if b.Row != nil {
			continue
		}
		for taken[cell{next / d.Columns, next % d.Columns}] {
			next++
		}
		c := cell{next / d.Columns, next % d.Columns}
		if c.row >= maxRows {
			return nil, 0, apperr.Invalidf("spec.boxes", "the grid holds at most %d rows", maxRows)
		}
		at[b.ID], taken[c] = c, true
	}
	rows := 0
	for _, c := range at {
		rows = max(rows, c.row+1)
	}
	for i, a := range d.Arrows {
		f := fmt.Sprintf("spec.arrows[%d]", i)
		_, okFrom := at[a.From]
		_, okTo := at[a.To]
		if !okFrom || !okTo || a.From == a.To {
			return nil, 0, apperr.Invalidf(f, "an arrow joins two different boxes of the diagram")
		}
		if err := checkLabel(f+".label", a.Label, false); err != nil {
			return nil, 0, err
		}
	}
	for i, g := range d.Groups {
		f := fmt.Sprintf("spec.groups[%d]", i)
		if err := checkLabel(f+".label", g.Label, true); err != nil {
			return nil, 0, err
		}
		if len(g.Boxes) == 0 {
			return nil, 0, apperr.Invalidf(f+".boxes", "a group frames at least one box")
		}
		for _, id := range g.Boxes {
			if _, ok := at[id]; !ok {
				return nil, 0, apperr.Invalidf(f+".boxes", "box %q is not in the diagram", id)
			}
		}
	}
	return at, rows, nil
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// centre is a box's centre in the drawing.
func centre(c cell) (float64, float64) {
	return float64(margin + c.col*cellW + cellW/2), float64(margin + c.row*cellH + cellH/2)
}

// edge is where the line from a box's centre towards (dx, dy) leaves it.
func edge(x, y, dx, dy float64) (float64, float64) {
	t := math.Inf(1)
	if dx != 0 {
		t = math.Min(t, (boxW/2)/math.Abs(dx))
	}
	if dy != 0 {
		t = math.Min(t, (boxH/2)/math.Abs(dy))
	}
	return x + dx*t, y + dy*t
}

// Render draws the diagram as SVG.
func (d *Diagram) Render() ([]byte, error) {
	at, rows, err := d.layout()
	if err != nil {
		return nil, err
	}
	w, hgt := 2*margin+d.Columns*cellW, 2*margin+rows*cellH
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="%s" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="14">`,
		svgNS, w, hgt, w, hgt)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#333"/></marker></defs>`)
	for _, g := range d.Groups {
		minR, minC, maxR, maxC := maxRows, maxColumns, 0, 0
		for _, id := range g.Boxes {
			c := at[id]
			minR, minC, maxR, maxC = min(minR, c.row), min(minC, c.col), max(maxR, c.row), max(maxC, c.col)
		}
		x, y := margin+minC*cellW+groupInset/2, margin+minR*cellH+groupInset/2
		fmt.Fprintf(&b, `<g><rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="none" stroke="#888" stroke-dasharray="6 4"/>`,
			x, y, (maxC-minC+1)*cellW-groupInset, (maxR-minR+1)*cellH-groupInset)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" fill="#555">%s</text></g>`, x+labelOffset, y+16, esc(g.Label))
	}
	for _, a := range d.Arrows {
		x1, y1 := centre(at[a.From])
		x2, y2 := centre(at[a.To])
		dx, dy := x2-x1, y2-y1
		sx, sy := edge(x1, y1, dx, dy)
		ex, ey := edge(x2, y2, -dx, -dy)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333" stroke-width="1.5" marker-end="url(#arrow)"/>`,
			sx, sy, ex, ey)
		if a.Label != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12" fill="#333">%s</text>`,
				(sx+ex)/2, (sy+ey)/2-labelOffset, esc(a.Label))
		}
	}
	for _, bx := range d.Boxes {
		x, y := centre(at[bx.ID])
		fmt.Fprintf(&b, `<g id="box-%s"><rect x="%.0f" y="%.0f" width="%d" height="%d" rx="6" fill="#f4f7fb" stroke="#345"/>`,
			esc(bx.ID), x-boxW/2, y-boxH/2, boxW, boxH)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle" dominant-baseline="middle">%s</text></g>`, x, y, esc(bx.Label))
	}
	b.WriteString(`</svg>`)
	return []byte(b.String()), nil
}

// DrawFigure renders a diagram spec, or takes an SVG drawn elsewhere,
// sanitises it and places it on a section as an image asset (the spec is
// kept for a later redraw).
func (s *Service) DrawFigure(ctx context.Context, p auth.Principal, at Placement, m Meta, spec *Diagram, svg string) (*Asset, error) {
	if (spec == nil) == (svg == "") {
		return nil, apperr.Invalidf("spec", "send either spec (a diagram to draw) or svg")
	}
	if err := s.ports.Library.CheckFigure(ctx, p, at.ArticleID, at.SectionKey, at.Replace); err != nil {
		return nil, err
	}
	if err := s.checkMeta(ctx, &m); err != nil {
		return nil, err
	}
	raw := []byte(svg)
	if spec != nil {
		var err error
		if raw, err = spec.Render(); err != nil {
			return nil, err
		}
	}
	clean, err := SanitiseSVG(raw, s.cfg.MaxSVGBytes)
	if err != nil {
		return nil, err
	}
	a := &Asset{Kind: "image", ContentType: "image/svg+xml", ByteSize: int64(len(clean))}
	if m.Modality == nil {
		diagram := "diagram"
		m.Modality = &diagram
	}
	if spec != nil {
		if a.Spec, err = specJSON(spec); err != nil {
			return nil, err
		}
	}
	return s.storeAndPlace(ctx, p, at, m, a, "svg", bytes.NewReader(clean))
}
