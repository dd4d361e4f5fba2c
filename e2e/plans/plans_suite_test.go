// Package plans_test drives study plans end to end: moderators build,
// publish and retire plans, admins alone delete them, learners enrol,
// start blocks as saved tests and complete them by sitting them, and
// blueprints draw plans to their weights.
package plans_test

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/plans"
	"github.com/roundsedu/rounds/platform/auth"
)

func TestPlans(t *testing.T) { RunSuite(t, "Plans") }

const api = "/api/v1"

var (
	h     *Harness
	mod   *User
	admin *User
	ctxb  = context.Background()
)

var _ = Suite(&h, func() {
	mod = h.NewUser(auth.RoleModerator)
	admin = h.NewUser(auth.RoleAdmin)
})

type q = map[string]any

func at(format string, args ...any) string { return api + fmt.Sprintf(format, args...) }

// questions files n live MCQs in the bank and opens them to learners in
// a published quiz (a saved test holds only what the learner may see).
func questions(n int) []int64 {
	ids := hidden(n)
	res := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "Plan source", "question_ids": ids})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	ExpectWithOffset(1, mod.Client(h).Patch(at("/quizzes/%d/publish?published=true", res.ID()), nil)).To(HaveStatus(200))
	return ids
}

// hidden files n live MCQs no learner reaches.
func hidden(n int) []int64 {
	ids := make([]int64, n)
	for i := range ids {
		res := mod.Client(h).Post(api+"/questions/create", q{"question_text": fmt.Sprintf("Plan question %d-%d?", GinkgoRandomSeed(), i),
			"question_type": "mcq", "options": []string{"Yes", "No"}, "correct_answer": "Yes"})
		ExpectWithOffset(2, res).To(HaveStatus(201))
		ids[i] = res.ID()
	}
	return ids
}

func newPlan(kind string) map[string]any {
	res := mod.Client(h).Post(api+"/study-plans", q{"title": "Renal in four weeks", "kind": kind, "exam_date": "2027-03-01"})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.Map()
}

func addBlock(plan int64, title string, ids []int64) map[string]any {
	res := mod.Client(h).Post(at("/study-plans/%d/blocks", plan), q{"title": title, "question_ids": ids})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.Map()
}

func publish(plan int64, on bool) *Response {
	return mod.Client(h).Patch(at("/study-plans/%d/publish?published=%t", plan, on), nil)
}

func blocksOf(d map[string]any) []map[string]any {
	var out []map[string]any
	for _, b := range d["blocks"].([]any) {
		out = append(out, b.(map[string]any))
	}
	return out
}

// counting passes saved tests to the bank's builder, counting the builds.
type counting struct {
	plans.SavedTests
	built int
}

func (c *counting) BuildSavedTest(ctx context.Context, p auth.Principal, title, mode string, limit int, ids []int64) (int64, error) {
	c.built++
	return c.SavedTests.BuildSavedTest(ctx, p, title, mode, limit, ids)
}

func bankTests() *counting { return &counting{SavedTests: app.Lookup[*bank.Module](h.App)} }

// library stands in for the library module: article id -> section ids.
type library map[int64][]string

func (l library) ArticleSectionExists(_ context.Context, id int64, section string) (bool, bool, error) {
	ss, ok := l[id]
	if !ok {
		return false, false, nil
	}
	for _, s := range ss {
		if s == section {
			return true, true, nil
		}
	}
	return true, false, nil
}

func withPorts(t plans.SavedTests, a plans.Articles, d plans.Decks) {
	DeferCleanup(app.Lookup[*plans.Module](h.App).SetPorts(t, a, d))
}
