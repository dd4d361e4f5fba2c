package httpapi

import (
	"encoding/json"
	"testing"
)

func TestRefuseNUL(t *testing.T) {
	type option struct {
		Text string `json:"text"`
	}
	type Shared struct {
		Device string `header:"X-Device"`
	}
	type input struct {
		Shared
		ID    string `path:"id"`
		Q     string `query:"q,explode"`
		Token string `header:"X-Token"`
		Body  struct {
			Name    string              `json:"name"`
			Options []option            `json:"options"`
			Note    Nullable[string]    `json:"note"`
			Extra   map[string]any      `json:"extra"`
			Raw     json.RawMessage     `json:"raw"`
			Blob    []byte              `json:"blob"`
			Ptr     *string             `json:"ptr,omitempty"`
			Hidden  string              `json:"-"`
			Deep    map[string][]string `json:"deep"`
		}
	}
	ok := input{ID: "1", Q: "x"}
	ok.Body.Blob = []byte{0, 1}
	ok.Body.Hidden = "a\x00"
	ok.Body.Raw = json.RawMessage(`{"a":"\\u0000 is fine as text"}`)
	if ae := refuseNUL(&ok); ae != nil {
		t.Fatalf("refused clean input: %v", ae)
	}
	nul := "a\x00b"
	cases := []struct {
		set    func(*input)
		status int
		field  string
	}{
		{func(in *input) { in.ID = nul }, 422, "path.id"},
		{func(in *input) { in.Q = nul }, 422, "query.q"},
		{func(in *input) { in.Token = nul }, 422, "header.X-Token"},
		// Parameters an embedded struct shares among operations.
		{func(in *input) { in.Device = nul }, 422, "header.X-Device"},
		{func(in *input) { in.Device = "\xff" }, 422, "header.X-Device"},
		{func(in *input) { in.Body.Name = nul }, 422, "body.name"},
		{func(in *input) { in.Body.Options = []option{{"ok"}, {nul}} }, 422, "body.options[1].text"},
		{func(in *input) { in.Body.Note = Nullable[string]{Sent: true, Value: nul} }, 422, "body.note"},
		{func(in *input) { in.Body.Extra = map[string]any{"k": []any{nul}} }, 422, "body.extra.k[0]"},
		{func(in *input) { in.Body.Extra = map[string]any{nul: 1} }, 422, "body.extra"},
		{func(in *input) { in.Body.Raw = json.RawMessage(`{"a":["\u0000"]}`) }, 422, "body.raw.a[0]"},
		{func(in *input) { in.Body.Ptr = &nul }, 422, "body.ptr"},
		{func(in *input) { in.Body.Deep = map[string][]string{"x": {nul}} }, 422, "body.deep.x[0]"},
		// Bytes that are not UTF-8 (a path like /sessions/%FF%FE) fail in
		// Postgres just the same.
		{func(in *input) { in.ID = "\xff\xfe" }, 422, "path.id"},
		{func(in *input) { in.Body.Name = "caf\xe9" }, 422, "body.name"},
	}
	for _, c := range cases {
		in := input{}
		c.set(&in)
		ae := refuseNUL(&in)
		if ae == nil {
			t.Errorf("%s: not refused", c.field)
			continue
		}
		env := fromAppErr(ae)
		if env.GetStatus() != c.status || len(env.Err.Fields) != 1 || env.Err.Fields[0].Field != c.field {
			t.Errorf("%s: got %d %+v", c.field, env.GetStatus(), env.Err)
		}
	}
}

// checkedBody decoded itself and may say its text is storable.
type checkedBody struct {
	Name    string `json:"name"`
	checked bool
}

func (b *checkedBody) TextChecked() bool { return b.checked }

func (b *checkedBody) DecodeBody(data []byte) error {
	b.checked = true
	return json.Unmarshal(data, &b.Name)
}

// A body whose decoder checked its text is not walked again; one that did
// not say so is. The JSON format hands a BodyDecoder its bytes and decodes
// anything else as huma does.
func TestTextCheckedBodyAndDecoder(t *testing.T) {
	type input struct{ Body checkedBody }
	in := input{Body: checkedBody{Name: "a\x00b", checked: true}}
	if ae := refuseNUL(&in); ae != nil {
		t.Errorf("a checked body was walked: %v", ae)
	}
	in.Body.checked = false
	if ae := refuseNUL(&in); ae == nil || fromAppErr(ae).Err.Fields[0].Field != "body.name" {
		t.Errorf("an unchecked body was not walked: %v", ae)
	}
	var b checkedBody
	if err := Formats["application/json"].Unmarshal([]byte(`"x"`), &b); err != nil || b.Name != "x" || !b.checked {
		t.Errorf("DecodeBody not called: %v %+v", err, b)
	}
	var plain struct{ Name string }
	if err := Formats["json"].Unmarshal([]byte(`{"name":"y"}`), &plain); err != nil || plain.Name != "y" {
		t.Errorf("plain decode: %v %+v", err, plain)
	}
}
