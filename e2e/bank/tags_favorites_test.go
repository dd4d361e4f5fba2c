package bank_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Tags", func() {
	type tagCount struct {
		ID            int64  `json:"id"`
		Type          string `json:"type"`
		Name          string `json:"name"`
		QuestionCount int    `json:"question_count"`
	}
	type groups struct {
		Subjects []tagCount `json:"subjects"`
		Diseases []tagCount `json:"diseases"`
		Systems  []tagCount `json:"systems"`
		Keywords []tagCount `json:"keywords"`
	}
	read := func(u *User) groups {
		res := u.Client(h).Get(api + "/tags")
		ExpectWithOffset(1, res).To(HaveStatus(200))
		var g groups
		res.JSON(&g)
		return g
	}
	count := func(list []tagCount, id int64) int {
		for _, t := range list {
			if t.ID == id {
				return t.QuestionCount
			}
		}
		return -1
	}

	It("groups tags by type with live-question counts, systems through the tree, keywords always empty", func() {
		sys := systemTag("Musculoskeletal")
		before := count(read(mod).Systems, sys)
		top := category(unique("Bones"), nil, &sys)
		sub := category(unique("Joints"), &top, nil)
		a := create(mcq(unique("t1"), q{"question_category_id": top}))
		b := create(mcq(unique("t2"), q{"question_category_id": sub}))
		gone := create(mcq(unique("t3"), q{"question_category_id": sub}))
		subject := tag(a, "subject", unique("Anatomy"))
		tag(b, "subject", mustTagName(subject))
		tag(gone, "subject", mustTagName(subject))
		disease := tag(b, "disease", unique("Gout"))
		tag(a, "keyword", unique("retired"))
		Expect(mod.Client(h).Delete(path("/questions/%d", gone))).To(HaveStatus(204))

		for _, u := range []*User{h.NewUser(auth.RoleUser), mod} {
			g := read(u)
			Expect(count(g.Subjects, subject)).To(Equal(2))
			Expect(count(g.Diseases, disease)).To(Equal(1))
			Expect(count(g.Systems, sys)).To(Equal(before + 2))
			Expect(g.Keywords).To(BeEmpty())
			for _, t := range g.Systems {
				Expect(t.Type).To(Equal("system"))
			}
		}
	})

	It("closes classification: 410 for moderators, 403 for learners", func() {
		res := mod.Client(h).Post(api+"/tags/classify", nil)
		Expect(res).To(HaveError(410, "gone"))
		Expect(res.Map()["detail"]).To(ContainSubstring("offline"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(api+"/tags/classify", nil)).To(HaveError(403, "forbidden"))
	})

	It("knows no classification job (404)", func() {
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(api + "/tags/status/abc-123")).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Favourites", func() {
	var learner *User
	var id int64

	BeforeEach(func() {
		learner = h.NewUser(auth.RoleUser)
		id = create(mcq(unique("Favourite")))
	})

	It("marks once (201, idempotent), lists newest first, unmarks (204)", func() {
		first := learner.Client(h).Post(api+"/favorites", q{"question_id": id})
		Expect(first).To(HaveStatus(201))
		m := first.Map()
		Expect(m).To(HaveKeyWithValue("user_id", BeEquivalentTo(learner.ID)))
		Expect(m).To(HaveKeyWithValue("question_id", BeEquivalentTo(id)))
		Expect(m).To(HaveKey("created_at"))
		again := learner.Client(h).Post(api+"/favorites", q{"question_id": id})
		Expect(again).To(HaveStatus(201))
		Expect(again.Map()["id"]).To(Equal(m["id"]))

		second := create(mcq(unique("Favourite two")))
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": second})).To(HaveStatus(201))
		Expect(learner.Client(h).Get(api + "/favorites").List()).To(Equal([]any{float64(second), float64(id)}))

		Expect(learner.Client(h).Delete(path("/favorites/%d", id))).To(HaveStatus(204))
		Expect(learner.Client(h).Delete(path("/favorites/%d", id))).To(HaveStatus(204))
		Expect(learner.Client(h).Get(api + "/favorites").List()).To(Equal([]any{float64(second)}))
	})

	It("keeps each user's favourites their own", func() {
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": id})).To(HaveStatus(201))
		other := h.NewUser(auth.RoleUser)
		Expect(other.Client(h).Get(api + "/favorites").List()).To(BeEmpty())
		Expect(other.Client(h).Delete(path("/favorites/%d", id))).To(HaveStatus(204))
		Expect(learner.Client(h).Get(api + "/favorites").List()).To(ConsistOf(float64(id)))
	})

	It("refuses a missing or trashed question (404), and hides favourites while trashed", func() {
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": 987654321})).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": id})).To(HaveStatus(201))
		Expect(mod.Client(h).Delete(path("/questions/%d", id))).To(HaveStatus(204))
		Expect(learner.Client(h).Get(api + "/favorites").List()).To(BeEmpty())
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": id})).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Patch(path("/questions/%d/restore", id), nil)).To(HaveStatus(200))
		Expect(learner.Client(h).Get(api + "/favorites").List()).To(ConsistOf(float64(id)))
	})

	It("refuses a bad body (422) and needs a token (401)", func() {
		Expect(learner.Client(h).Post(api+"/favorites", q{})).To(HaveError(422, "invalid_request"))
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": "x"})).To(HaveError(422, "invalid_request"))
		Expect(h.Anon().Get(api + "/favorites")).To(HaveError(401, "unauthenticated"))
	})
})

var _ = Describe("A deleted account's favourites", func() {
	It("are removed when an administrator deletes the account", func() {
		gone := h.NewUser(auth.RoleUser)
		id := create(mcq(unique("Loved")))
		Expect(gone.Client(h).Post(api+"/favorites", q{"question_id": id})).To(HaveStatus(201))
		Expect(admin.Client(h).Delete(path("/admin/users/%d", gone.ID))).To(HaveStatus(204))
		count := func() int64 {
			var n int64
			Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM bank.favorites WHERE user_id = ?`, gone.ID).
				Scan(&n).Error).To(Succeed())
			return n
		}
		Eventually(count).WithTimeout(eventWait).Should(BeZero())
		Expect(mod.Client(h).Get(path("/questions/detail/%d", id))).To(HaveStatus(200))
	})
})
