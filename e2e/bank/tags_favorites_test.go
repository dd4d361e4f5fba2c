package bank_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
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

	It("knows no job that is not a classification (404)", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get(api + "/tags/status/abc-123")).To(HaveError(404, "not_found"))
		Expect(learner.Client(h).Get(api + "/tags/status/" + uuid.NewString())).To(HaveError(404, "not_found"))
		other, err := h.App.Queue.Enqueue(ctxBG, nil, otherJob{})
		Expect(err).NotTo(HaveOccurred())
		Expect(learner.Client(h).Get(api + "/tags/status/" + other.String())).To(HaveError(404, "not_found"))
	})
})

// classifyStatus is GET /tags/status/{job_id}.
type classifyStatus struct {
	JobID  string `json:"job_id"`
	Status string `json:"status"`
	Steps  []struct {
		Name   string `json:"name"`
		Detail string `json:"detail"`
	} `json:"steps"`
	Error  *string `json:"error"`
	Result *struct {
		Questions   int `json:"questions"`
		Tagged      int `json:"tagged"`
		TagsApplied int `json:"tags_applied"`
	} `json:"result"`
}

// classify starts a classification as a moderator and polls it (as a
// learner: anyone signed in may) until it is over.
func classify() classifyStatus {
	res := mod.Client(h).Post(api+"/tags/classify", nil)
	ExpectWithOffset(1, res).To(HaveStatus(202))
	var started struct {
		JobID  string `json:"job_id"`
		Status string `json:"status"`
	}
	res.JSON(&started)
	ExpectWithOffset(1, started.Status).To(Equal("started"))
	ExpectWithOffset(1, uuid.Validate(started.JobID)).To(Succeed())
	learner := h.NewUser(auth.RoleUser)
	var st classifyStatus
	EventuallyWithOffset(1, func() string {
		res := learner.Client(h).Get(api + "/tags/status/" + started.JobID)
		ExpectWithOffset(1, res).To(HaveStatus(200))
		st = classifyStatus{}
		res.JSON(&st)
		return st.Status
	}).WithTimeout(2 * time.Minute).WithPolling(100 * time.Millisecond).
		Should(BeElementOf("completed", "failed", "cancelled"))
	ExpectWithOffset(1, st.JobID).To(Equal(started.JobID))
	return st
}

// tagsOf reads the tags a question carries directly, stored.
func tagsOf(questionID int64) []int64 {
	out := []int64{}
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT tag_id FROM bank.question_tags WHERE question_id = ?
			ORDER BY tag_id`, questionID).Scan(&out).Error).To(Succeed())
	return out
}

// newTag stores a tag.
func newTag(typ, name string) int64 {
	var id int64
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`INSERT INTO bank.tags (type, name) VALUES (?, ?) RETURNING id`,
		typ, name).Scan(&id).Error).To(Succeed())
	return id
}

var _ = Describe("Tag classification", func() {
	It("is refused to learners (403) and starts nothing", func() {
		var before int64
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'classify_tags'`).
			Scan(&before).Error).To(Succeed())
		Expect(h.NewUser(auth.RoleUser).Client(h).Post(api+"/tags/classify", nil)).To(HaveError(403, "forbidden"))
		var after int64
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'classify_tags'`).
			Scan(&after).Error).To(Succeed())
		Expect(after).To(Equal(before))
	})

	It("runs as a job: started, polled to completed, the tagger's tags stored; a second run adds nothing", func() {
		fever := "Zorblax " + unique("fever")
		drug := unique("Quintaphylline")
		disease, subject := newTag("disease", fever), newTag("subject", drug)
		kept := newTag("subject", unique("Offline"))

		inStem := create(mcq("A patient with " + strings.ToUpper(fever) + ": which sign?"))
		inAnswer := create(q{"question_text": "Name the condition: spots and hiccups.", "question_type": "fill_in",
			"correct_answer": fever})
		inExplanation := create(mcq(unique("Which drug?"), q{"explanation": "Treated with " + drug + ", as " + fever + " is."}))
		distractor := create(mcq(unique("Which one?"), q{"options": []string{fever, "Bravo"},
			"option_explanations": []string{}}))
		trashed := create(mcq("Trashed: " + fever))
		Expect(mod.Client(h).Delete(path("/questions/%d", trashed))).To(HaveStatus(204))
		tag(inStem, "subject", mustTagName(kept)) // offline tooling's tag stays

		st := classify()
		Expect(st.Status).To(Equal("completed"), "error: %v", st.Error)
		Expect(st.Error).To(BeNil())
		Expect(st.Steps).NotTo(BeEmpty())
		Expect(st.Steps[0].Name).To(Equal("started"))
		Expect(st.Steps[len(st.Steps)-1].Name).To(Equal("classified"))
		Expect(st.Result).NotTo(BeNil())
		Expect(st.Result.Questions).To(BeNumerically(">=", 4))
		Expect(st.Result.TagsApplied).To(BeNumerically(">=", 4))

		Expect(tagsOf(inStem)).To(ConsistOf(disease, kept))
		Expect(tagsOf(inAnswer)).To(ConsistOf(disease))
		Expect(tagsOf(inExplanation)).To(ConsistOf(disease, subject))
		Expect(tagsOf(distractor)).To(BeEmpty(), "options are not read")
		Expect(tagsOf(trashed)).To(BeEmpty(), "trashed questions are not classified")

		// The listing and the tag filter see the new tags.
		res := mod.Client(h).Get(fmt.Sprintf("%s/questions/bank?tag_ids=%d", api, disease))
		Expect(ids(res)).To(ConsistOf(inStem, inAnswer, inExplanation))

		again := classify()
		Expect(again.Status).To(Equal("completed"))
		Expect(again.Result.TagsApplied).To(BeZero())
		Expect(tagsOf(inStem)).To(ConsistOf(disease, kept))
	})
})

var _ = Describe("Favourites", func() {
	var learner *User
	var id int64

	BeforeEach(func() {
		learner = h.NewUser(auth.RoleUser)
		id = createOpen(mcq(unique("Favourite")))
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

		second := createOpen(mcq(unique("Favourite two")))
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
		id := createOpen(mcq(unique("Loved")))
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
