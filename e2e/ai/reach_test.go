package ai_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// sourceIDs are the ids of an AI Mode answer's sources of kind.
func sourceIDs(res *Response, kind string) []int64 {
	var out []int64
	for _, s := range res.Map()["sources"].([]any) {
		if src := s.(map[string]any); src["kind"] == kind {
			out = append(out, int64(src["id"].(float64)))
		}
	}
	return out
}

// publishedKey files an answer key with stem in a quiz of its own and
// publishes it; it returns the key and a switch of the quiz's publication.
func publishedKey(stem string) (AnswerKey, func(on bool)) {
	k := h.NewAnswerKey(mod, q{"question_text": stem})
	res := mod.Client(h).Post("/api/v1/questions/from-bank", q{"title": "Published for a while", "question_ids": []int64{k.ID}})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	quiz := int64(res.Map()["id"].(float64))
	publish := func(on bool) {
		ExpectWithOffset(2, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=%t", quiz, on), nil)).
			To(HaveStatus(200))
	}
	publish(true)
	return k, publish
}

// found waits until a moderator's search for text finds question id (the
// index follows the bank through events).
func found(text string, id int64) {
	EventuallyWithOffset(1, func() []int64 {
		var ids []int64
		for _, k := range mod.Client(h).Get("/api/v1/search?kinds=question&q=" + text).Map()["results"].([]any) {
			for _, hit := range k.(map[string]any)["hits"].([]any) {
				ids = append(ids, int64(hit.(map[string]any)["id"].(float64)))
			}
		}
		return ids
	}, "10s", "50ms").Should(ContainElement(id), "question %d found by %q", id, text)
	// The keyword side indexes first; the tutor's similar stems come from
	// the vector side, embedded after it.
	EventuallyWithOffset(1, func() int64 {
		return count(`SELECT count(*) FROM search.documents WHERE kind = 'question' AND id = ? AND embedding IS NOT NULL`, id)
	}, "10s", "50ms").Should(Equal(int64(1)), "question %d embedded", id)
}

// reachSpecs run inside the tutor's ordered container, with its model:
// the tutor and AI Mode on the bank's reach policy (issue 33).
func reachSpecs() {
	Describe("on hand-picked question ids", func() {
		It("talks about a question only with a learner who reaches it: any other id answers as a missing one, before any model call", func() {
			hp := h.HandPick(mod)
			for _, path := range []string{"/api/v1/teach/chat", "/api/v1/teach/chat/stream"} {
				// A learner each: the tutor's rate counts every call.
				try := func(id int64) *Response { return h.NewUser(auth.RoleUser).Client(h).Post(path, ask(id)) }
				missing := try(hp.Missing)
				Expect(missing).To(HaveError(404, "not_found"))
				for name, id := range hp.Unreached() {
					proxy.Calls()
					Expect(try(id)).To(And(AnswerAlike(missing), ShowNoneOf(hp.Secrets())), path+": "+name)
					Expect(proxy.Calls()).To(BeEmpty(), "nothing of %s reached the model", name)
				}
				Expect(try(hp.Open.ID)).To(HaveStatus(200))
			}
		})

		It("keeps a question the learner sat open to the tutor inside that attempt, after it leaves their reach", func() {
			u := h.NewUser(auth.RoleUser)
			k, publish := publishedKey("Which murmur did I sit before its quiz was withdrawn?")
			res := u.Client(h).Post("/api/v1/saved-tests", q{"title": "Mine", "mode": "learning", "question_ids": []int64{k.ID}})
			Expect(res).To(HaveStatus(201))
			sat := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", int64(res.Map()["id"].(float64))), nil)
			Expect(sat).To(HaveStatus(200))
			publish(false)

			Expect(chat(u, ask(k.ID))).To(AnswerAlike(chat(u, ask(987654321))), "out of reach, and no attempt named")
			Expect(chat(u, ask(k.ID, q{"attempt_id": int64(sat.Map()["id"].(float64))}))).To(HaveStatus(200))
			Expect(sentToModel()).To(ContainSubstring(k.Secrets[0]), "the study attempt opened its answer side")
		})

		It("shows the tutor only the stems of similar questions the learner reaches", func() {
			word := MadeUpWord()
			open, _ := questionAsking("Which "+word+" murmur follows the snap?", "learning")
			hidden := h.NewAnswerKey(mod, q{"question_text": "Which " + word + " murmur follows the snap, unseen?"})
			found(word, open)
			found(word, hidden.ID)

			proxy.Calls()
			Expect(chat(mod, ask(open))).To(HaveStatus(200))
			Expect(sentToModel()).To(ContainSubstring("murmur follows the snap, unseen?"), "a moderator reaches both")
			Expect(chat(h.NewUser(auth.RoleUser), ask(open))).To(HaveStatus(200))
			Expect(sentToModel()).NotTo(ContainSubstring("unseen?"), "question %d is not the learner's", hidden.ID)
		})

		It("answers AI Mode from what the learner reaches: a favourite kept after its quiz was withdrawn is no source", func() {
			u := h.NewUser(auth.RoleUser)
			word := MadeUpWord()
			k, publish := publishedKey("Which " + word + " sign is a withdrawn favourite?")
			Expect(u.Client(h).Post("/api/v1/favorites", q{"question_id": k.ID})).To(HaveStatus(201))
			publish(false)
			found(word, k.ID)

			proxy.Calls()
			res := askAIMode(u, word)
			Expect(res).To(HaveStatus(200))
			Expect(sourceIDs(res, "question")).NotTo(ContainElement(k.ID))
			Expect(res).To(ShowNoneOf(append([]string{"withdrawn favourite"}, k.Secrets...)))
			for _, call := range proxy.Calls() {
				Expect(call.Messages).NotTo(ContainElement(ContainSubstring("withdrawn favourite")))
			}
		})
	})
}
