package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

type version struct {
	ID         int64          `json:"id"`
	QuestionID int64          `json:"question_id"`
	EditedBy   int64          `json:"edited_by"`
	CreatedAt  string         `json:"created_at"`
	Snapshot   map[string]any `json:"snapshot"`
}

func versionsOf(u *User, id int64) []version {
	var vs []version
	res := u.Client(h).Get(path("/questions/detail/%d/versions", id))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	res.JSON(&vs)
	return vs
}

var _ = Describe("Question versions", func() {
	var id, cat int64
	var holder *User

	BeforeEach(func() {
		cat = category(unique("VersionCat"), nil, nil)
		id = create(mcq("Original stem", q{"question_category_id": cat}))
		holder = grantHolder("category", cat)
	})

	It("snapshots the prior state before each edit, with editor and time, newest first", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Second stem"})).To(HaveStatus(200))
		Expect(holder.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Third stem",
			"options": []string{"Bravo", "Echo"}, "option_explanations": []string{}})).To(HaveStatus(200))

		vs := versionsOf(mod, id)
		Expect(vs).To(HaveLen(2))
		Expect(vs[0].ID).To(BeNumerically(">", vs[1].ID))
		Expect(vs[0].Snapshot["question_text"]).To(Equal("Second stem"))
		Expect(vs[0].EditedBy).To(Equal(holder.ID))
		Expect(vs[1].Snapshot["question_text"]).To(Equal("Original stem"))
		Expect(vs[1].EditedBy).To(Equal(mod.ID))
		Expect(vs[1].QuestionID).To(Equal(id))
		Expect(vs[1].CreatedAt).NotTo(BeEmpty())
		// Every versioned field is in the snapshot, answer side included.
		Expect(vs[1].Snapshot).To(HaveKeyWithValue("correct_answer", "Bravo"))
		Expect(vs[1].Snapshot).To(HaveKeyWithValue("options", HaveLen(4)))
		Expect(vs[1].Snapshot).To(HaveKeyWithValue("figures", HaveLen(3)))
		Expect(vs[1].Snapshot).To(HaveKey("explanation"))
		Expect(vs[1].Snapshot).To(HaveKey("key_points"))
		Expect(vs[1].Snapshot).To(HaveKey("attending_tip"))
	})

	It("writes a snapshot for quiz question edits too", func() {
		z := quiz(unique("Versioned quiz"), []int64{id})
		Expect(mod.Client(h).Patch(path("/quizzes/%d/questions/%d", z, id), q{"explanation": "Quiz edit"})).
			To(HaveStatus(200))
		vs := versionsOf(mod, id)
		Expect(vs).To(HaveLen(1))
		Expect(vs[0].Snapshot["explanation"]).To(Equal("Bravo is right because of the rule."))
	})

	It("restores a version after snapshotting the current state first", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Changed stem",
			"correct_answer": "Alpha"})).To(HaveStatus(200))
		original := versionsOf(mod, id)[0]

		res := holder.Client(h).Post(path("/questions/detail/%d/versions/%d/restore", id, original.ID), nil)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["question_text"]).To(Equal("Original stem"))
		Expect(res.Map()["correct_answer"]).To(Equal("Bravo"))
		Expect(res.Map()["version"]).To(BeEquivalentTo(3))

		vs := versionsOf(mod, id)
		Expect(vs).To(HaveLen(2))
		Expect(vs[0].Snapshot["question_text"]).To(Equal("Changed stem"))
		Expect(vs[0].Snapshot["correct_answer"]).To(Equal("Alpha"))
		Expect(vs[0].EditedBy).To(Equal(holder.ID))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["question_text"]).To(Equal("Original stem"))
	})

	It("reads and restores only for those who may edit the question (403 where others reach it, 404 where not)", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Edited"})).To(HaveStatus(200))
		v := versionsOf(mod, id)[0]
		learner := h.NewUser(auth.RoleUser)
		other := grantHolder("category", category(unique("Unrelated"), nil, nil))
		refused := func(status int, code string) {
			for _, u := range []*User{learner, other} {
				ExpectWithOffset(1, u.Client(h).Get(path("/questions/detail/%d/versions", id))).To(HaveError(status, code))
				ExpectWithOffset(1, u.Client(h).Post(path("/questions/detail/%d/versions/%d/restore", id, v.ID), nil)).
					To(HaveError(status, code))
			}
		}
		refused(404, "not_found")
		publish(quiz(unique("Versions open "), []int64{id}))
		refused(403, "forbidden")
		Expect(versionsOf(admin, id)).To(HaveLen(1))
		Expect(versionsOf(holder, id)).To(HaveLen(1))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["question_text"]).To(Equal("Edited"))
	})

	It("answers 404 for a version of another question or a missing one", func() {
		otherQ := create(mcq(unique("Other")))
		Expect(mod.Client(h).Patch(path("/questions/%d", otherQ), q{"question_text": "Other edited"})).To(HaveStatus(200))
		foreign := versionsOf(mod, otherQ)[0]
		Expect(mod.Client(h).Post(path("/questions/detail/%d/versions/%d/restore", id, foreign.ID), nil)).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(path("/questions/detail/%d/versions/%d/restore", id, 987654321), nil)).
			To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions", 987654321))).To(HaveError(404, "not_found"))
	})

	It("keeps a trashed question's versions to moderators, and refuses restoring one (409; 404 for others)", func() {
		Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": "Before the trash"})).To(HaveStatus(200))
		v := versionsOf(mod, id)[0]
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))

		Expect(versionsOf(mod, id)).To(HaveLen(1))
		Expect(holder.Client(h).Get(path("/questions/detail/%d/versions", id))).To(HaveError(404, "not_found"))
		restore := path("/questions/detail/%d/versions/%d/restore", id, v.ID)
		Expect(mod.Client(h).Post(restore, nil)).To(HaveError(409, "conflict"))
		Expect(holder.Client(h).Post(restore, nil)).To(HaveError(404, "not_found"))
		Expect(versionsOf(mod, id)).To(HaveLen(1))
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id)).Map()["question_text"]).To(Equal("Before the trash"))
	})

	It("refuses a page size above 200 (422)", func() {
		Expect(mod.Client(h).Get(path("/questions/detail/%d/versions?limit=201", id))).To(HaveError(422, "invalid_request"))
	})

	It("pages versions", func() {
		for _, s := range []string{"v2", "v3", "v4"} {
			Expect(mod.Client(h).Patch(path("/questions/%d", id), q{"question_text": s})).To(HaveStatus(200))
		}
		page := mod.Client(h).Get(path("/questions/detail/%d/versions?limit=2&offset=1", id)).List()
		Expect(page).To(HaveLen(2))
		Expect(page[0].(map[string]any)["snapshot"].(map[string]any)["question_text"]).To(Equal("v2"))
	})
})
