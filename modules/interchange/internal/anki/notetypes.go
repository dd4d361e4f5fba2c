package anki

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Anki's original stock kinds (notetypes.proto, StockNotetype.OriginalStockKind)
// that the reader tells apart.
const (
	stockTyping    = 4
	stockOcclusion = 6
)

// maxTemplateBytes bounds a card template the reader renders (Anki's own
// image occlusion template is about 1 KiB).
const maxTemplateBytes = 256 << 10

// noteType is a note type as either schema keeps it.
type noteType struct {
	ID        int64
	Name      string
	Cloze     bool
	Stock     int // original stock kind, 0 unknown
	Fields    []string
	Templates []template
}

type template struct {
	Name string
	Q, A []token
}

// legacyTypes reads schema 11's note types and decks, JSON in the col row.
func legacyTypes(models, decks string) (map[int64]*noteType, map[int64]string, error) {
	var ms map[string]struct {
		Name  string `json:"name"`
		Type  int    `json:"type"`
		Stock int    `json:"originalStockKind"`
		Flds  []struct {
			Name string `json:"name"`
		} `json:"flds"`
		Tmpls []struct {
			Name string `json:"name"`
			Qfmt string `json:"qfmt"`
			Afmt string `json:"afmt"`
		} `json:"tmpls"`
	}
	var ds map[string]struct {
		Name string `json:"name"`
	}
	if json.Unmarshal([]byte(models), &ms) != nil || json.Unmarshal([]byte(decks), &ds) != nil {
		return nil, nil, ErrMalformed{"the collection's note types or decks cannot be read"}
	}
	types := map[int64]*noteType{}
	for k, m := range ms {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			continue
		}
		nt := &noteType{ID: id, Name: m.Name, Cloze: m.Type == 1, Stock: m.Stock}
		for _, f := range m.Flds {
			nt.Fields = append(nt.Fields, f.Name)
		}
		for _, t := range m.Tmpls {
			nt.Templates = append(nt.Templates, newTemplate(t.Name, t.Qfmt, t.Afmt))
		}
		types[id] = nt
	}
	names := map[int64]string{}
	for k, d := range ds {
		if id, err := strconv.ParseInt(k, 10, 64); err == nil {
			names[id] = d.Name
		}
	}
	return types, names, nil
}

// noteTypes reads schema 18's note types: notetypes (config: Kind kind = 1,
// OriginalStockKind original_stock_kind = 9), fields and templates
// (config: q_format = 1, a_format = 2), by ordinal (their names' unicase
// collation renamed first, see renameUnicase).
func (r *reader) noteTypes() (map[int64]*noteType, error) {
	var nts []struct {
		ID, Size int64
		Name     string
		Config   []byte
	}
	err := r.db.Raw(`SELECT CAST(id AS INTEGER) AS id, length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)) AS size,
		CASE WHEN length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)) <= ? THEN name ELSE '' END AS name,
		CASE WHEN length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)) <= ? THEN CAST(config AS BLOB) END AS config
		FROM notetypes LIMIT ?`, r.lim.MaxRowBytes, r.lim.MaxRowBytes, maxSchemaObjects*10).Scan(&nts).Error
	if err != nil {
		return nil, err
	}
	types := map[int64]*noteType{}
	for _, n := range nts {
		if err := r.b.take(n.Size, fmt.Sprintf("note type %d", n.ID)); err != nil {
			return nil, err
		}
		nt := &noteType{ID: n.ID, Name: n.Name}
		_ = eachField(n.Config, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
			switch {
			case num == 1 && typ == protowire.VarintType:
				nt.Cloze = v == 1
			case num == 9 && typ == protowire.VarintType:
				nt.Stock = int(min(v, 1<<16))
			}
			return nil
		}) // a config that does not decode leaves a normal note type
		types[n.ID] = nt
	}
	var fields []struct {
		Ntid, Ord, Size int64
		Name            string
	}
	err = r.db.Raw(`SELECT CAST(ntid AS INTEGER) AS ntid, CAST(ord AS INTEGER) AS ord, length(CAST(name AS BLOB)) AS size,
		CASE WHEN length(CAST(name AS BLOB)) <= ? THEN name ELSE '' END AS name
		FROM fields ORDER BY ntid, ord LIMIT ?`, r.lim.MaxRowBytes, len(nts)*100+1).Scan(&fields).Error
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if err := r.b.take(f.Size, "a field name"); err != nil {
			return nil, err
		}
		if nt := types[f.Ntid]; nt != nil {
			nt.Fields = append(nt.Fields, f.Name)
		}
	}
	rows, err := r.db.Raw(`SELECT CAST(ntid AS INTEGER), length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)),
		CASE WHEN length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)) <= ? THEN name ELSE '' END,
		CASE WHEN length(CAST(name AS BLOB)) + length(CAST(config AS BLOB)) <= ? THEN CAST(config AS BLOB) END
		FROM templates ORDER BY ntid, ord LIMIT ?`, r.lim.MaxRowBytes, r.lim.MaxRowBytes, len(nts)*100+1).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var ntid, size int64
		var name string
		var config []byte
		if err := rows.Scan(&ntid, &size, &name, &config); err != nil {
			return nil, err
		}
		if err := r.b.take(size, fmt.Sprintf("a card template of note type %d", ntid)); err != nil {
			return nil, err
		}
		var q, a string
		_ = eachField(config, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
			switch {
			case num == 1 && typ == protowire.BytesType:
				q = string(b)
			case num == 2 && typ == protowire.BytesType:
				a = string(b)
			}
			return nil
		}) // a template that does not decode renders nothing
		if nt := types[ntid]; nt != nil {
			nt.Templates = append(nt.Templates, newTemplate(name, q, a))
		}
	}
	return types, rows.Err()
}

// decks reads schema 18's deck names (levels joined by \x1f there, "::"
// in Anki's interface).
func (r *reader) decks() (map[int64]string, error) {
	var ds []struct {
		ID, Size int64
		Name     string
	}
	err := r.db.Raw(`SELECT CAST(id AS INTEGER) AS id, length(CAST(name AS BLOB)) AS size,
		CASE WHEN length(CAST(name AS BLOB)) <= 4096 THEN name ELSE '' END AS name FROM decks LIMIT 10000`).Scan(&ds).Error
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, d := range ds {
		if err := r.b.take(d.Size, "a deck name"); err != nil {
			return nil, err
		}
		out[d.ID] = strings.ReplaceAll(d.Name, "\x1f", "::")
	}
	return out, nil
}

// toCards maps a note by its type, from what its card templates show:
// image occlusion notes to occlusion cards; cloze types to a cloze card
// (the {{cloze:}} field the passage, the rest of the answer side its
// note); otherwise each card the note made becomes a basic card (its
// question side the front, its answer side less the question the back),
// a type-in card when its question asks {{type:Field}}, and a pair that
// asks each side of the other one reversed card. Texts stay HTML until
// the pictures are read. how says which rule took the note, why why none
// did.
func (nt *noteType) toCards(fields []string, cards []cardRow, lim Limits) (out []Note, how, why string) {
	if nt == nil {
		return nil, "", "its note type is missing from the collection"
	}
	for _, f := range fields {
		if len(f) > lim.MaxFieldBytes {
			return nil, "", fmt.Sprintf("a field is longer than %d bytes", lim.MaxFieldBytes)
		}
	}
	if len(cards) == 0 {
		return nil, "", "the note has no cards"
	}
	if len(nt.Templates) == 0 {
		return nil, "", fmt.Sprintf("note type %q has no card templates", nt.Name)
	}
	for _, t := range nt.Templates {
		if t.Q == nil && t.A == nil {
			return nil, "", fmt.Sprintf("a card template of note type %q is longer than %d bytes", nt.Name, maxTemplateBytes)
		}
	}
	values := map[string]string{}
	for i, name := range nt.Fields {
		if i < len(fields) {
			values[name] = fields[i]
		}
	}
	switch {
	case nt.Stock == stockOcclusion || nt.Cloze && strings.Contains(first(fields), "image-occlusion:"):
		return occlusionCards(fields, cards)
	case nt.Cloze:
		return clozeCard(nt, values, cards)
	}
	return templateCards(nt, values, cards)
}

func first(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// clozeCard is a cloze note: the field its template deletes from is the
// passage (cloze markers kept), the answer side less the passage its note.
func clozeCard(nt *noteType, values map[string]string, cards []cardRow) ([]Note, string, string) {
	t := nt.Templates[0]
	field := t.clozeField()
	if field == "" {
		return nil, "", fmt.Sprintf("cloze note type %q has no {{cloze:Field}} in its card template", nt.Name)
	}
	back := t.render(t.A, values, map[string]bool{field: true})
	n := Note{Type: Cloze, Front: values[field], Back: back}
	for _, c := range cards {
		if c.sched != nil {
			n.Schedules = append(n.Schedules, *c.sched) // Ord n-1 is deletion n on both sides
		}
	}
	return []Note{n}, fmt.Sprintf("cloze: the %s field is the passage, the rest of the answer side its note", field), ""
}

// templateCards renders each card a normal note made.
func templateCards(nt *noteType, values map[string]string, cards []cardRow) ([]Note, string, string) {
	var out []Note
	var ords []int
	for _, c := range cards {
		if c.Ord < 0 || c.Ord >= len(nt.Templates) {
			continue
		}
		t := nt.Templates[c.Ord]
		n := Note{Type: Basic, Front: t.render(t.Q, values, nil), Back: t.render(t.A, values, nil)}
		if field := t.typeField(); field != "" {
			n.Type, n.Back = TypeIn, values[field]
		}
		if blank(n.Front) {
			continue // a card showing nothing: Anki would not have made it
		}
		if c.sched != nil {
			sc := *c.sched
			sc.Ord = 0
			n.Schedules = []Schedule{sc}
		}
		out = append(out, n)
		ords = append(ords, c.Ord)
	}
	switch {
	case len(out) == 0:
		return nil, "", fmt.Sprintf("none of the note's cards shows anything on its question side (note type %q)", nt.Name)
	case len(out) == 2 && out[0].Type == Basic && out[1].Type == Basic && same(out[0].Front, out[1].Back) && same(out[0].Back, out[1].Front):
		rev := Note{Type: Reversed, Front: out[0].Front, Back: out[0].Back}
		for i, n := range out {
			for _, sc := range n.Schedules {
				sc.Ord = i
				rev.Schedules = append(rev.Schedules, sc)
			}
		}
		return []Note{rev}, "reversed: its two card templates ask each side of the other", ""
	case len(out) == 1 && out[0].Type == TypeIn:
		return out, "type_in: the field its question asks to type ({{type:Field}}) is the answer", ""
	case len(out) == 1 && len(nt.Templates) == 1:
		return out, "basic: the card template's question side is the front, its answer side the back", ""
	}
	return out, fmt.Sprintf("each card the note made (of %d card templates) is a card of its own: the question side the front, "+
		"the answer side the back", len(nt.Templates)), ""
}

// blank is an HTML text that shows no words and no picture.
func blank(s string) bool {
	return strings.TrimSpace(plainText(s)) == "" && !strings.Contains(strings.ToLower(s), "<img")
}

// same compares two sides as a learner reads them.
func same(a, b string) bool { return plainText(a) == plainText(b) }
