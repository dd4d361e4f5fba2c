package media_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/fixtures"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Using an asset by its id", func() {
	It("lets a caller use only an asset /uploads would serve them; every other id is the 404 of one that does not exist", func() {
		hidden := fixtures.HiddenAssets(h, mod)
		branch := fixtures.Category(h, mod, "Usable assets")
		holder, learner := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		Expect(mod.Client(h).Post(path("/access/%d/grants", holder.ID), q{"kind": "category", "target_id": branch})).
			To(HaveStatus(201))
		own := fixtures.Article(h, mod, "draft", branch)
		published := fixtures.Article(h, mod, "published", 0)
		deck := mod.Client(h).Post(path("/flashcards/manual"), q{"title": "Holder's deck", "category_id": branch}).ID()
		Expect(mod.Client(h).Post(path("/access/%d/grants", holder.ID), q{"kind": "deck", "scope": "deck", "target_id": deck})).
			To(HaveStatus(201))

		uses := map[string]func(u *User, article, asset int64) *Response{
			"place": func(u *User, article, asset int64) *Response {
				return u.Client(h).Post(path("/articles/%d/figures/existing", article), q{"asset_id": asset, "section_id": "findings"})
			},
			"unlink": func(u *User, article, asset int64) *Response {
				return u.Client(h).Post(path("/media/%d/unlink", asset), q{"article_id": article})
			},
			"card picture": func(u *User, _, asset int64) *Response {
				return u.Client(h).Post(path("/flashcards/decks/%d/cards", deck), q{"card_type": "image", "front": "Q",
					"back": "A", "picture_id": asset})
			},
		}
		before := []any{markdown(own, "findings"), assets(),
			scalar[int64](`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)}
		for use, try := range uses {
			var first []byte
			for name, a := range hidden {
				res := try(holder, own, a.ID)
				Expect(res).To(HaveError(404, "not_found"), "%s %s", use, name)
				if first == nil {
					first = res.Body
				}
				Expect(res.Body).To(MatchJSON(first), "%s %s answers unlike the others", use, name)
			}
		}
		for name, a := range hidden {
			Expect(holder.Client(h).Get(a.URL).Status).To(BeElementOf(403, 404), name)
			Expect(learner.Client(h).Get(a.URL).Status).To(BeElementOf(403, 404), name)
			Expect(learner.Client(h).Post(path("/media/%d/unlink", a.ID), q{"article_id": published})).
				To(HaveError(404, "not_found"), name)
		}
		Expect([]any{markdown(own, "findings"), assets(),
			scalar[int64](`SELECT count(*) FROM flashcards.cards WHERE deck_id = ?`, deck)}).To(Equal(before))

		// What /uploads serves them they may use: the holder places a
		// published article's figure and takes it off again; the learner
		// sees it too but edits nothing (the library's 403).
		seen := fixtures.Figure(h, mod, published, "intro")
		Expect(holder.Client(h).Get(seen.URL)).To(HaveStatus(200))
		Expect(uses["place"](holder, own, seen.ID)).To(HaveStatus(201))
		Expect(uses["unlink"](holder, own, seen.ID)).To(HaveStatus(204))
		Expect(uses["unlink"](learner, published, seen.ID)).To(HaveError(403, "forbidden"))
		Expect(markdown(published, "intro")).To(ContainSubstring(seen.URL))
	})
})
