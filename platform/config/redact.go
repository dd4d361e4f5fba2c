package config

import (
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// secretParam matches URL query parameters that carry credentials.
var secretParam = regexp.MustCompile(`(?i)pass|secret|key|token|credential`)

// secretKeys lists the platform's dotted keys tagged `secret`.
var secretKeys = secretKeysOf(reflect.TypeOf(Config{}), "")

// secretKeysOf finds the dotted keys tagged `secret` in a config struct.
func secretKeysOf(t reflect.Type, prefix string) map[string]bool {
	keys := map[string]bool{}
	walk(t, prefix, func(key string, f reflect.StructField) {
		if f.Tag.Get("secret") != "" {
			keys[key] = true
		}
	})
	return keys
}

// walk visits the leaf fields of a config struct with their dotted keys;
// fields without a plain mapstructure name (the remain map, unexported
// state) are not keys.
func walk(t reflect.Type, prefix string, visit func(key string, f reflect.StructField)) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := f.Tag.Get("mapstructure")
		if key == "" || strings.HasPrefix(key, ",") {
			continue
		}
		if prefix != "" {
			key = prefix + "." + key
		}
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)) {
			walk(f.Type, key, visit)
			continue
		}
		visit(key, f)
	}
}

// Redacted returns the effective configuration, the platform's sections and
// every module section decoded so far, as dotted key -> value, fit for
// logging: secrets are masked, URLs keep everything but credentials.
func Redacted(cfg *Config) map[string]any {
	out := map[string]any{}
	flatten(reflect.ValueOf(cfg).Elem(), "", out)
	for name, section := range cfg.sections {
		flatten(reflect.ValueOf(section).Elem(), name, out)
	}
	return out
}

func flatten(v reflect.Value, prefix string, out map[string]any) {
	walk(v.Type(), prefix, func(key string, f reflect.StructField) {
		out[key] = mask(f.Tag.Get("secret"), fieldByKey(v, strings.TrimPrefix(strings.TrimPrefix(key, prefix), ".")).Interface())
	})
}

// fieldByKey follows a dotted key down a config struct value.
func fieldByKey(v reflect.Value, key string) reflect.Value {
	for _, part := range strings.Split(key, ".") {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).Tag.Get("mapstructure") == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

func mask(kind string, v any) any {
	switch kind {
	case "":
		if d, ok := v.(time.Duration); ok {
			return d.String()
		}
		return v
	case "url":
		s, _ := v.(string)
		u, err := url.Parse(s)
		if err != nil {
			return "****"
		}
		q := u.Query()
		for k := range q {
			if secretParam.MatchString(k) {
				q.Set(k, "****")
			}
		}
		if len(q) > 0 {
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	default:
		if s, _ := v.(string); s == "" {
			return ""
		}
		return "****"
	}
}
