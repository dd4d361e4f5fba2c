package bank_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

func findByID(list []any, id int64) map[string]any {
	for _, x := range list {
		m := x.(map[string]any)
		if int64(m["id"].(float64)) == id {
			return m
		}
	}
	return nil
}

var _ = Describe("Quiz categories", func() {
	var learner *User

	BeforeEach(func() { learner = h.NewUser(auth.RoleUser) })

	It("creates (moderators, 201), lists with the quizzes each caller can see, and refuses a taken name (409)", func() {
		name := unique("Quiz cat")
		res := mod.Client(h).Post(api+"/categories/", q{"name": name})
		Expect(res).To(HaveStatus(201))
		cat := int64(res.Map()["id"].(float64))
		Expect(res.Map()).To(HaveKeyWithValue("quiz_count", BeEquivalentTo(0)))
		Expect(mod.Client(h).Post(api+"/categories/", q{"name": " " + name + " "})).To(HaveError(409, "conflict"))

		live := quiz(unique("In cat"), []int64{create(mcq(unique("c")))})
		draft := quiz(unique("In cat draft"), []int64{create(mcq(unique("c")))})
		publish(live)
		for _, z := range []int64{live, draft} {
			res := mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", z, cat), nil)
			Expect(res).To(HaveStatus(200))
			Expect(res.Map()).To(Equal(map[string]any{"quiz_id": float64(z), "category_id": float64(cat)}))
		}
		Expect(findByID(mod.Client(h).Get(api+"/categories/").List(), cat)["quiz_count"]).To(BeEquivalentTo(2))
		Expect(findByID(learner.Client(h).Get(api+"/categories/").List(), cat)["quiz_count"]).To(BeEquivalentTo(1))
		Expect(getQuiz(mod, live, "").Title).NotTo(BeEmpty())
	})

	It("unassigns a quiz when category_id is left out, and refuses unknown ones (404)", func() {
		cat := int64(mod.Client(h).Post(api+"/categories/", q{"name": unique("Cat")}).Map()["id"].(float64))
		z := quiz(unique("Assign"), []int64{create(mcq(unique("c")))})
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", z, cat), nil)).To(HaveStatus(200))
		res := mod.Client(h).Patch(path("/categories/quizzes/%d", z), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["category_id"]).To(BeNil())
		Expect(findByID(mod.Client(h).Get(api+"/categories/").List(), cat)["quiz_count"]).To(BeEquivalentTo(0))
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=987654", z), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", 987654321, cat), nil)).To(HaveError(404, "not_found"))
	})

	It("deletes (204) and unassigns its quizzes", func() {
		cat := int64(mod.Client(h).Post(api+"/categories/", q{"name": unique("Doomed")}).Map()["id"].(float64))
		z := quiz(unique("Orphan"), []int64{create(mcq(unique("c")))})
		Expect(mod.Client(h).Patch(path("/categories/quizzes/%d?category_id=%d", z, cat), nil)).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/categories/%d", cat))).To(HaveStatus(204))
		Expect(findByID(mod.Client(h).Get(api+"/categories/").List(), cat)).To(BeNil())
		d := mod.Client(h).Get(path("/quizzes/%d", z)).Map()
		Expect(d["category_id"]).To(BeNil())
		Expect(mod.Client(h).Delete(path("/categories/%d", cat))).To(HaveError(404, "not_found"))
	})

	It("is moderators' only for writes (403), readable by all", func() {
		holder := grantHolder("category", category(unique("g"), nil, nil))
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Get(api + "/categories/")).To(HaveStatus(200))
			Expect(u.Client(h).Post(api+"/categories/", q{"name": "x"})).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/categories/%d", 1))).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Patch(path("/categories/quizzes/%d", 1), nil)).To(HaveError(403, "forbidden"))
		}
		Expect(mod.Client(h).Post(api+"/categories/", q{"name": ""})).To(HaveError(422, "invalid_request"))
	})
})

var _ = Describe("The question-category tree", func() {
	var learner *User

	BeforeEach(func() { learner = h.NewUser(auth.RoleUser) })

	categories := func(u *User) []any { return u.Client(h).Get(api + "/question-categories/").List() }

	It("creates nodes with description, parent and system, and counts live questions", func() {
		sys := systemTag("Respiratory")
		res := mod.Client(h).Post(api+"/question-categories/", q{"name": unique("Lungs"), "description": "Airways",
			"system_id": sys})
		Expect(res).To(HaveStatus(201))
		root := int64(res.Map()["id"].(float64))
		Expect(res.Map()).To(HaveKeyWithValue("description", "Airways"))
		Expect(res.Map()).To(HaveKeyWithValue("system_id", BeEquivalentTo(sys)))
		child := category(unique("Asthma"), &root, nil)

		create(mcq(unique("r1"), q{"question_category_id": root}))
		create(mcq(unique("c1"), q{"question_category_id": child}))
		trashed := create(mcq(unique("c2"), q{"question_category_id": child}))
		Expect(mod.Client(h).Delete(path("/questions/%d", trashed))).To(HaveStatus(204))

		list := categories(learner)
		r, c := findByID(list, root), findByID(list, child)
		Expect(r).To(HaveKeyWithValue("question_count", BeEquivalentTo(1)))
		Expect(r).To(HaveKeyWithValue("branch_question_count", BeEquivalentTo(2)))
		Expect(c).To(HaveKeyWithValue("parent_id", BeEquivalentTo(root)))
		Expect(c).To(HaveKeyWithValue("description", BeNil()))
		Expect(c).To(HaveKeyWithValue("system_id", BeNil()))
		Expect(c).To(HaveKeyWithValue("inherited_system_id", BeEquivalentTo(sys)))
	})

	DescribeTable("refuses bad nodes", func(body func() q, status int, code string) {
		Expect(mod.Client(h).Post(api+"/question-categories/", body())).To(HaveError(status, code))
	},
		Entry("blank name", func() q { return q{"name": "  "} }, 422, "invalid_request"),
		Entry("unknown parent", func() q { return q{"name": "x", "parent_id": 987654} }, 422, "invalid_request"),
		Entry("a system id that is not a system tag", func() q {
			return q{"name": unique("x"), "system_id": tag(create(mcq(unique("t"))), "subject", unique("NotSystem"))}
		}, 422, "invalid_request"),
	)

	It("refuses a sibling with the same name (409), but allows it elsewhere in the tree", func() {
		name := unique("Twin")
		parent := category(unique("Parent"), nil, nil)
		category(name, nil, nil)
		Expect(mod.Client(h).Post(api+"/question-categories/", q{"name": name})).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Post(api+"/question-categories/", q{"name": name, "parent_id": parent})).To(HaveStatus(201))
	})

	It("renames, re-describes, moves and re-systems; null clears", func() {
		a := category(unique("A"), nil, nil)
		b := category(unique("B"), nil, nil)
		res := mod.Client(h).Patch(path("/question-categories/%d", b), q{"name": "Renamed " + unique("B"),
			"description": "New words", "parent_id": a, "system_id": systemTag("Skin")})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(HaveKeyWithValue("parent_id", BeEquivalentTo(a)))
		Expect(res.Map()).To(HaveKeyWithValue("description", "New words"))
		res = mod.Client(h).Patch(path("/question-categories/%d", b), q{"parent_id": nil, "description": nil})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["parent_id"]).To(BeNil())
		Expect(res.Map()["description"]).To(BeNil())
		Expect(res.Map()["name"]).To(HavePrefix("Renamed"))
		Expect(res.Map()["system_id"]).NotTo(BeNil())
	})

	It("refuses a change that breaks a rule: a sibling's name (409), an unknown parent, a non-system tag or a blank name (422)", func() {
		taken := unique("Taken")
		category(taken, nil, nil)
		c := category(unique("Changing"), nil, nil)
		notSystem := tag(create(mcq(unique("t"))), "disease", unique("NotASystem"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", c), q{"name": taken})).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", c), q{"parent_id": 987654})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", c), q{"system_id": notSystem})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", c), q{"name": "   "})).To(HaveError(422, "invalid_request"))
		got := findByID(categories(mod), c)
		Expect(got["name"]).To(HavePrefix("Changing"))
		Expect(got["parent_id"]).To(BeNil())
		Expect(got["system_id"]).To(BeNil())
	})

	It("refuses a move under itself or its own descendant (400)", func() {
		a := category(unique("Top"), nil, nil)
		b := category(unique("Mid"), &a, nil)
		c := category(unique("Low"), &b, nil)
		Expect(mod.Client(h).Patch(path("/question-categories/%d", a), q{"parent_id": c})).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", a), q{"parent_id": a})).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", 987654), q{"name": "x"})).To(HaveError(404, "not_found"))
	})

	It("deletes, moving questions to move_to and subcategories up a level", func() {
		top := category(unique("DelTop"), nil, nil)
		doomed := category(unique("Doomed"), &top, nil)
		kid := category(unique("Kid"), &doomed, nil)
		target := category(unique("Target"), nil, nil)
		x := create(mcq(unique("moves"), q{"question_category_id": doomed}))
		y := create(mcq(unique("stays"), q{"question_category_id": kid}))

		Expect(mod.Client(h).Delete(path("/question-categories/%d?move_to=%d", doomed, target))).To(HaveStatus(204))
		list := categories(mod)
		Expect(findByID(list, doomed)).To(BeNil())
		Expect(findByID(list, kid)).To(HaveKeyWithValue("parent_id", BeEquivalentTo(top)))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", x)).Map()["question_category_id"]).To(BeEquivalentTo(target))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", y)).Map()["question_category_id"]).To(BeEquivalentTo(kid))
	})

	It("deletes without move_to, leaving its questions uncategorised", func() {
		doomed := category(unique("Alone"), nil, nil)
		x := create(mcq(unique("unfiled"), q{"question_category_id": doomed}))
		Expect(mod.Client(h).Delete(path("/question-categories/%d", doomed))).To(HaveStatus(204))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", x)).Map()["question_category_id"]).To(BeNil())
	})

	It("refuses move_to itself (400) or an unknown one (404), and an unknown category (404)", func() {
		doomed := category(unique("Stay"), nil, nil)
		Expect(mod.Client(h).Delete(path("/question-categories/%d?move_to=%d", doomed, doomed))).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(path("/question-categories/%d?move_to=987654", doomed))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(path("/question-categories/%d", 987654))).To(HaveError(404, "not_found"))
		Expect(findByID(categories(mod), doomed)).NotTo(BeNil())
	})

	It("makes a quiz from a category's branch (unpublished, 201)", func() {
		top := category(unique("QuizTop"), nil, nil)
		sub := category(unique("QuizSub"), &top, nil)
		a := create(mcq(unique("qa"), q{"question_category_id": top}))
		b := create(mcq(unique("qb"), q{"question_category_id": sub}))
		trashed := create(mcq(unique("qc"), q{"question_category_id": sub}))
		Expect(mod.Client(h).Delete(path("/questions/%d", trashed))).To(HaveStatus(204))

		res := mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=%s&mode=learning&time_limit_minutes=25",
			top, "Branch%20quiz"), nil)
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()).To(HaveKeyWithValue("title", "Branch quiz"))
		Expect(res.Map()).To(HaveKeyWithValue("questions_count", BeEquivalentTo(2)))
		d := getQuiz(mod, int64(res.Map()["id"].(float64)), "")
		Expect(questionIDs(d)).To(Equal([]int64{a, b}))
		Expect(d.Mode).To(Equal("learning"))
		Expect(*d.TimeLimitMinutes).To(Equal(25))
		Expect(d.IsPublished).To(Equal(0))

		res = mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=Default", sub), nil)
		d = getQuiz(mod, int64(res.Map()["id"].(float64)), "")
		Expect(d.Mode).To(Equal("timed"))
		Expect(d.TimeLimitMinutes).To(BeNil())
	})

	It("refuses a quiz from an empty category (400), an unknown one (404), or without a title (422)", func() {
		empty := category(unique("Empty"), nil, nil)
		Expect(mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=x", empty), nil)).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=x", 987654), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(path("/question-categories/%d/create-quiz", empty), nil)).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=x&mode=exam", empty), nil)).To(HaveError(422, "invalid_request"))
		create(mcq(unique("Not empty"), q{"question_category_id": empty}))
		Expect(mod.Client(h).Post(path("/question-categories/%d/create-quiz?title=%%20%%20", empty), nil)).To(HaveError(422, "invalid_request"))
	})

	It("files questions one at a time and in bulk (moderators)", func() {
		from := category(unique("From"), nil, nil)
		to := category(unique("To"), nil, nil)
		a := create(mcq(unique("fa"), q{"question_category_id": from}))
		b := create(mcq(unique("fb"), q{"question_category_id": from}))
		c := create(mcq(unique("fc")))

		res := mod.Client(h).Patch(path("/questions/%d/category?category_id=%d", a, to), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"question_id": float64(a), "question_category_id": float64(to)}))
		res = mod.Client(h).Patch(path("/questions/%d/category", a), nil)
		Expect(res.Map()["question_category_id"]).To(BeNil())
		Expect(mod.Client(h).Get(path("/questions/detail/%d", a)).Map()["question_category_id"]).To(BeNil())

		res = mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{a, b, c, 987654321}, "category_id": to})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"updated": float64(3), "question_category_id": float64(to)}))
		Expect(list(mod, "category_id="+fmt.Sprint(to)).ids()).To(ConsistOf(a, b, c))
		res = mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{a, b}, "category_id": nil})
		Expect(res.Map()["updated"]).To(BeEquivalentTo(2))
		Expect(list(mod, "category_id="+fmt.Sprint(to)).ids()).To(ConsistOf(c))

		Expect(mod.Client(h).Patch(path("/questions/%d/category?category_id=987654", c), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/questions/%d/category", 987654321), nil)).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{c}, "category_id": 987654})).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{}})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": make([]int64, 1001)})).
			To(HaveError(422, "invalid_request"))

		// A trashed question is not refiled: 404 alone, left alone in bulk.
		Expect(mod.Client(h).Delete(path("/questions/%d", b))).To(HaveStatus(204))
		Expect(mod.Client(h).Patch(path("/questions/%d/category?category_id=%d", b, to), nil)).To(HaveError(404, "not_found"))
		res = mod.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{a, b}, "category_id": to})
		Expect(res.Map()["updated"]).To(BeEquivalentTo(1))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", b)).Map()["question_category_id"]).To(BeNil())
		holder := grantHolder("category", to)
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Patch(path("/questions/%d/category?category_id=%d", c, from), nil)).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Post(api+"/questions/bulk-category", q{"question_ids": []int64{c}})).To(HaveError(403, "forbidden"))
		}
	})

	It("is moderators' only for writes (403), readable by all", func() {
		cat := category(unique("Guarded"), nil, nil)
		holder := grantHolder("category", cat)
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Get(api + "/question-categories/")).To(HaveStatus(200))
			Expect(u.Client(h).Post(api+"/question-categories/", q{"name": "x"})).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Patch(path("/question-categories/%d", cat), q{"name": "x"})).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/question-categories/%d", cat))).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Post(path("/question-categories/%d/create-quiz?title=x", cat), nil)).To(HaveError(403, "forbidden"))
		}
	})
})
