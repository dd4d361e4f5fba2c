package objects_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// row is one line of matrix.txt: an operation, the kind of object each of
// its ids is tried with, literal values for its other parameters, a body
// template, and the answer every try must get.
type row struct {
	line         int
	method, path string
	ids          map[string]string // "path.attempt_id" -> "attempt"
	literal      map[string]string // "query.mode" -> "learning"
	body         map[string]any    // template; the bound fields hold "$kind"
	form         bool
	answer       answer
}

// answer is the status every try must get, with exceptions by parameter
// ("revision_id") or by parameter and variant ("id.hidden").
type answer struct {
	status     int
	exceptions map[string]int
}

func (a answer) want(param, variant string) int {
	if s, ok := a.exceptions[param+"."+variant]; ok {
		return s
	}
	if s, ok := a.exceptions[param]; ok {
		return s
	}
	return a.status
}

func (r row) key() string { return r.method + " " + r.path }

// params are the row's id parameters in order.
func (r row) params() []string { return slices.Sorted(maps.Keys(r.ids)) }

// readMatrix parses the table; see the file's head for the format.
func readMatrix(name string) ([]row, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var rows []row
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := parseRow(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		r.line = i + 1
		rows = append(rows, r)
	}
	return rows, nil
}

func parseRow(line string) (row, error) {
	cut := strings.LastIndex(line, " -> ")
	if cut < 0 {
		return row{}, fmt.Errorf("no ' -> ' before the answer")
	}
	left, right := line[:cut], strings.Fields(line[cut+4:])
	r := row{ids: map[string]string{}, literal: map[string]string{}}
	var err error
	if r.answer, err = parseAnswer(right); err != nil {
		return row{}, err
	}
	// The body starts at " {" or " form{" (a path's braces follow a slash).
	at := strings.Index(left, " {")
	if f := strings.Index(left, " form{"); f >= 0 {
		at, r.form = f, true
	}
	if at >= 0 {
		tmpl := strings.TrimPrefix(strings.TrimSpace(left[at:]), "form")
		if err := json.Unmarshal([]byte(tmpl), &r.body); err != nil {
			return row{}, fmt.Errorf("body %s: %v", tmpl, err)
		}
		for k, v := range r.body {
			if kind, ok := placeholder(v); ok {
				r.ids["body."+k] = kind
			}
		}
		left = left[:at]
	}
	f := strings.Fields(left)
	if len(f) < 2 {
		return row{}, fmt.Errorf("want METHOD PATH first")
	}
	r.method, r.path = f[0], f[1]
	for _, tok := range f[2:] {
		in := "query."
		sep := strings.IndexAny(tok, "=:")
		if sep < 0 {
			return row{}, fmt.Errorf("%q is neither name=kind nor name:value", tok)
		}
		if strings.Contains(r.path, "{"+tok[:sep]+"}") {
			in = "path."
		}
		if tok[sep] == '=' {
			r.ids[in+tok[:sep]] = tok[sep+1:]
		} else {
			r.literal[in+tok[:sep]] = tok[sep+1:]
		}
	}
	return r, nil
}

// placeholder reads "$kind" or ["$kind"].
func placeholder(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		if strings.HasPrefix(t, "$") {
			return t[1:], true
		}
	case []any:
		if len(t) == 1 {
			return placeholder(t[0])
		}
	}
	return "", false
}

func parseAnswer(f []string) (answer, error) {
	if len(f) == 0 {
		return answer{}, fmt.Errorf("no answer after ' -> '")
	}
	a := answer{exceptions: map[string]int{}}
	var err error
	if a.status, err = strconv.Atoi(f[0]); err != nil {
		return answer{}, fmt.Errorf("answer %q is not a status", f[0])
	}
	for _, ex := range f[1:] {
		k, v, ok := strings.Cut(ex, "=")
		s, err := strconv.Atoi(v)
		if !ok || err != nil {
			return answer{}, fmt.Errorf("exception %q: want param=status or param.variant=status", ex)
		}
		a.exceptions[k] = s
	}
	return a, nil
}
