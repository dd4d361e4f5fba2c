package ai_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

func askAIMode(u *User, question string) *Response {
	return u.Client(h).Post("/api/v1/ai-mode/ask", q{"question": question})
}

// article writes an article with one section; published or a draft.
func article(title, status, text string) int64 {
	res := mod.Client(h).Post("/api/v1/articles/", q{"title": title, "status": status,
		"sections": []q{{"heading": "Overview", "markdown": text}}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// indexed waits until a moderator's search for text finds an item of kind
// by its words (the index follows the library and the bank through events;
// a vector neighbour is found for any text, so any hit would not say the
// item is in). Each spec's text is its own made-up word.
func indexed(kind, text string) {
	EventuallyWithOffset(1, func() bool {
		res := mod.Client(h).Get("/api/v1/search?kinds=" + kind + "&q=" + text)
		for _, k := range res.Map()["results"].([]any) {
			for _, hit := range k.(map[string]any)["hits"].([]any) {
				if hit.(map[string]any)["keyword"] == true {
					return true
				}
			}
		}
		return false
	}, "10s", "50ms").Should(BeTrue(), "a %s found by the word %q", kind, text)
}

// aiModeSpecs run inside the tutor's ordered container: they need its tutor
// model (AI Mode answers with the task teach's default).
func aiModeSpecs() {
	Describe("AI Mode", func() {
		It("answers from the learner's own shortlist of articles and questions, citing it, never the answer side", func() {
			pub := article("Opening snaps explained", "published", "The zephyrine opening snap of mitral stenosis follows S2 closely.")
			draft := article("Draft on snaps", "draft", "An unpublished zephyrine note about opening snaps.")
			qid, _ := questionAsking("Which zephyrine murmur has an opening snap?", "learning")
			indexed("article", "zephyrine")
			indexed("question", "zephyrine")

			u := h.NewUser(auth.RoleUser)
			proxy.Reply("The snap follows S2 [1]. Questions test it [3]. Unknown [9].")
			defer proxy.Reply(standin.DefaultReply)
			proxy.Calls()
			res := askAIMode(u, "zephyrine opening snap")
			Expect(res).To(HaveStatus(200))
			body := res.Map()
			Expect(body["answer"]).To(Equal("The snap follows S2 [1]. Questions test it [3]. Unknown [9]."))
			sources := body["sources"].([]any)
			var articles, questions []int64
			for i, s := range sources {
				src := s.(map[string]any)
				Expect(src["n"]).To(BeEquivalentTo(i + 1))
				id := int64(src["id"].(float64))
				Expect(src["link"]).To(Equal(fmt.Sprintf("/%ss/%d", src["kind"], id)))
				Expect(src["cited"]).To(Equal(i == 0 || i == 2), "cited as [1] and [3] only")
				switch src["kind"] {
				case "article":
					Expect(src["section_id"]).NotTo(BeNil())
					articles = append(articles, id)
				case "question":
					Expect(src["section_id"]).To(BeNil())
					questions = append(questions, id)
				}
			}
			Expect(articles).To(ContainElement(pub))
			Expect(articles).NotTo(ContainElement(draft), "a draft is in nobody's search")
			Expect(questions).To(ContainElement(qid))

			sent := sentToModel()
			Expect(sent).To(And(ContainSubstring("[1] (article) Opening snaps explained — Overview"),
				ContainSubstring("zephyrine opening snap of mitral stenosis"), ContainSubstring("Which zephyrine murmur")))
			Expect(sent).NotTo(Or(ContainSubstring("SECRET-EXPLANATION"), ContainSubstring("unpublished zephyrine")))

			var task string
			Expect(h.App.DB.Conn(ctxb).Raw(`SELECT task FROM ai.usage WHERE user_id = ?`, u.ID).Scan(&task).Error).To(Succeed())
			Expect(task).To(Equal("ai_mode"))
		})

		It("answers plainly without calling the model when nothing matches", func() {
			proxy.Calls()
			res := askAIMode(h.NewUser(auth.RoleUser), "qwxzvbnm plokijuh")
			Expect(res).To(HaveStatus(200))
			Expect(res.Map()).To(And(HaveKeyWithValue("sources", BeEmpty()), HaveKeyWithValue("answer", ContainSubstring("Nothing"))))
			Expect(proxy.Calls()).To(BeEmpty())
		})

		It("holds the daily quota, refuses an empty question, and tells of a failing model plainly", func() {
			article("Quota snaps", "published", "The quillwort sign.")
			indexed("article", "quillwort")
			Expect(admin.Client(h).Put("/api/v1/admin/settings", q{"ai_mode_daily_quota": 1})).To(HaveStatus(200))
			defer admin.Client(h).Put("/api/v1/admin/settings", q{"ai_mode_daily_quota": 0})
			u := h.NewUser(auth.RoleUser)
			Expect(askAIMode(u, "quillwort")).To(HaveStatus(200))
			res := askAIMode(u, "quillwort")
			Expect(res).To(HaveError(429, "rate_limited"))
			Expect(res.Body).To(ContainSubstring("quota"))
			Expect(askAIMode(admin, "quillwort")).To(HaveStatus(200), "admins are exempt")

			Expect(askAIMode(h.NewUser(auth.RoleUser), "")).To(HaveError(422, "invalid_request"))
			proxy.Set(standin.ServerError)
			defer proxy.Set(standin.OK)
			learner := h.NewUser(auth.RoleUser)
			plainFailure(askAIMode(learner, "quillwort"), "AI Mode could not answer just now")
			loggedFailure("ai_mode", learner.ID, "overloaded")
		})
	})
}
