package library_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/platform/auth"
)

// delivery bounds the wait for the bank's question events to reach the
// library: under a loaded run an earlier event's handler may use up its
// retries (0.5, 1, 2, 4 and 8 s) before the next is delivered in order.
const delivery = 45 * time.Second

var _ = Describe("Topic claims", func() {
	question := func(text string, cat int64) int64 {
		res := mod.Client(h).Post(api+"/questions/create", q{"question_text": text, "question_type": "mcq",
			"options": []string{"Yes", "No"}, "correct_answer": "Yes", "question_category_id": cat})
		ExpectWithOffset(1, res).To(HaveStatus(201))
		return int64(res.Map()["id"].(float64))
	}
	readMore := func(ids ...int64) map[int64][]bank.ArticleRef {
		out, err := app.Lookup[*library.Module](h.App).ReadMore(ctxb, ids)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		return out
	}
	slugsFor := func(id int64) func() []string {
		return func() []string {
			var out []string
			for _, a := range readMore(id)[id] {
				out = append(out, a.Slug)
			}
			return out
		}
	}

	It("links questions filed in a claimed category to the published article, on every save", func() {
		cat, other := category("Claimed topic", nil), category("Unclaimed topic", nil)
		before := question("Filed before the claim?", cat)
		a := write(q{"title": "Claiming article", "status": "draft", "claimed_category_ids": []int64{cat}})
		Expect(a["claimed_category_ids"]).To(ConsistOf(BeNumerically("==", cat)))
		Expect(mod.Client(h).Post(api+"/articles/", q{"title": "x", "claimed_category_ids": []int64{987654321}})).
			To(HaveError(422, "invalid_request"))

		Eventually(func() int64 {
			return scalar[int64]("SELECT count(*) FROM library.question_filings WHERE question_id = ?", before)
		}).WithTimeout(delivery).Should(BeEquivalentTo(1))
		Expect(slugsFor(before)()).To(BeEmpty(), "a draft is nobody's read-more")
		Expect(mod.Client(h).Put(path("/articles/%d/status", IDOf(a)), q{"status": "published"})).To(HaveStatus(200))
		Expect(slugsFor(before)()).To(Equal([]string{"claiming-article"}))

		after := question("Filed after the claim?", cat)
		Eventually(slugsFor(after)).WithTimeout(delivery).Should(Equal([]string{"claiming-article"}))
		Expect(mod.Client(h).Patch(path("/questions/%d/category?category_id=%d", after, other), nil)).To(HaveStatus(200))
		Eventually(slugsFor(after)).WithTimeout(delivery).Should(BeEmpty())

		Expect(mod.Client(h).Patch(path("/articles/%d", IDOf(a)), q{"claimed_category_ids": []int64{other}})).To(HaveStatus(200))
		Expect(slugsFor(after)()).To(Equal([]string{"claiming-article"}))
		Expect(slugsFor(before)()).To(BeEmpty())
		Expect(mod.Client(h).Delete(path("/articles/%d", IDOf(a)))).To(HaveStatus(200))
		Expect(slugsFor(after)()).To(BeEmpty(), "a binned article is nobody's read-more")
	})

	It("puts the claiming articles in the question's detail and its quiz's review as read_more", func() {
		cat := category("Read-more topic", nil)
		qid := question("Read more about this?", cat)
		plain := question("Nothing to read?", category("No claims here", nil))
		write(q{"title": "Read more article", "status": "published", "claimed_category_ids": []int64{cat}})
		Eventually(slugsFor(qid)).WithTimeout(delivery).Should(Equal([]string{"read-more-article"}))

		learner := h.NewUser(auth.RoleUser)
		detail := learner.Client(h).Get(path("/questions/detail/%d", qid))
		Expect(detail).To(HaveStatus(200))
		Expect(detail.Map()["read_more"]).To(ConsistOf(And(HaveKeyWithValue("slug", "read-more-article"),
			HaveKeyWithValue("title", "Read more article"))))
		Expect(learner.Client(h).Get(path("/questions/detail/%d", plain)).Map()).NotTo(HaveKey("read_more"))

		quiz := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "Read-more quiz", "question_ids": []int64{plain, qid}})
		Expect(quiz).To(HaveStatus(201))
		review := mod.Client(h).Get(path("/quizzes/%d/review", int64(quiz.Map()["id"].(float64))))
		Expect(review).To(HaveStatus(200))
		qs := review.Map()["questions"].([]any)
		Expect(qs[0]).NotTo(HaveKey("read_more"))
		Expect(qs[1].(map[string]any)["read_more"]).To(ConsistOf(HaveKeyWithValue("slug", "read-more-article")))
	})

	It("has apply_topic_claims catch claims and filings written in bulk SQL", func() {
		cat, moved := category("Bulk topic", nil), category("Bulk destination", nil)
		qid := question("Bulk question?", cat)
		a := write(q{"title": "Bulk claimer", "status": "published"})
		Eventually(func() int64 {
			return scalar[int64]("SELECT count(*) FROM library.question_filings WHERE question_id = ?", qid)
		}).WithTimeout(delivery).Should(BeEquivalentTo(1))

		// An import writes claims straight into the table: no live sync.
		Expect(h.App.DB.Conn(ctxb).Exec(`INSERT INTO library.topic_claims (article_id, category_id) VALUES (?, ?), (?, ?)`,
			IDOf(a), cat, IDOf(a), moved).Error).To(Succeed())
		Expect(slugsFor(qid)()).To(BeEmpty())
		job := app.Lookup[*library.Module](h.App)
		Expect(job.ApplyTopicClaims(ctxb)).To(Succeed())
		Expect(slugsFor(qid)()).To(Equal([]string{"bulk-claimer"}))

		// A bulk re-filing in the bank's tables sends no event either.
		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE bank.questions SET question_category_id = NULL WHERE id = ?`, qid).Error).To(Succeed())
		Expect(job.ApplyTopicClaims(ctxb)).To(Succeed())
		Expect(slugsFor(qid)()).To(BeEmpty())
		Expect(h.App.DB.Conn(ctxb).Exec(`UPDATE bank.questions SET question_category_id = ? WHERE id = ?`, moved, qid).Error).To(Succeed())
		Expect(job.ApplyTopicClaims(ctxb)).To(Succeed())
		Expect(slugsFor(qid)()).To(Equal([]string{"bulk-claimer"}))
		Expect(scalar[int64]("SELECT category_id FROM library.question_filings WHERE question_id = ?", qid)).To(Equal(moved))
	})
})
