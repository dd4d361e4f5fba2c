package http

import (
	nethttp "net/http"

	"github.com/roundsedu/rounds/modules/flashcards/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register adds the flashcards operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	deckRoutes(r, h)
	cardRoutes(r, h)
	studyRoutes(r, h)
	articleRoutes(r, h)
	chartRoutes(r, h)
}

func deckRoutes(r *httpapi.Router, h *handlers) {
	const tag = "flashcards"
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/flashcards/manual", tag,
		"Make a deck by hand (moderators): title and category required; it starts unshared and you own it",
		nethttp.StatusCreated), h.createManual)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards", tag,
		"Decks you may study: shared ones, your own and those your grants reach (moderators: all), newest first", 0),
		h.listDecks)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/trash", tag,
		"Binned decks: moderators get them all, everyone else an empty list", 0), h.trash)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/{deck_id}", tag,
		"A deck you may study, with its card count, whether you may edit it and your exam date", 0,
		nethttp.StatusNotFound), h.getDeck)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPatch, "/flashcards/{deck_id}", tag,
		"Change a deck's title, description, category or accent rule (moderator, owner or grant holder)", 0,
		nethttp.StatusForbidden, nethttp.StatusNotFound), h.patchDeck)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodDelete, "/flashcards/{deck_id}", tag,
		"Bin a deck (can_edit_deck), or with permanent=true remove it for good (moderator or owner)", nethttp.StatusNoContent,
		nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict), h.deleteDeck)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/flashcards/{deck_id}/restore", tag,
		"Take a deck out of the bin (can_edit_deck)", 0,
		nethttp.StatusForbidden, nethttp.StatusNotFound, nethttp.StatusConflict), h.restoreDeck)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPut, "/flashcards/{deck_id}/share", tag,
		"Share a deck site-wide (can_edit_deck)", 0, nethttp.StatusForbidden, nethttp.StatusNotFound), h.shareDeck)
	httpapi.Register(r, auth.Admin, httpapi.Op(nethttp.MethodDelete, "/flashcards/{deck_id}/share", tag,
		"Force-unshare a deck (admins)", 0, nethttp.StatusNotFound), h.unshareDeck)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/flashcards/grants", tag,
		"A person's deck grants and the live decks each reaches now (moderators)", 0, nethttp.StatusNotFound), h.grants)
	httpapi.Register(r, auth.Mod, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/flashcards/grants", tag,
		"Give a learner a deck grant: one deck, or a category branch of decks (moderators; edit, never delete)",
		nethttp.StatusCreated, nethttp.StatusBadRequest, nethttp.StatusNotFound, nethttp.StatusConflict),
		"The same grant as POST /access/{user_id}/grants with kind deck: never to yourself, only to "+
			"learners; the deck or category must exist. The answer lists the live decks it reaches now."),
		h.giveGrant)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/flashcards/grants/{grant_id}", tag,
		"Revoke a person's deck grant (moderators)", nethttp.StatusNoContent, nethttp.StatusNotFound), h.revokeGrant)
}

func cardRoutes(r *httpapi.Router, h *handlers) {
	const tag = "flashcards"
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/flashcards/decks/{deck_id}/cards", tag,
		"Add a card (can_edit_deck): basic, reversed (two rows), cloze (a row per deletion number), image (a row per overlay shape), type_in",
		nethttp.StatusCreated, nethttp.StatusForbidden, nethttp.StatusNotFound), h.addCard)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/decks/{deck_id}/cards", tag,
		"A deck's cards in the order written (anyone who may study it)", 0, nethttp.StatusNotFound), h.deckCards)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodDelete, "/flashcards/cards/{card_id}", tag,
		"Delete a card for good (can_edit_deck); half of a reversed pair takes the other half", 0,
		nethttp.StatusForbidden, nethttp.StatusNotFound), h.deleteCard)
	// The four link operations check the moderator role itself: a deck
	// grant does not reach them.
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/flashcards/cards/{card_id}/question", tag,
		"Link a card to a bank question (moderators)", 0, nethttp.StatusNotFound), h.linkQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/flashcards/cards/{card_id}/question", tag,
		"Unlink a card from its question (moderators)", 0, nethttp.StatusNotFound), h.unlinkQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/flashcards/cards/{card_id}/article", tag,
		"Link a card to an article and optional section (moderators; needs the library module)", 0,
		nethttp.StatusNotFound), h.linkArticle)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/flashcards/cards/{card_id}/article", tag,
		"Unlink a card from its article (moderators)", 0, nethttp.StatusNotFound), h.unlinkArticle)
}

func studyRoutes(r *httpapi.Router, h *handlers) {
	const tag = "flashcards"
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/study/queue", tag,
		"Your due cards, least retrievable first, within the daily cap; with deck_id, that deck's new cards follow", 0,
		nethttp.StatusNotFound), h.queue)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodGet, "/flashcards/cards/{card_id}/outcomes", tag,
		"What each rating would do to a card now: when it would be due again", 0, nethttp.StatusNotFound),
		"The scheduler's answer for again, hard, good and easy, in that order; nothing is written. The least-loaded day is read now, so a review made later may land a day apart."),
		h.outcomes)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodDelete, "/flashcards/cards/{card_id}/review", tag,
		"Undo your latest rating, of this card", 0, nethttp.StatusNotFound, nethttp.StatusConflict),
		"The card's schedule returns to what it was before the rating (a new card is new again) and the review leaves the log; the answer is the card to study again. 409 when your latest rating is of another card."),
		h.undo)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/flashcards/cards/{card_id}/review", tag,
		"Grade a card again, hard, good or easy; it is scheduled by FSRS at your retention, before your exam", 0,
		nethttp.StatusNotFound), h.review)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/study/settings", tag,
		"Your desired retention (0.9 until you set it)", 0), h.settings)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPut, "/flashcards/study/settings", tag,
		"Set your desired retention (0.7 to 0.99); it applies from your next review", 0), h.setSettings)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPut, "/flashcards/{deck_id}/exam", tag,
		"Set your exam date for a deck: every card's last review falls before it", 0, nethttp.StatusNotFound), h.setExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodDelete, "/flashcards/{deck_id}/exam", tag,
		"Clear your exam date for a deck", 0, nethttp.StatusNotFound), h.clearExam)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/{deck_id}/forecast", tag,
		"Your reviews per day for a deck until your exam", 0, nethttp.StatusNotFound), h.forecast)
}

func articleRoutes(r *httpapi.Router, h *handlers) {
	const tag = "flashcards"
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/flashcards/{deck_id}/articles", tag,
		"The library articles a deck's cards came from, its source first (anyone who may study it)", 0,
		nethttp.StatusNotFound), h.deckArticles)
	// Like the card links, deck links check the moderator role itself.
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/flashcards/{deck_id}/articles/{article_id}", tag,
		"Link a deck to an article (moderators); its first link, or one sent with source=true, is its source", 0,
		nethttp.StatusNotFound), h.linkDeckArticle)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/flashcards/{deck_id}/articles/{article_id}", tag,
		"Unlink a deck from an article (moderators); unlinking the source passes the flag to the oldest link left", 0,
		nethttp.StatusNotFound), h.unlinkDeckArticle)
}
