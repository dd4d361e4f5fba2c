package bank_test

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// blockBody is the answer of POST /saved-tests/custom.
type blockBody struct {
	ID             int64  `json:"id"`
	Title          string `json:"title"`
	QuestionsCount int    `json:"questions_count"`
	Mode           string `json:"mode"`
	Available      int    `json:"available"`
}

type blockCounts struct {
	Total     int `json:"total"`
	Unused    int `json:"unused"`
	Incorrect int `json:"incorrect"`
	Flagged   int `json:"flagged"`
}

var _ = Describe("Custom blocks (POST /saved-tests/custom)", func() {
	var learner *User
	var top, child, qa, qb, qc, hidden, granted, grantQuiz int64

	build := func(u *User, body q) (blockBody, []int64) {
		res := u.Client(h).Post(api+"/saved-tests/custom", body)
		ExpectWithOffset(1, res).To(HaveStatus(201))
		var b blockBody
		res.JSON(&b)
		return b, questionIDs(getQuiz(u, b.ID, ""))
	}
	counts := func(u *User, cats ...int64) blockCounts {
		res := u.Client(h).Get(api + "/saved-tests/custom/counts?category_ids=" + csv(cats...))
		ExpectWithOffset(1, res).To(HaveStatus(200))
		var c blockCounts
		res.JSON(&c)
		return c
	}

	BeforeEach(func() {
		learner = h.NewUser(auth.RoleUser)
		top = category(unique("Block top "), nil, nil)
		child = category(unique("Block child "), &top, nil)
		in := func(cat int64) q { return q{"question_category_id": cat} }
		qa = create(mcq(unique("Block A "), in(child)))
		qb = create(mcq(unique("Block B "), in(top)))
		qc = createOpen(mcq(unique("Block C "), in(top)))
		hidden = create(mcq(unique("Block hidden "), in(top)))
		granted = create(mcq(unique("Block granted "), in(top)))
		grantQuiz = quiz(unique("Granted, unpublished "), []int64{granted})
		sat := quiz(unique("Block sitting "), []int64{qa, qb})
		publish(sat)

		// The learner's history: A right, B wrong and flagged; C never met.
		a := learner.Client(h).Post(path("/attempts/start?quiz_id=%d", sat), nil)
		Expect(a).To(HaveStatus(200))
		attempt := int64(a.Map()["id"].(float64))
		Expect(learner.Client(h).Post(path("/attempts/%d/submit", attempt), q{
			"answers": q{strconv.FormatInt(qa, 10): "Bravo", strconv.FormatInt(qb, 10): "Alpha"}, "flagged": []int64{qb}})).
			To(HaveStatus(200))
	})

	It("counts what the learner reaches by their history", func() {
		Expect(counts(learner, top)).To(Equal(blockCounts{Total: 3, Unused: 1, Incorrect: 1, Flagged: 1}))
		Expect(counts(learner, child)).To(Equal(blockCounts{Total: 1}), "A only, answered right")
		fresh := h.NewUser(auth.RoleUser)
		Expect(counts(fresh, top)).To(Equal(blockCounts{Total: 3, Unused: 3}))
		Expect(counts(mod, top)).To(Equal(blockCounts{Total: 5, Unused: 5}), "a moderator reaches every live question")
	})

	It("draws unused, incorrect or flagged questions of a category's branch, in the mode asked", func() {
		b, ids := build(learner, q{"category_ids": []int64{top}, "pools": []string{"unused"}, "count": 10})
		Expect(ids).To(Equal([]int64{qc}))
		Expect(b).To(Equal(blockBody{ID: b.ID, Title: "Custom block: 1 question", QuestionsCount: 1, Mode: "timed", Available: 1}))

		b, ids = build(learner, q{"category_ids": []int64{top}, "pools": []string{"incorrect"}, "count": 10,
			"mode": "learning", "title": "My misses"})
		Expect(ids).To(Equal([]int64{qb}))
		Expect(b.Mode).To(Equal("learning"))
		Expect(b.Title).To(Equal("My misses"))

		_, ids = build(learner, q{"category_ids": []int64{top}, "pools": []string{"flagged", "unused"}, "count": 10})
		Expect(ids).To(ConsistOf(qb, qc))
		_, ids = build(learner, q{"category_ids": []int64{child}, "count": 10})
		Expect(ids).To(Equal([]int64{qa}), "the child's branch only")
	})

	It("draws N at random from the whole reach and never a question the learner cannot reach", func() {
		seen := map[int64]bool{}
		for range 6 {
			b, ids := build(learner, q{"category_ids": []int64{top}, "count": 2})
			Expect(b.QuestionsCount).To(Equal(2))
			Expect(b.Available).To(Equal(3))
			Expect(ids).To(HaveLen(2))
			for _, id := range ids {
				Expect([]int64{qa, qb, qc}).To(ContainElement(id))
				seen[id] = true
			}
		}
		Expect(seen).NotTo(HaveKey(hidden))
		Expect(seen).NotTo(HaveKey(granted))

		// A grant on the unpublished quiz reaches its question; the block
		// may draw it for that holder only.
		holder := grantHolder("quiz", grantQuiz)
		Expect(counts(holder, top)).To(Equal(blockCounts{Total: 4, Unused: 4}))
		_, ids := build(holder, q{"category_ids": []int64{top}, "count": 200})
		Expect(ids).To(ConsistOf(qa, qb, qc, granted))
	})

	It("answers 409 when nothing matches, and files nothing", func() {
		fresh := h.NewUser(auth.RoleUser)
		only := category(unique("Block unreached "), nil, nil)
		create(mcq(unique("Unreached "), q{"question_category_id": only}))
		Expect(fresh.Client(h).Post(api+"/saved-tests/custom", q{"category_ids": []int64{only}, "count": 5})).
			To(HaveError(409, "conflict"))
		Expect(fresh.Client(h).Post(api+"/saved-tests/custom", q{"category_ids": []int64{top}, "pools": []string{"incorrect"}, "count": 5})).
			To(HaveError(409, "conflict"), "a learner with no history has nothing incorrect")
		var n int64
		Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM bank.saved_tests WHERE user_id = ?`, fresh.ID).Scan(&n).Error).To(Succeed())
		Expect(n).To(BeZero())
	})

	DescribeTable("refuses a malformed body with 422",
		func(body q) {
			Expect(learner.Client(h).Post(api+"/saved-tests/custom", body)).To(HaveError(422, "invalid_request"))
		},
		Entry("no count", q{"pools": []string{"unused"}}),
		Entry("zero count", q{"count": 0}),
		Entry("too many", q{"count": 201}),
		Entry("unknown pool", q{"count": 5, "pools": []string{"favourite"}}),
		Entry("bad mode", q{"count": 5, "mode": "exam"}),
		Entry("zero time limit", q{"count": 5, "time_limit_minutes": 0}),
	)

	It("is for signed-in people only", func() {
		Expect(h.Anon().Post(api+"/saved-tests/custom", q{"count": 1})).To(HaveError(401, "unauthenticated"))
		Expect(h.Anon().Get(api + "/saved-tests/custom/counts")).To(HaveError(401, "unauthenticated"))
	})
})
