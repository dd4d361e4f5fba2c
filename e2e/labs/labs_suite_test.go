// Package labs_test drives the lab reference table end to end: learners
// read the published values, moderators keep them, the field table's
// rules refuse bad records naming the field, and the demo table loads.
package labs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

func TestLabs(t *testing.T) { RunSuite(t, "Labs") }

const api = "/api/v1/study-tools/lab-values"

var (
	h            *Harness
	mod, learner *User
	ctxb         = context.Background()
)

var _ = Suite(&h, func() {
	mod = h.NewUser(auth.RoleModerator)
	learner = h.NewUser(auth.RoleUser)
})

type q = map[string]any

// record is a valid reference record; edits override or (nil) drop fields.
func record(edits q) q {
	r := q{"name": "Sodium", "group": "Chemistry", "reference_range": "135–145", "units": "mmol/L",
		"age_group": "Adult", "specimen": "Serum", "source": "Tietz Textbook of Clinical Chemistry, 6th ed."}
	for k, v := range edits {
		if v == nil {
			delete(r, k)
		} else {
			r[k] = v
		}
	}
	return r
}

func create(edits q) map[string]any {
	res := mod.Client(h).Post(api, record(edits))
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.Map()
}

func at(format string, args ...any) string { return api + fmt.Sprintf(format, args...) }

// fieldErrors reads error.fields of a 422 as field -> message.
func fieldErrors(res *Response) map[string]string {
	ExpectWithOffset(1, res).To(HaveError(422, "invalid_request"))
	var env struct {
		Error struct {
			Fields []struct{ Field, Message string }
		}
	}
	ExpectWithOffset(1, json.Unmarshal(res.Body, &env)).To(Succeed())
	out := map[string]string{}
	for _, f := range env.Error.Fields {
		out[f.Field] = f.Message
	}
	return out
}

// listing reads the table as u sees it.
func listing(u *User, query string) map[string]any {
	res := u.Client(h).Get(api + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return res.Map()
}

// inGroup picks the listed values of one group, in listed order.
func inGroup(l map[string]any, group string) []map[string]any {
	var out []map[string]any
	for _, v := range l["values"].([]any) {
		if m := v.(map[string]any); m["group"] == group {
			out = append(out, m)
		}
	}
	return out
}

type storedRow struct {
	Name, GroupName, Source string
	SourceURL               *string
	ArticleID               *int64
	ArticleSectionID        *string
	IsPublished             bool
}

func stored(id int64) (storedRow, bool) {
	var rows []storedRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT name, group_name, source, source_url, article_id, article_section_id,
		is_published FROM labs.lab_values WHERE id = ?`, id).Scan(&rows).Error).To(Succeed())
	if len(rows) == 0 {
		return storedRow{}, false
	}
	return rows[0], true
}
