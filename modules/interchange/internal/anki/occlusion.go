package anki

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // DecodeConfig of the pictures shapes are placed on
	_ "image/png"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp"
)

// maxShapes bounds the shapes one occlusion note may hide (media's bound
// on a picture's overlay).
const maxShapes = 200

// occlusionMark is one shape of Anki's image occlusion field:
// {{c2::image-occlusion:rect:left=.21:top=.3:width=.1:height=.05:oi=1}}.
var occlusionMark = regexp.MustCompile(`\{\{c(\d+)::image-occlusion:([a-z]+)((?::[^:}]*)*)\}\}`)

const occlusionHow = "image: each hidden shape is an image card hiding it (Anki hides every shape of one number on one card); " +
	"the Header is what is asked, Back Extra the answer (without it each shape is answered \"Area <number>\"); text labels are not kept"

// occlusionCards reads an image occlusion note (fields Occlusion, Image,
// Header, Back Extra, Comments, by position: their names are translated)
// as one image card whose picture hides each shape. Positions are kept
// as Anki writes them (fractions of the picture, or pixels in notes of
// Anki 23.10's first builds) until the picture's size is known. Anki's
// card for deletion n (ordinal n-1) schedules the first shape numbered n.
func occlusionCards(fields []string, cards []cardRow) ([]Note, string, string) {
	field := func(i int) string {
		if i < len(fields) {
			return fields[i]
		}
		return ""
	}
	srcs := imageSources(field(1))
	if len(srcs) != 1 {
		return nil, "", fmt.Sprintf("the image occlusion note's Image field shows %d pictures; it needs one", len(srcs))
	}
	n := Note{Type: Occlusion, Front: field(2), Back: field(3), Image: srcs[0], ImageOnFront: true}
	var numbers []int
	for _, m := range occlusionMark.FindAllStringSubmatch(field(0), maxShapes+1) {
		if len(numbers) == maxShapes {
			return nil, "", fmt.Sprintf("the image occlusion note hides more than %d shapes", maxShapes)
		}
		num, err := strconv.Atoi(m[1])
		sh, ok := occlusionShape(m[2], m[3])
		if err != nil || !ok {
			continue // a text label, or a shape that names no area
		}
		if blank(n.Back) {
			sh.Label = fmt.Sprintf("Area %d", num)
		}
		n.Shapes = append(n.Shapes, sh)
		numbers = append(numbers, num)
	}
	if len(n.Shapes) == 0 {
		return nil, "", "the image occlusion note hides no shape"
	}
	// Shapes by number, so that deletion n's card is the first of its number.
	order := make([]int, len(numbers))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return numbers[a] - numbers[b] })
	shapes := make([]Shape, len(order))
	nums := make([]int, len(order))
	for i, k := range order {
		shapes[i], nums[i] = n.Shapes[k], numbers[k]
	}
	n.Shapes = shapes
	for _, c := range cards {
		if pos := slices.Index(nums, c.Ord+1); pos >= 0 && c.sched != nil {
			sc := *c.sched
			sc.Ord = pos
			n.Schedules = append(n.Schedules, sc)
		}
	}
	return []Note{n}, occlusionHow, ""
}

// occlusionShape reads a shape's properties (":left=.2:top=.3:...").
func occlusionShape(kind, props string) (Shape, bool) {
	v := map[string]string{}
	for _, p := range strings.Split(strings.TrimPrefix(props, ":"), ":") {
		if k, val, ok := strings.Cut(p, "="); ok {
			v[k] = val
		}
	}
	num := func(k string) float64 {
		f, err := strconv.ParseFloat(v[k], 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0
		}
		return f
	}
	sh := Shape{Kind: kind, X: num("left"), Y: num("top"), W: num("width"), H: num("height")}
	switch kind {
	case "rect":
	case "ellipse":
		if rx, ry := num("rx"), num("ry"); rx > 0 && ry > 0 {
			sh.W, sh.H = 2*rx, 2*ry
		}
	case "polygon":
		for _, pt := range strings.Fields(v["points"]) {
			x, y, ok := strings.Cut(pt, ",")
			fx, errx := strconv.ParseFloat(x, 64)
			fy, erry := strconv.ParseFloat(y, 64)
			if ok && errx == nil && erry == nil && len(sh.Points) < 100 {
				sh.Points = append(sh.Points, [2]float64{fx, fy})
			}
		}
		sh.X, sh.Y, sh.W, sh.H = 0, 0, 0, 0
		return sh, len(sh.Points) >= 3
	default:
		return Shape{}, false
	}
	return sh, sh.W > 0 && sh.H > 0
}

// placeShapes turns shape positions into the picture's pixels: fractions
// (every coordinate at most 1) are scaled by its size, pixels kept.
func placeShapes(shapes []Shape, data []byte) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	w, h := float64(cfg.Width), float64(cfg.Height)
	fractions := true
	for _, s := range shapes {
		coords := []float64{s.X + s.W, s.Y + s.H}
		for _, p := range s.Points {
			coords = append(coords, p[0], p[1])
		}
		for _, c := range coords {
			fractions = fractions && c <= 1.0001
		}
	}
	if !fractions {
		return nil
	}
	for i := range shapes {
		s := &shapes[i]
		s.X, s.Y, s.W, s.H = s.X*w, s.Y*h, s.W*w, s.H*h
		for k := range s.Points {
			s.Points[k] = [2]float64{s.Points[k][0] * w, s.Points[k][1] * h}
		}
	}
	return nil
}
