package config

import (
	"net/url"
	"reflect"
	"regexp"
	"time"
)

// secretParam matches URL query parameters that carry credentials.
var secretParam = regexp.MustCompile(`(?i)pass|secret|key|token|credential`)

// secretKeys lists the dotted keys tagged `secret`, found once by reflection.
var secretKeys = func() map[string]bool {
	keys := map[string]bool{}
	walk(reflect.TypeOf(Config{}), "", func(key string, f reflect.StructField) {
		if f.Tag.Get("secret") != "" {
			keys[key] = true
		}
	})
	return keys
}()

func walk(t reflect.Type, prefix string, visit func(key string, f reflect.StructField)) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := f.Tag.Get("mapstructure")
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

// Redacted returns the effective configuration as section -> key -> value,
// fit for logging: secrets are masked, URLs keep everything but credentials.
func Redacted(cfg *Config) map[string]map[string]any {
	out := map[string]map[string]any{}
	root := reflect.ValueOf(cfg).Elem()
	for i := 0; i < root.NumField(); i++ {
		section := root.Type().Field(i)
		sv := root.Field(i)
		m := map[string]any{}
		for j := 0; j < sv.NumField(); j++ {
			f := section.Type.Field(j)
			m[f.Tag.Get("mapstructure")] = mask(f.Tag.Get("secret"), sv.Field(j).Interface())
		}
		out[section.Tag.Get("mapstructure")] = m
	}
	return out
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
