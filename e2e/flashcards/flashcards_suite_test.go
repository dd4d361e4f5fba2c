// Package flashcards_test drives decks, cards and studying end to end,
// each role signed in through the real SSO flow.
package flashcards_test

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestFlashcards(t *testing.T) { RunSuite(t, "Flashcards") }

const api = "/api/v1"

var (
	h           *Harness
	admin, mod  *User
	ctxb        = context.Background()
	categorySeq int
)

var _ = Suite(&h, func() { admin, mod = h.NewUser(auth.RoleAdmin), h.NewUser(auth.RoleModerator) },
	WithConfig(func(c *config.Config) { c.Set("flashcards.reviews_per_day", 5) }))

// category makes a question category, under parent when it is not 0.
func category(parent int64) int64 {
	categorySeq++
	body := map[string]any{"name": fmt.Sprintf("Topic %d", categorySeq)}
	if parent != 0 {
		body["parent_id"] = parent
	}
	res := mod.Client(h).Post(api+"/question-categories/", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.ID()
}

// deck makes an unshared deck as u (a moderator) in category cat.
func deck(u *User, title string, cat int64) int64 {
	res := u.Client(h).Post(api+"/flashcards/manual", map[string]any{"title": title, "category_id": cat})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return res.ID()
}

func deckPath(d int64, rest string) string { return fmt.Sprintf("%s/flashcards/%d%s", api, d, rest) }

func addCard(u *User, d int64, body map[string]any) *Response {
	return u.Client(h).Post(fmt.Sprintf("%s/flashcards/decks/%d/cards", api, d), body)
}

// grant gives learner a deck grant (scope deck or category) through identity.
func grant(learner *User, scope string, target int64) {
	res := mod.Client(h).Post(fmt.Sprintf("%s/access/%d/grants", api, learner.ID),
		map[string]any{"kind": "deck", "scope": scope, "target_id": target})
	ExpectWithOffset(1, res).To(HaveStatus(201))
}

type deckRow struct {
	IsShared  bool
	Deleted   bool
	UserID    int64
	Title     string
	CardCount int64
}

func storedDeck(d int64) (deckRow, bool) {
	var rows []deckRow
	Expect(h.App.DB.Conn(ctxb).Raw(`SELECT is_shared, deleted_at IS NOT NULL AS deleted, user_id, title,
		(SELECT count(*) FROM flashcards.cards WHERE deck_id = d.id) AS card_count
		FROM flashcards.decks d WHERE id = ?`, d).Scan(&rows).Error).To(Succeed())
	if len(rows) == 0 {
		return deckRow{}, false
	}
	return rows[0], true
}

func ids(list []any) []int64 {
	out := make([]int64, len(list))
	for i, x := range list {
		out[i] = int64(x.(map[string]any)["id"].(float64))
	}
	return out
}
