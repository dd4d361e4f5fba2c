package httpapi

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Postgres cannot store a NUL byte, or bytes that are not UTF-8, in text or
// jsonb, so such a string that reaches a query fails there as a 500. Every
// operation's decoded input is checked once, here, before its handler runs:
// the refusal is 422 naming the field, parameters and body alike, as huma
// answers its own validation of either.

const (
	nulMessage  = "must not contain a NUL byte"
	utf8Message = "must be valid UTF-8 text"
)

// badText says what makes s unstorable as text, or "".
func badText(s string) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return nulMessage
	case !utf8.ValidString(s):
		return utf8Message
	}
	return ""
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
)

// TextChecked is a body that may know it holds no unstorable text (its own
// decoder checked every string as it read it), sparing the walk below.
type TextChecked interface {
	TextChecked() bool
}

// refuseNUL returns the refusal for the first NUL byte in the decoded input,
// or nil.
func refuseNUL(in any) *apperr.Error {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	return refuseNULIn(v)
}

// refuseNULIn checks an input struct's parameters and body, and those of
// the structs it embeds (parameters several operations share, such as a
// header).
func refuseNULIn(v reflect.Value) *apperr.Error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if loc, name := paramOf(f); loc != "" {
			if field, msg := nulIn(v.Field(i), loc+"."+name); msg != "" {
				return apperr.Invalidf(field, "%s", msg)
			}
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if ae := refuseNULIn(v.Field(i)); ae != nil {
				return ae
			}
			continue
		}
		if f.Name == "Body" {
			if c, ok := v.Field(i).Addr().Interface().(TextChecked); ok && c.TextChecked() {
				continue
			}
			if field, msg := nulIn(v.Field(i), "body"); msg != "" {
				return apperr.Invalidf(field, "%s", msg)
			}
		}
	}
	return nil
}

// paramOf is the location and name of a parameter field, or "" for others.
func paramOf(f reflect.StructField) (loc, name string) {
	for _, loc := range []string{"path", "query", "header", "cookie"} {
		if tag, ok := f.Tag.Lookup(loc); ok {
			name, _, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			return loc, name
		}
	}
	return "", ""
}

// nulIn walks a decoded value and returns the path of the first string (or
// map key) that cannot be stored as text, and why ("" when all can).
func nulIn(v reflect.Value, path string) (string, string) {
	switch v.Kind() {
	case reflect.String:
		return path, badText(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", ""
		}
		return nulIn(v.Elem(), path)
	case reflect.Slice, reflect.Array:
		if v.Type() == rawMessageType {
			var decoded any
			if json.Unmarshal(v.Bytes(), &decoded) != nil {
				return "", ""
			}
			return nulIn(reflect.ValueOf(&decoded).Elem(), path)
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", "" // binary data, not text
		}
		for i := range v.Len() {
			if p, msg := nulIn(v.Index(i), path+"["+strconv.Itoa(i)+"]"); msg != "" {
				return p, msg
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			key := iter.Key()
			name := ""
			if key.Kind() == reflect.String {
				name = key.String()
				if msg := badText(name); msg != "" {
					return path, msg
				}
			}
			if p, msg := nulIn(iter.Value(), path+"."+name); msg != "" {
				return p, msg
			}
		}
	case reflect.Struct:
		// A type that decodes itself (Nullable) has the JSON shape of its
		// content, so its untagged fields sit at its own path.
		own := reflect.PointerTo(v.Type()).Implements(unmarshalerType)
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" {
				continue
			}
			p := path
			switch {
			case tag != "":
				p = path + "." + tag
			case !f.Anonymous && !own:
				p = path + "." + f.Name
			}
			if found, msg := nulIn(v.Field(i), p); msg != "" {
				return found, msg
			}
		}
	}
	return "", ""
}
