package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Creating questions", func() {
	It("files an MCQ with its answer side and figures (moderators), 201", func() {
		res := mod.Client(h).Post(api+"/questions/create", mcq("What is the capital letter of Bravo?"))
		Expect(res).To(HaveStatus(201))
		m := res.Map()
		Expect(m["question_type"]).To(Equal("mcq"))
		Expect(m["correct_answer"]).To(Equal("Bravo"))
		Expect(m["explanation"]).To(Equal("Bravo is right because of the rule."))
		Expect(m["option_explanations"]).To(HaveLen(4))
		Expect(m["attending_tip"]).To(Equal("Think of Bravo."))
		Expect(m["explanation_image_path"]).To(Equal("figures/explain.png"))
		Expect(m["image_path"]).To(Equal("figures/stem.png"))
		Expect(m["figures"]).To(HaveLen(3))
		Expect(m["can_edit"]).To(BeTrue())
		Expect(m["version"]).To(BeEquivalentTo(1))
	})

	It("files a fill-in question with accepted alternatives", func() {
		res := admin.Client(h).Post(api+"/questions/create", q{"question_text": "Name the gas we breathe in.",
			"question_type": "fill_in", "correct_answer": "oxygen|O2"})
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["options"]).To(BeEmpty())
		Expect(res.Map()["correct_answer"]).To(Equal("oxygen|O2"))
	})

	It("is refused to learners and grant holders (403)", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(api+"/questions/create", mcq("x"))).To(HaveError(403, "forbidden"))
		holder := grantHolder("category", category(unique("GrantCat"), nil, nil))
		Expect(holder.Client(h).Post(api+"/questions/create", mcq("x"))).To(HaveError(403, "forbidden"))
	})

	DescribeTable("refuses a question that breaks a rule (422) and stores nothing",
		func(body q, field string) {
			before := mod.Client(h).Get(api + "/questions/bank?limit=1").Map()["total"]
			res := mod.Client(h).Post(api+"/questions/create", body)
			Expect(res).To(HaveError(422, "invalid_request"))
			Expect(res.Body).To(ContainSubstring(field))
			Expect(mod.Client(h).Get(api + "/questions/bank?limit=1").Map()["total"]).To(Equal(before))
		},
		Entry("correct answer not an option", mcq("q1", q{"correct_answer": "Zulu"}), "correct_answer"),
		Entry("one option only", mcq("q2", q{"options": []string{"Bravo"}, "option_explanations": []string{}}), "options"),
		Entry("duplicate options", mcq("q3", q{"options": []string{"Bravo", "bravo", "C", "D"}}), "options[1]"),
		Entry("blank option", mcq("q4", q{"options": []string{"Bravo", " ", "C", "D"}}), "options[1]"),
		Entry("no correct answer", mcq("q5", q{"correct_answer": ""}), "correct_answer"),
		Entry("option explanations not one per option", mcq("q6", q{"option_explanations": []string{"a"}}), "option_explanations"),
		Entry("blank stem", mcq("   "), "question_text"),
		Entry("fill-in with options", q{"question_text": "x", "question_type": "fill_in", "options": []string{"a", "b"},
			"correct_answer": "a"}, "options"),
		Entry("fill-in without an answer", q{"question_text": "x", "question_type": "fill_in", "correct_answer": "|"}, "correct_answer"),
		Entry("unknown type", mcq("q7", q{"question_type": "essay"}), "question_type"),
		Entry("a URL as image path", mcq("q8", q{"image_path": "https://evil.example/x.png"}), "image_path"),
		Entry("a figure with an unknown role", mcq("q9", q{"figures": []q{{"path": "a.png", "role": "cover"}}}), "role"),
		Entry("a figure path climbing out", mcq("q10", q{"figures": []q{{"path": "../a.png", "role": "stem"}}}), "figures[0].path"),
		Entry("an unknown category", mcq("q11", q{"question_category_id": 999999}), "question_category_id"),
		Entry("an unknown field", mcq("q12", q{"owner": 3}), "owner"),
	)

	It("allocates ids from a sequence and never reissues one, even after a purge", func() {
		first := create(mcq(unique("seq")))
		Expect(mod.Client(h).Delete(path("/questions/%d", first))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", first))).To(HaveStatus(204))
		second := create(mcq(unique("seq")))
		Expect(second).To(BeNumerically(">", first))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", first))).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Question detail and answer-side redaction", func() {
	var id, cat int64
	var learner, holder, other *User

	BeforeEach(func() {
		cat = category(unique("RedactCat"), nil, nil)
		id = create(mcq(unique("Redacted stem"), q{"question_category_id": cat}))
		learner = h.NewUser(auth.RoleUser)
		holder = grantHolder("category", cat)
		other = grantHolder("category", category(unique("Elsewhere"), nil, nil))
	})

	It("shows everything to moderators and admins, can_edit true", func() {
		for _, u := range []*User{mod, admin} {
			m := u.Client(h).Get(path("/questions/detail/%d", id)).Map()
			Expect(m["can_edit"]).To(BeTrue())
			Expect(m["correct_answer"]).To(Equal("Bravo"))
			Expect(m["figures"]).To(HaveLen(3))
		}
	})

	It("shows everything to a grant holder whose branch covers the question", func() {
		m := holder.Client(h).Get(path("/questions/detail/%d", id)).Map()
		Expect(m["can_edit"]).To(BeTrue())
		Expect(m["explanation"]).To(Equal("Bravo is right because of the rule."))
	})

	It("shows stem, options, type and filing to a learner; answer side null, stem figures only", func() {
		for _, u := range []*User{learner, other} {
			res := u.Client(h).Get(path("/questions/detail/%d", id))
			Expect(res).To(HaveStatus(200))
			m := res.Map()
			Expect(m["can_edit"]).To(BeFalse())
			Expect(m["question_text"]).To(HavePrefix("Redacted stem"))
			Expect(m["options"]).To(HaveLen(4))
			Expect(m["question_type"]).To(Equal("mcq"))
			Expect(m["question_category_id"]).To(BeEquivalentTo(cat))
			Expect(m["image_path"]).To(Equal("figures/stem.png"))
			for _, k := range []string{"correct_answer", "explanation", "option_explanations", "key_points",
				"attending_tip", "explanation_image_path"} {
				Expect(m).To(HaveKeyWithValue(k, BeNil()), k)
			}
			Expect(m["figures"]).To(ConsistOf(HaveKeyWithValue("role", "stem")))
		}
	})

	It("refuses the answer side outside an authorised attempt (403, says to sit it)", func() {
		res := learner.Client(h).Get(path("/questions/detail/%d?attempt_id=12345", id))
		Expect(res).To(HaveError(403, "forbidden"))
		Expect(res.Map()["detail"]).To(ContainSubstring("sit this question"))
	})

	It("still answers editors in full when they pass an attempt id", func() {
		Expect(holder.Client(h).Get(path("/questions/detail/%d?attempt_id=1", id)).Map()["correct_answer"]).
			To(Equal("Bravo"))
	})

	It("answers 404 for a missing question, and 422 for a bad id", func() {
		Expect(learner.Client(h).Get(path("/questions/detail/%d", 987654321))).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Get(api + "/questions/detail/abc")).To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Get(path("/questions/detail/%d?attempt_id=0", id))).To(HaveError(422, "invalid_request"))
	})

	It("hides a trashed question from everyone but moderators", func() {
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(learner.Client(h).Get(path("/questions/detail/%d", id))).To(HaveError(404, "not_found"))
		Expect(holder.Client(h).Get(path("/questions/detail/%d", id))).To(HaveError(404, "not_found"))
		m := mod.Client(h).Get(path("/questions/detail/%d", id)).Map()
		Expect(m["deleted_at"]).NotTo(BeNil())
	})

	It("needs a token (401)", func() {
		Expect(h.Anon().Get(path("/questions/detail/%d", id))).To(HaveError(401, "unauthenticated"))
	})
})

var _ = Describe("Editing questions", func() {
	var id, cat int64

	BeforeEach(func() {
		cat = category(unique("EditCat"), nil, nil)
		id = create(mcq(unique("Editable"), q{"question_category_id": cat}))
	})

	It("lets a moderator change fields and bumps the version", func() {
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"explanation": "A better reason."})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["explanation"]).To(Equal("A better reason."))
		Expect(res.Map()["version"]).To(BeEquivalentTo(2))
		Expect(res.Map()["question_text"]).To(HavePrefix("Editable"))
	})

	It("lets a grant holder covering the branch (even from an ancestor) edit", func() {
		child := category(unique("Child"), &cat, nil)
		leaf := create(mcq(unique("Leaf"), q{"question_category_id": child}))
		holder := grantHolder("category", cat)
		Expect(holder.Client(h).Patch(path("/questions/%d", leaf), q{"attending_tip": "Grant edit"})).To(HaveStatus(200))
	})

	It("lets a quiz grant holder edit the quiz's questions only", func() {
		outside := create(mcq(unique("Outside")))
		z := quiz(unique("Graded"), []int64{id})
		holder := grantHolder("quiz", z)
		Expect(holder.Client(h).Patch(path("/questions/%d", id), q{"attending_tip": "quiz grant"})).To(HaveStatus(200))
		Expect(holder.Client(h).Patch(path("/questions/%d", outside), q{"attending_tip": "no"})).To(HaveError(404, "not_found"),
			"a question the holder does not reach answers as a missing one")
	})

	It("lets a quiz grant reach only while its quiz is live", func() {
		z := quiz(unique("Trashed grant"), []int64{id})
		holder := grantHolder("quiz", z)
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		Expect(holder.Client(h).Patch(path("/questions/%d", id), q{"attending_tip": "no"})).To(HaveError(404, "not_found"),
			"out of the holder's reach with the quiz")
		Expect(holder.Client(h).Get(path("/questions/detail/%d", id)).Map()["can_edit"]).To(BeFalse())
		Expect(mod.Client(h).Patch(path("/quizzes/%d/restore", z), nil)).To(HaveStatus(200))
		Expect(holder.Client(h).Patch(path("/questions/%d", id), q{"attending_tip": "yes"})).To(HaveStatus(200))
	})

	It("follows the tree at check time: moving a category out of the granted branch ends the grant's reach", func() {
		child := category(unique("Movable"), &cat, nil)
		leaf := create(mcq(unique("Moved leaf"), q{"question_category_id": child}))
		holder := grantHolder("category", cat)
		Expect(holder.Client(h).Patch(path("/questions/%d", leaf), q{"attending_tip": "before"})).To(HaveStatus(200))
		Expect(mod.Client(h).Patch(path("/question-categories/%d", child), q{"parent_id": nil})).To(HaveStatus(200))
		Expect(holder.Client(h).Patch(path("/questions/%d", leaf), q{"attending_tip": "after"})).To(HaveError(404, "not_found"),
			"out of the holder's reach with the branch")
		Expect(mod.Client(h).Get(path("/questions/detail/%d", leaf)).Map()["attending_tip"]).To(Equal("before"))
	})

	It("refuses learners and holders of a grant elsewhere (404 while they do not reach it, then 403) and changes nothing", func() {
		learner := h.NewUser(auth.RoleUser)
		other := grantHolder("category", category(unique("Other"), nil, nil))
		for _, u := range []*User{learner, other} {
			Expect(u.Client(h).Patch(path("/questions/%d", id), q{"explanation": "hijack"})).To(HaveError(404, "not_found"))
		}
		publish(quiz(unique("Now open "), []int64{id}))
		for _, u := range []*User{learner, other} {
			Expect(u.Client(h).Patch(path("/questions/%d", id), q{"explanation": "hijack"})).To(HaveError(403, "forbidden"))
		}
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["explanation"]).
			To(Equal("Bravo is right because of the rule."))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", id)).List()).To(BeEmpty())
	})

	It("refuses a change that breaks a rule (422) and writes no version", func() {
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"correct_answer": "Zulu"})
		Expect(res).To(HaveError(422, "invalid_request"))
		res = mod.Client(h).Patch(path("/questions/%d", id), q{"options": []string{"Only"}})
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", id)).List()).To(BeEmpty())
	})

	It("changes type together with options, and clears paths with null", func() {
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"question_type": "fill_in", "options": []string{},
			"option_explanations": []string{}, "correct_answer": "bravo|b", "image_path": nil})
		Expect(res).To(HaveStatus(200))
		m := res.Map()
		Expect(m["question_type"]).To(Equal("fill_in"))
		Expect(m["options"]).To(BeEmpty())
		Expect(m["image_path"]).To(BeNil())
		Expect(m["explanation_image_path"]).To(Equal("figures/explain.png"))
	})

	It("writes nothing for a change that changes nothing", func() {
		res := mod.Client(h).Patch(path("/questions/%d", id), q{"correct_answer": "Bravo"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["version"]).To(BeEquivalentTo(1))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", id)).List()).To(BeEmpty())
	})

	It("refuses edits of a trashed question: 409 for moderators, 404 for others", func() {
		holder := grantHolder("category", cat)
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"explanation": "x"})).To(HaveError(409, "conflict"))
		Expect(holder.Client(h).Patch(path("/questions/%d", id), q{"explanation": "x"})).To(HaveError(404, "not_found"))
	})

	It("answers 404 for a missing question", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d", 987654321), q{"explanation": "x"})).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("The question trash", func() {
	var id int64
	var learner, holder *User

	BeforeEach(func() {
		cat := category(unique("TrashCat"), nil, nil)
		id = create(mcq(unique("Trashable"), q{"question_category_id": cat}))
		learner = h.NewUser(auth.RoleUser)
		holder = grantHolder("category", cat)
	})

	It("runs live → trashed → live → trashed → removed, with the listing following", func() {
		inBank := func() bool {
			for _, x := range ids(mod.Client(h).Get(api + "/questions/bank?limit=200")) {
				if x == id {
					return true
				}
			}
			return false
		}
		inTrash := func() bool {
			for _, x := range ids(mod.Client(h).Get(api + "/questions/trash?limit=200")) {
				if x == id {
					return true
				}
			}
			return false
		}
		Expect(inBank()).To(BeTrue())
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(inBank()).To(BeFalse())
		Expect(inTrash()).To(BeTrue())

		res := mod.Client(h).Patch(path("/questions/%d/restore", id), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["deleted_at"]).To(BeNil())
		Expect(inBank()).To(BeTrue())
		Expect(inTrash()).To(BeFalse())

		Expect(admin.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(admin.Client(h).Delete(path("/questions/%d/permanent", id))).To(HaveStatus(204))
		Expect(inTrash()).To(BeFalse())
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id))).To(HaveError(404, "not_found"))
	})

	It("refuses to trash twice (404), restore a live question (400), or purge a live one (400)", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", id), nil)).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", id))).To(HaveError(400, "bad_request"))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", 987654321))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", 987654321), nil)).To(HaveError(404, "not_found"))
	})

	It("is moderators' only: learners and grant holders cannot delete, list, restore or purge (403)", func() {
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Delete(path("/questions/%d", id))).To(HaveError(403, "forbidden"))
		}
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		for _, u := range []*User{learner, holder} {
			Expect(u.Client(h).Get(api + "/questions/trash")).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Patch(path("/questions/%d/restore", id), nil)).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Delete(path("/questions/%d/permanent", id))).To(HaveError(403, "forbidden"))
		}
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["deleted_at"]).NotTo(BeNil())
	})

	It("pages the trash with a total", func() {
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		m := mod.Client(h).Get(api + "/questions/trash?limit=1").Map()
		Expect(m["total"]).To(BeNumerically(">=", 1))
		Expect(m["questions"]).To(HaveLen(1))
		Expect(mod.Client(h).Get(api + "/questions/trash?limit=201")).To(HaveError(422, "invalid_request"))
	})
})
