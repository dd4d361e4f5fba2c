package app

import (
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
)

func TestImageRowsMakeOneCardPerShapeAnsweredByItsLabel(t *testing.T) {
	pid := int64(7)
	base := Card{CardType: Image, Front: "Name it", Back: "Fallback", PictureID: &pid}
	pic := &Picture{Shapes: []Mask{{Kind: "rect", W: 1, H: 1, Label: " Aorta "}, {Kind: "ellipse", W: 2, H: 2}}}
	rows, err := imageRows(base, pic, "")
	if err != nil || len(rows) != 2 {
		t.Fatalf("rows %v, err %v", rows, err)
	}
	if rows[0].Back != "Aorta" || rows[1].Back != "Fallback" || rows[0].Mask.Kind != "rect" || rows[1].Mask.Kind != "ellipse" {
		t.Fatalf("rows %+v %+v", rows[0], rows[1])
	}
	if rows[0].Mask == rows[1].Mask {
		t.Fatal("cards share one mask")
	}
	if rows, err = imageRows(base, pic, OcclusionNone); err != nil || len(rows) != 1 || rows[0].Mask != nil {
		t.Fatalf("none: %v %v", rows, err)
	}
}

func TestImageRowsRefusals(t *testing.T) {
	pid := int64(7)
	noBack := Card{CardType: Image, PictureID: &pid}
	for name, c := range map[string]struct {
		base      Card
		pic       *Picture
		occlusion string
	}{
		"plain picture without a back":    {noBack, &Picture{}, ""},
		"unlabelled shape without a back": {noBack, &Picture{Shapes: []Mask{{Kind: "rect"}}}, ""},
		"each without shapes":             {Card{Back: "A", PictureID: &pid}, &Picture{}, OcclusionEach},
		"unknown mode":                    {Card{Back: "A", PictureID: &pid}, &Picture{}, "all"},
	} {
		if _, err := imageRows(c.base, c.pic, c.occlusion); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
