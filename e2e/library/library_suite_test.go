// Package library_test drives the library end to end: articles through
// every status, the bin, revisions, slugs, rendering and cross-references,
// listings and search, from each role signed in through SSO.
package library_test

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestLibrary(t *testing.T) { RunSuite(t, "Library") }

const api = "/api/v1"

type q = map[string]any

var (
	h    *Harness
	mod  *User
	ctxb = context.Background()
)

// The landing page's counts are read fresh (site.stats_ttl caches them).
var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("site.stats_ttl", "0s") }))

var seq int

// write creates an article as a moderator and returns its body.
func write(body q) map[string]any {
	res := mod.Client(h).Post(api+"/articles/", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.Map()
}

// simple creates an article with one section and a unique title.
func simple(status string, extra ...q) map[string]any {
	seq++
	body := q{"title": fmt.Sprintf("Article %d", seq), "status": status,
		"sections": []q{{"heading": "Overview", "markdown": fmt.Sprintf("Body of article %d.", seq)}}}
	for _, e := range extra {
		for k, v := range e {
			body[k] = v
		}
	}
	return write(body)
}

func path(format string, args ...any) string { return api + fmt.Sprintf(format, args...) }

// category makes a question category as a moderator.
func category(name string, parent *int64) int64 {
	res := mod.Client(h).Post(api+"/question-categories/", q{"name": name, "parent_id": parent})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// grantHolder makes a learner holding one grant given by a moderator.
func grantHolder(kind string, target int64) *User {
	u := h.NewUser(auth.RoleUser)
	res := mod.Client(h).Post(path("/access/%d/grants", u.ID), q{"kind": kind, "target_id": target})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return u
}

// scalar reads one value from the database.
func scalar[T any](sql string, args ...any) T {
	var v T
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&v).Error).To(Succeed())
	return v
}

// listIDs gives the ids of a listing.
func listIDs(res *Response) []int64 {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var out []int64
	for _, it := range res.List() {
		out = append(out, int64(it.(map[string]any)["id"].(float64)))
	}
	return out
}
