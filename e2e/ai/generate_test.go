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

// articleJob runs a library generation job to its end and returns it.
func articleJob(path string, body q) map[string]any {
	c := mod.Client(h)
	return c.AwaitJob("/api/v1/articles/jobs/" + c.StartJob("/api/v1"+path, body))
}

func stepNames(job map[string]any) []string {
	var out []string
	for _, s := range job["steps"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

func count(sql string, args ...any) int64 {
	var n int64
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(sql, args...).Scan(&n).Error).To(Succeed())
	return n
}

func setModel(id int64, body q) {
	ExpectWithOffset(1, admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/models/%d", id), body)).To(HaveStatus(200))
}

func newCategory(name string) int64 {
	res := mod.Client(h).Post("/api/v1/question-categories/", q{"name": name})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

const draftReply = "# Mitral stenosis\nA narrowed mitral valve.\n\n## Causes\nRheumatic fever, mostly.\n\n" +
	"```\n## not a heading inside a fence\n```\n\n## Signs\nAn opening snap after S2.\n"

var _ = Describe("Generation jobs", Ordered, func() {
	var writer, carder int64
	BeforeAll(func() {
		writer = modelID(addModel(q{"name": "Writer", "model_id": "writer-1", "task": "article"}))
		setModel(writer, q{"is_default": true})
		carder = modelID(addModel(q{"name": "Carder", "model_id": "carder-1", "task": "flashcard"}))
		setModel(carder, q{"is_default": true})
	})
	AfterAll(func() {
		// Model configuration's specs expect to add a task's first model.
		for _, id := range []int64{writer, carder} {
			Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", id))).To(HaveStatus(204))
		}
	})
	AfterEach(func() {
		proxy.Set(standin.OK)
		proxy.Reply(standin.DefaultReply)
	})

	It("writes a draft article grounded on the category's questions, in the library's shape", func() {
		cat := newCategory("Valves for drafts")
		res := mod.Client(h).Post("/api/v1/questions/create", q{"question_text": "Which lesion gives a quazzle snap?",
			"question_type": "mcq", "options": []string{"Mitral stenosis", "Aortic stenosis"}, "correct_answer": "Mitral stenosis",
			"explanation": "Stiff leaflets.", "question_category_id": cat})
		Expect(res).To(HaveStatus(201))
		proxy.Reply(draftReply)
		proxy.Calls()
		job := articleJob("/articles/ai-draft", q{"title": "Mitral stenosis", "category_id": cat,
			"instructions": "for finals", "sources": []string{"bank"}})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(stepNames(job)).To(Equal([]string{"sources", "model", "parsed", "saved"}))

		calls := proxy.Calls()
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].Model).To(Equal("writer-1"))
		Expect(calls[0].Messages[1]).To(And(ContainSubstring("quazzle snap"), ContainSubstring("Answer: Mitral stenosis"),
			ContainSubstring("for finals")))

		result := job["result"].(map[string]any)
		id := int64(result["article_id"].(float64))
		art := mod.Client(h).Get(fmt.Sprintf("/api/v1/articles/%d", id))
		Expect(art).To(HaveStatus(200))
		a := art.Map()
		Expect(a).To(And(HaveKeyWithValue("status", "draft"), HaveKeyWithValue("title", "Mitral stenosis"),
			HaveKeyWithValue("summary", "A narrowed mitral valve."), HaveKeyWithValue("category_id", float64(cat))))
		secs := a["sections"].([]any)
		Expect(secs).To(HaveLen(2))
		Expect(secs[0]).To(And(HaveKeyWithValue("heading", "Causes"),
			HaveKeyWithValue("markdown", ContainSubstring("## not a heading inside a fence"))))
		Expect(secs[1]).To(HaveKeyWithValue("heading", "Signs"))
		Expect(count(`SELECT count(*) FROM library.articles WHERE id = ? AND status = 'draft'`, id)).To(Equal(int64(1)))
		Expect(count(`SELECT count(*) FROM ai.usage WHERE task = 'article' AND model_id = 'writer-1' AND user_id = 0`)).
			To(BeNumerically(">=", 1))

		// Run again from the job UI: the job's result is recorded (with the
		// article, in its transaction), so nothing is written or asked of
		// the model twice.
		h.RetryJob(admin, job["id"].(string))
		Expect(count(`SELECT count(*) FROM library.articles WHERE title = 'Mitral stenosis'`)).To(Equal(int64(1)))
		Expect(proxy.Calls()).To(BeEmpty())
		again := mod.Client(h).Get("/api/v1/articles/jobs/" + job["id"].(string)).Map()
		Expect(again).To(And(HaveKeyWithValue("status", "completed"), HaveKeyWithValue("result", Equal(result))))
	})

	It("fails visibly with no default model, with the upstream's message, and when the upstream stalls", func() {
		title := "Nothing stored " + strings.Repeat("x", 3)
		stored := func() int64 { return count(`SELECT count(*) FROM library.articles WHERE title = ?`, title) }

		setModel(writer, q{"is_active": false})
		job := articleJob("/articles/ai-draft", q{"title": title})
		setModel(writer, q{"is_active": true})
		Expect(job).To(And(HaveKeyWithValue("status", "failed"), HaveKeyWithValue("error", "no article model configured")))
		Expect(stepNames(job)).To(ContainElement("model"))

		proxy.Set(standin.ServerError)
		job = articleJob("/articles/ai-draft", q{"title": title})
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(And(ContainSubstring("answered 500"), ContainSubstring("the upstream model is overloaded")))

		proxy.Set(standin.Stall)
		job = articleJob("/articles/ai-draft", q{"title": title})
		Expect(job["status"]).To(Equal("failed"))
		Expect(job["error"]).To(ContainSubstring("did not answer in time"))
		Expect(stored()).To(BeZero())
	})

	It("refuses hostile answers (huge, shapeless, too many sections) and stores nothing", func() {
		title := "Hostile draft"
		for reply, why := range map[string]string{
			"# T\n## A\n" + strings.Repeat("x", 300<<10):   "more than",
			"I am sorry, I cannot write that.":             "no sections",
			strings.Repeat("## S\nbody\n", 41):             "more than 40 sections",
			"## A\n" + strings.Repeat("> ", 20) + "deep\n": "block quotes",
		} {
			proxy.Reply(reply)
			job := articleJob("/articles/ai-draft", q{"title": title})
			Expect(job["status"]).To(Equal("failed"), why)
			Expect(job["error"]).To(And(ContainSubstring(why), ContainSubstring("nothing was stored")))
		}
		Expect(count(`SELECT count(*) FROM library.articles WHERE title = ?`, title)).To(BeZero())
	})

	It("grounds an editor's refinement only on the questions they may edit, never another's answer key", func() {
		cat := newCategory("Vortle branch")
		Expect(mod.Client(h).Post("/api/v1/questions/create", q{"question_text": "Which lesion gives a vortle snap?",
			"question_type": "mcq", "options": []string{"Vortle stenosis", "Aortic stenosis"}, "correct_answer": "Vortle stenosis",
			"explanation": "Vortle leaflets.", "question_category_id": cat})).To(HaveStatus(201))
		res := mod.Client(h).Post("/api/v1/articles/", q{"title": "Vortle snaps", "status": "published", "category_id": cat,
			"sections": []q{{"heading": "Overview", "markdown": "Old overview."}}})
		Expect(res).To(HaveStatus(201))
		id := int64(res.Map()["id"].(float64))
		holder := func(kind string, target int64) *User {
			u := h.NewUser(auth.RoleUser)
			Expect(mod.Client(h).Post(fmt.Sprintf("/api/v1/access/%d/grants", u.ID), q{"kind": kind, "target_id": target})).
				To(HaveStatus(201))
			return u
		}
		refine := func(u *User) (map[string]any, string) {
			proxy.Reply("## Overview\nNew overview.")
			proxy.Calls()
			c := u.Client(h)
			job := c.AwaitJob("/api/v1/articles/jobs/" + c.StartJob(fmt.Sprintf("/api/v1/articles/%d/ai-refine", id),
				q{"section_id": "overview", "sources": []string{"bank"}}))
			Expect(job["status"]).To(Equal("completed"), "job: %v", job)
			calls := proxy.Calls()
			Expect(calls).To(HaveLen(1))
			return job["steps"].([]any)[0].(map[string]any), calls[0].Messages[1]
		}

		step, prompt := refine(holder("article", id))
		Expect(step).To(HaveKeyWithValue("detail", "0 bank questions"))
		Expect(prompt).NotTo(Or(ContainSubstring("vortle snap"), ContainSubstring("Vortle leaflets"),
			ContainSubstring("Answer:")), "an article's grant reaches none of its category's questions")

		step, prompt = refine(holder("category", cat))
		Expect(step).To(HaveKeyWithValue("detail", "1 bank questions"))
		Expect(prompt).To(And(ContainSubstring("vortle snap"), ContainSubstring("Answer: Vortle stenosis"),
			ContainSubstring("Vortle leaflets.")), "the branch's grant edits its questions")
	})

	It("refines one section as a new revision, keeping the others and their ids", func() {
		id := article("Aortic stenosis", "published", "Old overview.")
		res := mod.Client(h).Patch(fmt.Sprintf("/api/v1/articles/%d", id), q{"sections": []q{
			{"id": "overview", "heading": "Overview", "markdown": "Old overview."},
			{"id": "signs", "heading": "Signs", "markdown": "Old signs."}}})
		Expect(res).To(HaveStatus(200))

		proxy.Reply("## Signs\nA slow-rising pulse and an ejection systolic murmur.")
		proxy.Calls()
		job := articleJob(fmt.Sprintf("/articles/%d/ai-refine", id), q{"section_id": "signs", "instructions": "clearer"})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(job["result"]).To(HaveKeyWithValue("sections", []any{"signs"}))
		Expect(proxy.Calls()[0].Messages[1]).To(And(ContainSubstring(`Rewrite the section "Signs"`), ContainSubstring("Old signs.")))

		secs := mod.Client(h).Get(fmt.Sprintf("/api/v1/articles/%d", id)).Map()["sections"].([]any)
		Expect(secs).To(HaveLen(2))
		Expect(secs[0]).To(And(HaveKeyWithValue("id", "overview"), HaveKeyWithValue("markdown", "Old overview.")))
		Expect(secs[1]).To(And(HaveKeyWithValue("id", "signs"),
			HaveKeyWithValue("markdown", "A slow-rising pulse and an ejection systolic murmur.")))
		revs := mod.Client(h).Get(fmt.Sprintf("/api/v1/articles/%d/revisions", id)).List()
		Expect(revs).To(HaveLen(2))
		Expect(revs[0]).To(HaveKeyWithValue("note", "AI refinement of section signs"))

		proxy.Reply("## One\na\n## Two\nb")
		job = articleJob(fmt.Sprintf("/articles/%d/ai-refine", id), q{"section_id": "signs"})
		Expect(job["error"]).To(ContainSubstring("one section was asked for"))
		Expect(job["error"]).To(ContainSubstring("nothing was stored"))
		Expect(mod.Client(h).Get(fmt.Sprintf("/api/v1/articles/%d/revisions", id)).List()).To(HaveLen(2))

		proxy.Reply("## Overview\nNew overview.\n## Signs\nNew signs.\n## Management\nValve replacement.")
		job = articleJob(fmt.Sprintf("/articles/%d/ai-refine", id), q{})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(job["result"]).To(HaveKeyWithValue("sections", []any{"overview", "signs", ""}))
		secs = mod.Client(h).Get(fmt.Sprintf("/api/v1/articles/%d", id)).Map()["sections"].([]any)
		Expect(secs).To(HaveLen(3))
		Expect(secs[2]).To(And(HaveKeyWithValue("id", "management"), HaveKeyWithValue("markdown", "Valve replacement.")))
	})

	It("makes cards into a new deck linked to the article as its source, then into that deck, listing refused cards", func() {
		cat := newCategory("Cards from articles")
		res := mod.Client(h).Post("/api/v1/articles/", q{"title": "Heart sounds", "category_id": cat,
			"sections": []q{{"heading": "S1", "markdown": "S1 is the closure of the mitral and tricuspid valves."}}})
		Expect(res).To(HaveStatus(201))
		id := int64(res.Map()["id"].(float64))
		proxy.Reply("```json\n" + `{"cards":[
			{"type":"basic","front":"What closes at S1?","back":"The mitral and tricuspid valves"},
			{"type":"cloze","front":"S1 is the closure of the {{c1::atrioventricular}} valves.","back":""},
			{"type":"basic","front":"A card without a back","back":""},
			{"type":"essay","front":"Unknown type","back":"x"}]}` + "\n```")
		job := articleJob(fmt.Sprintf("/articles/%d/ai-cards", id), q{})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		result := job["result"].(map[string]any)
		Expect(result).To(And(HaveKeyWithValue("deck_created", true), HaveKeyWithValue("cards", float64(2))))
		Expect(result["refused"]).To(ConsistOf(
			And(HaveKeyWithValue("index", float64(2)), HaveKeyWithValue("reason", ContainSubstring("needs a back"))),
			And(HaveKeyWithValue("index", float64(3)), HaveKeyWithValue("reason", ContainSubstring("card_type")))))
		deck := int64(result["deck_id"].(float64))
		Expect(count(`SELECT count(*) FROM flashcards.deck_articles WHERE deck_id = ? AND article_id = ? AND is_source`, deck, id)).
			To(Equal(int64(1)))
		Expect(count(`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)).To(Equal(int64(2)))
		links := mod.Client(h).Get(fmt.Sprintf("/api/v1/flashcards/%d/articles", deck))
		Expect(links).To(HaveStatus(200))

		proxy.Reply(`{"cards":[{"type":"reversed","front":"S2","back":"Closure of the semilunar valves"}]}`)
		job = articleJob(fmt.Sprintf("/articles/%d/ai-cards", id), q{})
		Expect(job["result"]).To(And(HaveKeyWithValue("deck_id", float64(deck)), HaveKeyWithValue("deck_created", false),
			HaveKeyWithValue("cards", float64(2))))
		Expect(count(`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)).To(Equal(int64(4)))
		h.RetryJob(admin, job["id"].(string))
		Expect(count(`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)).To(Equal(int64(4)),
			"cards stored with the job's result are not stored again")

		proxy.Reply("no cards here")
		job = articleJob(fmt.Sprintf("/articles/%d/ai-cards", id), q{})
		Expect(job["error"]).To(ContainSubstring("no JSON object"))
		setModel(carder, q{"is_active": false})
		job = articleJob(fmt.Sprintf("/articles/%d/ai-cards", id), q{})
		setModel(carder, q{"is_active": true})
		Expect(job["error"]).To(Equal("no flashcard model configured"))
		Expect(count(`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)).To(Equal(int64(4)))
	})
})

// difficultyJob runs a difficulty classification to its end.
func difficultyJob(body q) map[string]any {
	c := mod.Client(h)
	return c.AwaitJob("/api/v1/questions/classify-difficulty/" + c.StartJob("/api/v1/questions/classify-difficulty", body))
}

func difficultyOf(id int64) string {
	var d *string
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT difficulty FROM bank.questions WHERE id = ?`, id).Scan(&d).Error).To(Succeed())
	if d == nil {
		return ""
	}
	return *d
}

var _ = Describe("Question difficulty classification", Ordered, func() {
	var rater int64
	BeforeAll(func() {
		rater = modelID(addModel(q{"name": "Rater", "model_id": "rater-1", "task": "tool"}))
		setModel(rater, q{"is_default": true})
	})
	AfterAll(func() {
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/models/%d", rater))).To(HaveStatus(204))
	})
	AfterEach(func() {
		proxy.Set(standin.OK)
		proxy.Reply(standin.DefaultReply)
	})

	It("rates a category's questions with the tool model and stores the levels on the questions", func() {
		cat := newCategory("Difficulty branch")
		var ids []int64
		for _, stem := range []string{"What is the commonest valve lesion?", "A case of a 30-year-old with dyspnoea", "A rare syndrome"} {
			res := mod.Client(h).Post("/api/v1/questions/create", q{"question_text": stem, "question_type": "mcq",
				"options": []string{"A", "B"}, "correct_answer": "A", "explanation": "Because.", "question_category_id": cat})
			Expect(res).To(HaveStatus(201))
			ids = append(ids, int64(res.Map()["id"].(float64)))
		}
		proxy.Reply(fmt.Sprintf(`{"ratings":[{"id":%d,"difficulty":"easy"},{"id":%d,"difficulty":"HARD"},`+
			`{"id":%d,"difficulty":"impossible"},{"id":987654321,"difficulty":"hard"}]}`, ids[0], ids[1], ids[2]))
		proxy.Calls()
		job := difficultyJob(q{"category_id": cat})
		Expect(job["status"]).To(Equal("completed"), "job: %v", job)
		Expect(stepNames(job)).To(Equal([]string{"questions", "model", "rated"}))
		Expect(job["result"]).To(And(HaveKeyWithValue("rated", float64(2)), HaveKeyWithValue("unrated", []any{float64(ids[2])}),
			HaveKeyWithValue("levels", q{"easy": float64(1), "hard": float64(1)})))
		calls := proxy.Calls()
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].Model).To(Equal("rater-1"))
		Expect([]string{difficultyOf(ids[0]), difficultyOf(ids[1]), difficultyOf(ids[2])}).To(Equal([]string{"easy", "hard", ""}))

		proxy.Reply(fmt.Sprintf(`{"ratings":[{"id":%d,"difficulty":"medium"}]}`, ids[2]))
		job = difficultyJob(q{"question_ids": ids})
		Expect(job["result"]).To(And(HaveKeyWithValue("skipped", float64(2)), HaveKeyWithValue("rated", float64(1))))
		sent := proxy.Calls()[0].Messages[1]
		Expect(sent).To(And(ContainSubstring(fmt.Sprintf("question %d ", ids[2])), Not(ContainSubstring(fmt.Sprintf("question %d ", ids[0])))))
		Expect(difficultyOf(ids[2])).To(Equal("medium"))

		for mode, why := range map[standin.Mode]string{standin.ServerError: "overloaded", standin.Stall: "did not answer in time"} {
			proxy.Set(mode)
			job = difficultyJob(q{"question_ids": ids, "overwrite": true})
			Expect(job["status"]).To(Equal("failed"))
			Expect(job["error"]).To(ContainSubstring(why))
		}
		proxy.Set(standin.OK)
		for _, reply := range []string{"They are all easy.", `{"ratings":` + strings.Repeat(" ", 70<<10) + `[]}`} {
			proxy.Reply(reply)
			job = difficultyJob(q{"question_ids": ids, "overwrite": true})
			Expect(job["status"]).To(Equal("failed"))
			Expect(job["error"]).To(ContainSubstring("not stored"))
		}
		Expect([]string{difficultyOf(ids[0]), difficultyOf(ids[1]), difficultyOf(ids[2])}).To(Equal([]string{"easy", "hard", "medium"}))
	})

	It("refuses before queueing: no tool model (503), a bad request (422), a learner (403)", func() {
		setModel(rater, q{"is_active": false})
		Expect(mod.Client(h).Post("/api/v1/questions/classify-difficulty", q{"question_ids": []int64{1}})).
			To(HaveError(503, "unavailable"))
		setModel(rater, q{"is_active": true})
		Expect(mod.Client(h).Post("/api/v1/questions/classify-difficulty", q{})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Post("/api/v1/questions/classify-difficulty", q{"question_ids": []int64{1}, "category_id": 1})).
			To(HaveError(422, "invalid_request"))
		Expect(h.NewUser(auth.RoleUser).Client(h).Post("/api/v1/questions/classify-difficulty", q{"question_ids": []int64{1}})).
			To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get("/api/v1/questions/classify-difficulty/not-a-job")).To(HaveError(404, "not_found"))
	})
})
