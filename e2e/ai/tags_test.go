package ai_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

// tagJob runs a tag classification (POST /tags/classify) to its end.
func tagJob() map[string]any {
	c := mod.Client(h)
	return c.AwaitJob("/api/v1/tags/status/" + c.StartJob("/api/v1/tags/classify", nil))
}

func stepDetail(job map[string]any, name string) string {
	for _, s := range job["steps"].([]any) {
		if st := s.(map[string]any); st["name"] == name {
			return st["detail"].(string)
		}
	}
	return ""
}

// storedTag inserts a tag (no route creates subject or disease tags).
func storedTag(typ, name string) int64 {
	var id int64
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`INSERT INTO bank.tags (type, name) VALUES (?, ?) RETURNING id`, typ, name).
		Scan(&id).Error).To(Succeed())
	return id
}

func questionTags(id int64) []int64 {
	out := []int64{}
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT tag_id FROM bank.question_tags WHERE question_id = ? ORDER BY tag_id`, id).
		Scan(&out).Error).To(Succeed())
	return out
}

func newQuestion(stem string, extra q) int64 {
	body := q{"question_text": stem, "question_type": "mcq", "options": []string{"A", "B"}, "correct_answer": "A",
		"explanation": "Because."}
	for k, v := range extra {
		body[k] = v
	}
	res := mod.Client(h).Post("/api/v1/questions/create", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// tagCount finds a tag in GET /tags and gives its question count.
func tagCount(group string, id int64) any {
	for _, t := range mod.Client(h).Get("/api/v1/tags").Map()[group].([]any) {
		if t := t.(map[string]any); t["id"] == float64(id) {
			return t["question_count"]
		}
	}
	return nil
}

var _ = Describe("Tag classification through the keyword model", Ordered, func() {
	var tagger, subject, disease int64
	const subjectName, diseaseName = "Zentral cardiology", "Quorvith syndrome"
	BeforeAll(func() {
		tagger = modelID(addModel(q{"name": "Tagger", "model_id": "tagger-1", "task": "keyword"}))
		setModel(tagger, q{"is_default": true})
		subject, disease = storedTag("subject", subjectName), storedTag("disease", diseaseName)
	})
	AfterAll(func() {
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", tagger))).To(HaveStatus(204))
	})
	AfterEach(func() {
		proxy.Set(standin.OK)
		proxy.Reply(standin.DefaultReply)
	})

	It("adds exactly the listed tags the model picks, ignoring tags it invents", func() {
		a := newQuestion("A 60-year-old with breathlessness on exertion: which sign?", nil)
		b := newQuestion("Which drug slows the ventricular rate?", nil)
		c := newQuestion("A question the model gives nothing", nil)
		proxy.Reply(fmt.Sprintf("```json\n"+`{"questions":[{"id":%d,"tags":["quorvith  SYNDROME","%s","Made-up tag"]},`+
			`{"id":%d,"tags":["%s"]},{"id":%d,"tags":[]},{"id":987654321,"tags":["%s"]}]}`+"\n```",
			a, subjectName, b, subjectName, c, diseaseName))
		proxy.Calls()
		job := tagJob()
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(stepNames(job)[:2]).To(Equal([]string{"started", "classifier"}))
		Expect(stepDetail(job, "classifier")).To(Equal("keyword model tagger-1"))
		Expect(job["result"]).To(And(HaveKeyWithValue("classifier", "model"), HaveKeyWithValue("model", "tagger-1"),
			HaveKeyWithValue("dropped", float64(1))))

		calls := proxy.Calls()
		Expect(calls).NotTo(BeEmpty())
		asked := ""
		for _, call := range calls {
			Expect(call.Model).To(Equal("tagger-1"))
			if len(call.Messages) == 2 && strings.Contains(call.Messages[1], fmt.Sprintf("--- question %d ---", a)) {
				asked = call.Messages[1]
			}
		}
		Expect(asked).To(And(ContainSubstring("- "+subjectName), ContainSubstring("- "+diseaseName),
			ContainSubstring("breathlessness on exertion")))

		Expect(questionTags(a)).To(ConsistOf(subject, disease))
		Expect(questionTags(b)).To(ConsistOf(subject))
		Expect(questionTags(c)).To(BeEmpty())
		Expect(tagCount("subjects", subject)).To(Equal(float64(2)))
		Expect(tagCount("diseases", disease)).To(Equal(float64(1)))
		detail := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d", a)).Map()
		Expect(detail["tags"]).To(ConsistOf(
			And(HaveKeyWithValue("id", float64(subject)), HaveKeyWithValue("name", subjectName)),
			And(HaveKeyWithValue("id", float64(disease)), HaveKeyWithValue("name", diseaseName))))
		Expect(count(`SELECT count(*) FROM bank.tags WHERE name = 'Made-up tag'`)).To(BeZero(), "no tag is created")
		Expect(count(`SELECT count(*) FROM ai.usage WHERE task = 'keyword' AND model_id = 'tagger-1' AND user_id = 0`)).
			To(BeNumerically(">=", 1))
	})

	It("tags by the rules, calling no model, when no keyword model is active", func() {
		named := newQuestion("A child with "+diseaseName+": which gene?", nil)
		setModel(tagger, q{"is_active": false})
		proxy.Calls()
		job := tagJob()
		setModel(tagger, q{"is_active": true})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(stepDetail(job, "classifier")).To(Equal("rule-based tagger (no keyword model)"))
		Expect(job["result"]).To(And(HaveKeyWithValue("classifier", "rules"), Not(HaveKey("model"))))
		Expect(proxy.Calls()).To(BeEmpty())
		Expect(questionTags(named)).To(ConsistOf(disease))
	})

	It("queues one classification at a time: a second request while one runs gets that job", func() {
		newQuestion("A question to hold the classifier up", nil)
		proxy.Set(standin.Stall) // the first job waits on the model, up to ai.timeout a call
		c := mod.Client(h)
		first := c.StartJob("/api/v1/tags/classify", nil)
		second := h.NewUser(auth.RoleModerator).Client(h).StartJob("/api/v1/tags/classify", nil)
		Expect(second).To(Equal(first), "the same work is not queued twice")
		Expect(count(`SELECT count(*) FROM river.river_job WHERE kind = 'classify_tags'
			AND state IN ('available', 'running', 'retryable')`)).To(Equal(int64(1)))
		Expect(c.AwaitJob("/api/v1/tags/status/" + first)["status"]).To(Equal("failed"))

		proxy.Set(standin.OK)
		third := c.StartJob("/api/v1/tags/classify", nil)
		Expect(third).NotTo(Equal(first), "once it is over, a classification may be queued again")
		c.AwaitJob("/api/v1/tags/status/" + third)
	})

	It("fails visibly with the upstream's message, or on an answer that is not the JSON asked for, storing nothing", func() {
		fresh := newQuestion("A fresh question about the heart", nil)
		proxy.Reply(fmt.Sprintf(`{"questions":[{"id":%d,"tags":["%s"]}]}`, fresh, subjectName))
		for mode, why := range map[standin.Mode]string{standin.ServerError: "the upstream model is overloaded",
			standin.RateLimited: "Rate limit reached"} {
			proxy.Set(mode)
			job := tagJob()
			Expect(job["status"]).To(Equal("failed"))
			Expect(job["error"]).To(And(ContainSubstring(why), ContainSubstring("this batch was not stored")))
		}
		proxy.Set(standin.OK)
		proxy.Reply("Cardiology, I think.")
		job := tagJob()
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(And(ContainSubstring("model tagger-1, questions"), ContainSubstring("no JSON object")))
		Expect(questionTags(fresh)).To(BeEmpty())
	})
})

var _ = Describe("Difficulty in the question reads", Ordered, func() {
	var rater int64
	BeforeAll(func() {
		rater = modelID(addModel(q{"name": "Rater for reads", "model_id": "rater-2", "task": "tool"}))
		setModel(rater, q{"is_default": true})
	})
	AfterAll(func() {
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", rater))).To(HaveStatus(204))
		proxy.Reply(standin.DefaultReply)
	})

	It("shows the rated level in the detail, the bank listing and a cached quiz, and filters the listing by it", func() {
		cat := newCategory("Difficulty reads")
		a := newQuestion("Reads: the commonest valve lesion?", q{"question_category_id": cat})
		b := newQuestion("Reads: a rare syndrome", q{"question_category_id": cat})
		c := newQuestion("Reads: never rated", q{"question_category_id": cat})
		res := mod.Client(h).Post("/api/v1/questions/from-bank", q{"title": "Difficulty reads quiz", "question_ids": []int64{a, b}})
		Expect(res).To(HaveStatus(201))
		quiz := int64(res.Map()["id"].(float64))
		levels := func(body []any) map[int64]any {
			out := map[int64]any{}
			for _, x := range body {
				x := x.(map[string]any)
				out[int64(x["id"].(float64))] = x["difficulty"]
			}
			return out
		}
		quizLevels := func() map[int64]any {
			res := mod.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d", quiz))
			Expect(res).To(HaveStatus(200))
			return levels(res.Map()["questions"].([]any))
		}
		listing := func(query string) map[int64]any {
			res := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/bank?category_id=%d%s", cat, query))
			Expect(res).To(HaveStatus(200))
			body := res.Map()
			got := levels(body["questions"].([]any))
			Expect(body["total"]).To(Equal(float64(len(got))))
			return got
		}
		detail := func(id int64) map[string]any {
			res := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/detail/%d", id))
			Expect(res).To(HaveStatus(200))
			return res.Map()
		}
		Expect(quizLevels()).To(Equal(map[int64]any{a: nil, b: nil}), "read once: the quiz's list is cached")
		Expect(listing("")).To(Equal(map[int64]any{a: nil, b: nil, c: nil}))
		Expect(detail(a)).To(HaveKeyWithValue("difficulty", BeNil()))
		version := detail(a)["version"]

		proxy.Reply(fmt.Sprintf(`{"ratings":[{"id":%d,"difficulty":"easy"},{"id":%d,"difficulty":"hard"}]}`, a, b))
		job := difficultyJob(q{"question_ids": []int64{a, b}})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)

		Expect(detail(a)).To(And(HaveKeyWithValue("difficulty", "easy"), HaveKeyWithValue("version", version)),
			"a rating is not an edit: the version and its history stay")
		Expect(detail(b)).To(HaveKeyWithValue("difficulty", "hard"))
		Expect(quizLevels()).To(Equal(map[int64]any{a: "easy", b: "hard"}), "the cached quiz shows the new levels")
		Expect(listing("")).To(Equal(map[int64]any{a: "easy", b: "hard", c: nil}))
		Expect(listing("&difficulty=easy")).To(Equal(map[int64]any{a: "easy"}))
		Expect(listing("&difficulty=hard,easy")).To(Equal(map[int64]any{a: "easy", b: "hard"}))
		Expect(listing("&difficulty=medium")).To(BeEmpty())
		ids := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/bank/ids?category_id=%d&difficulty=hard", cat))
		Expect(ids).To(HaveStatus(200))
		Expect(ids.List()).To(Equal([]any{float64(b)}))

		bad := mod.Client(h).Get(fmt.Sprintf("/api/v1/questions/bank?category_id=%d&difficulty=easy,impossible", cat))
		Expect(bad).To(HaveError(422, "invalid_request"))
		Expect(string(bad.Body)).To(And(ContainSubstring("difficulty"), ContainSubstring("easy, medium, hard")))

		// A changed level reaches the cached quiz too, still without a new version.
		proxy.Reply(fmt.Sprintf(`{"ratings":[{"id":%d,"difficulty":"medium"},{"id":%d,"difficulty":"hard"}]}`, a, b))
		job = difficultyJob(q{"question_ids": []int64{a, b}, "overwrite": true})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(quizLevels()).To(Equal(map[int64]any{a: "medium", b: "hard"}))
		Expect(detail(a)).To(And(HaveKeyWithValue("difficulty", "medium"), HaveKeyWithValue("version", version)))
	})
})
