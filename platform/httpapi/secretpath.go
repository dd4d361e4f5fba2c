package httpapi

import (
	"strings"
	"sync"
)

// SecretParam reports a path parameter that carries a credential: a share
// link's token (named token, or ending in _token). Only its hash is stored,
// so no log line or trace span may hold it either.
func SecretParam(name string) bool { return name == "token" || strings.HasSuffix(name, "_token") }

// secretPaths are the routes whose path holds a secret parameter. Register
// adds them; the access log and the trace middleware show a request's path
// with such a parameter replaced by its name ("/api/v1/share/open/{token}").
// The match ignores the method and anything after the route, so a wrong
// method (405) or a longer path (404) is redacted too.
type secretPaths struct {
	mu       sync.RWMutex
	patterns [][]string // the route's segments: a literal, "" for any value, or "{name}" for a secret
}

// add records op's path when one of its parameters is secret.
func (s *secretPaths) add(path string) {
	segs := strings.Split(path, "/")
	secret := false
	for i, seg := range segs {
		name, ok := strings.CutPrefix(seg, "{")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "}")
		if SecretParam(name) {
			secret = true
			segs[i] = "{" + name + "}"
		} else {
			segs[i] = ""
		}
	}
	if !secret {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.patterns = append(s.patterns, segs)
}

// redact is path with every secret segment replaced by its parameter's name.
func (s *secretPaths) redact(path string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.patterns) == 0 {
		return path
	}
	segs := strings.Split(path, "/")
	changed := false
	for _, p := range s.patterns {
		if !matches(p, segs) {
			continue
		}
		for i, seg := range p {
			if strings.HasPrefix(seg, "{") {
				segs[i], changed = seg, true
			}
		}
	}
	if !changed {
		return path
	}
	return strings.Join(segs, "/")
}

// matches reports whether segs starts with the route p.
func matches(p, segs []string) bool {
	if len(segs) < len(p) {
		return false
	}
	for i, seg := range p {
		if seg != "" && !strings.HasPrefix(seg, "{") && seg != segs[i] {
			return false
		}
	}
	return true
}
