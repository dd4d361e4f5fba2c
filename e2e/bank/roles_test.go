package bank_test

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// fixture is a fresh set of targets for one call, so destructive routes
// never share state. Everything is filed under the grant holder's branch.
type fixture struct {
	question, trashed, versionOf, version, quiz, quizCategory, category, trashedQuiz int64
}

var _ = Describe("Every bank route from every role", Ordered, func() {
	var root int64
	var learner, holder *User

	BeforeAll(func() {
		root = category(unique("RolesRoot"), nil, nil)
		learner = h.NewUser(auth.RoleUser)
		holder = grantHolder("category", root)
	})

	newFixture := func() fixture {
		var f fixture
		f.category = category(unique("RolesCat"), &root, nil)
		f.question = create(mcq(unique("Roles question"), q{"question_category_id": f.category}))
		f.trashed = create(mcq(unique("Roles trashed"), q{"question_category_id": f.category}))
		Expect(mod.Client(h).Delete(path("/questions/%d", f.trashed))).To(HaveStatus(204))
		f.versionOf = create(mcq(unique("Roles versioned"), q{"question_category_id": f.category}))
		Expect(mod.Client(h).Patch(path("/questions/%d", f.versionOf), q{"explanation": "v2"})).To(HaveStatus(200))
		f.version = int64(versionsOf(mod, f.versionOf)[0].ID)
		// Both in a published quiz: every role reaches them, so the editors' routes refuse with 403.
		f.quiz = quiz(unique("Roles quiz"), []int64{f.question, f.versionOf})
		publish(f.quiz)
		res := mod.Client(h).Post(api+"/categories/", q{"name": unique("Roles quiz cat")})
		f.quizCategory = int64(res.Map()["id"].(float64))
		return f
	}
	withTrashedQuiz := func(f fixture) fixture {
		f.trashedQuiz = quiz(unique("Roles trashed quiz"), []int64{f.question})
		Expect(mod.Client(h).Delete(path("/quizzes/%d", f.trashedQuiz))).To(HaveStatus(204))
		return f
	}

	type route struct {
		method string
		path   func(f fixture) string
		body   func(f fixture) any
		// want is the status for learner, grant holder, moderator, admin.
		want [4]int
	}
	all := func(s int) [4]int { return [4]int{s, s, s, s} }
	modOnly := func(s int) [4]int { return [4]int{403, 403, s, s} }
	editors := func(s int) [4]int { return [4]int{403, s, s, s} }
	fixed := func(p string) func(fixture) string { return func(fixture) string { return p } }
	none := func(fixture) any { return nil }

	routes := []route{
		{"GET", fixed("/questions/bank"), none, all(200)},
		{"GET", fixed("/questions/bank/ids"), none, all(200)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/questions/%d/category?category_id=%d", f.question, root) }, none, modOnly(200)},
		{"POST", fixed("/questions/from-bank"), func(f fixture) any { return q{"title": "t", "question_ids": []int64{f.question}} }, modOnly(201)},
		{"POST", fixed("/questions/bulk-category"), func(f fixture) any { return q{"question_ids": []int64{f.question}, "category_id": root} }, modOnly(200)},
		{"GET", func(f fixture) string { return fmt.Sprintf("/questions/detail/%d", f.question) }, none, all(200)},
		{"GET", func(f fixture) string { return fmt.Sprintf("/questions/detail/%d/versions", f.versionOf) }, none, editors(200)},
		{"POST", func(f fixture) string {
			return fmt.Sprintf("/questions/detail/%d/versions/%d/restore", f.versionOf, f.version)
		}, none, editors(200)},
		{"POST", fixed("/questions/create"), func(fixture) any { return mcq(unique("made")) }, modOnly(201)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/questions/%d", f.question) }, func(fixture) any { return q{"explanation": "edited"} }, editors(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/questions/%d", f.question) }, none, modOnly(204)},
		{"GET", fixed("/questions/trash"), none, modOnly(200)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/questions/%d/restore", f.trashed) }, none, modOnly(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/questions/%d/permanent", f.trashed) }, none, modOnly(204)},

		{"GET", fixed("/quizzes/"), none, all(200)},
		{"GET", fixed("/quizzes/search?q=roles"), none, all(200)},
		{"GET", func(f fixture) string { return fmt.Sprintf("/quizzes/%d", f.quiz) }, none, all(200)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/quizzes/%d", f.quiz) }, func(fixture) any { return q{"title": "renamed"} }, modOnly(200)},
		{"POST", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/shuffle", f.quiz) }, none, all(200)},
		{"GET", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/review", f.quiz) }, none, modOnly(200)},
		{"GET", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/questions", f.quiz) }, none, modOnly(200)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/questions/%d", f.quiz, f.question) },
			func(fixture) any { return q{"explanation": "quiz edit"} }, modOnly(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/questions/%d", f.quiz, f.question) }, none, modOnly(204)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/publish?published=false", f.quiz) }, none, modOnly(200)},
		{"GET", fixed("/quizzes/trash"), none, modOnly(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/quizzes/%d", f.quiz) }, none, modOnly(204)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/restore", f.trashedQuiz) }, none, modOnly(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/quizzes/%d/permanent", f.trashedQuiz) }, none, modOnly(204)},

		{"GET", fixed("/categories/"), none, all(200)},
		{"POST", fixed("/categories/"), func(fixture) any { return q{"name": unique("role cat")} }, modOnly(201)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/categories/%d", f.quizCategory) }, none, modOnly(204)},
		{"PATCH", func(f fixture) string {
			return fmt.Sprintf("/categories/quizzes/%d?category_id=%d", f.quiz, f.quizCategory)
		}, none, modOnly(200)},
		{"GET", fixed("/question-categories/"), none, all(200)},
		{"POST", fixed("/question-categories/"), func(fixture) any { return q{"name": unique("role qcat")} }, modOnly(201)},
		{"PATCH", func(f fixture) string { return fmt.Sprintf("/question-categories/%d", f.category) },
			func(fixture) any { return q{"description": "described"} }, modOnly(200)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/question-categories/%d?move_to=%d", f.category, root) }, none, modOnly(204)},
		{"POST", func(f fixture) string { return fmt.Sprintf("/question-categories/%d/create-quiz?title=x", f.category) }, none, modOnly(201)},

		{"GET", fixed("/tags"), none, all(200)},
		{"POST", fixed("/tags/classify"), none, modOnly(202)},
		{"GET", fixed("/tags/status/job-1"), none, all(404)},
		{"POST", fixed("/favorites"), func(f fixture) any { return q{"question_id": f.question} }, all(201)},
		{"DELETE", func(f fixture) string { return fmt.Sprintf("/favorites/%d", f.question) }, none, all(204)},
		{"GET", fixed("/favorites"), none, all(200)},
		{"GET", fixed("/admin/classification-snapshots"), none, [4]int{403, 403, 403, 200}},
		// A real rollback is tried in snapshots_test.go (it rewrites the whole
		// classification); here an unknown snapshot reaches the admin's 404.
		{"POST", fixed("/admin/classification-snapshots/987654321/rollback"), none, [4]int{403, 403, 403, 404}},
	}

	for _, r := range routes {
		It(fmt.Sprintf("%s %s", r.method, r.path(fixture{1, 2, 3, 4, 5, 6, 7, 8})), func() {
			users := []*User{learner, holder, mod, admin}
			names := []string{"learner", "grant holder", "moderator", "admin"}
			fresh := func() fixture {
				f := newFixture()
				// Only the trashed-quiz routes read trashedQuiz: make one for them.
				if strings.Contains(r.path(fixture{trashedQuiz: -1}), "/-1/") {
					f = withTrashedQuiz(f)
				}
				return f
			}
			for i, u := range users {
				f := fresh()
				res := u.Client(h).Do(r.method, api+r.path(f), r.body(f))
				Expect(res.Status).To(Equal(r.want[i]), "%s as %s: %s", r.method, names[i], res.Body)
				if r.want[i] >= 400 {
					Expect(res.ErrorCode()).NotTo(BeEmpty())
				}
			}
			f := fresh()
			Expect(h.Anon().Do(r.method, api+r.path(f), r.body(f))).To(HaveError(http.StatusUnauthorized, "unauthenticated"))
		})
	}
})
