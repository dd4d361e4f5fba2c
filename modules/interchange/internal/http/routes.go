// Package http is the interchange module's HTTP surface: importing a
// question file into drafts and exporting a quiz as a file.
package http

import (
	nethttp "net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/interchange/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register declares the module's operations.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	importRoutes(r, h)
	exportRoutes(r, h)
}

func importRoutes(r *httpapi.Router, h *handlers) {
	op := httpapi.Described(httpapi.Op(nethttp.MethodPost, "/drafts/import/{format}", "drafts",
		"Import a question file (Moodle XML or GIFT) as a batch of drafts to review", nethttp.StatusCreated, 400, 413, 422),
		"The body is the file itself. Questions the bank can hold become pending drafts of one new "+
			"batch; nothing enters the bank until a draft is accepted. Each question left out is listed with "+
			"its reason. A file that cannot be read is a 400, a DOCTYPE or a file with no importable question "+
			"a 422, a file over the size or question limit a 413; then nothing is stored.")
	op.MaxBodyBytes = h.svc.Config().MaxImportBytes
	httpapi.Register(r, auth.Mod, op, h.importFile)

	op = httpapi.Described(httpapi.Op(nethttp.MethodPost, "/flashcard-decks/import/apkg", "flashcards",
		"Import an Anki package (.apkg) as a new flashcard deck", nethttp.StatusCreated, 400, 413, 422),
		"The body is the package itself, in any layout Anki writes: the latest (meta, collection.anki21b "+
			"in zstd, schema 18, a zstd protobuf media map; the decoy collection.anki2 beside it is never read) or "+
			"the legacy ones (collection.anki21 or collection.anki2, schema 11). Each note becomes cards through "+
			"the same rules as cards written by hand, by what its note type's card templates show: cloze types a "+
			"cloze card, a card asking {{type:Field}} a type-in card, two templates asking each side of the other "+
			"a reversed card, image occlusion notes an image card per hidden shape, any other card a basic card "+
			"(question side front, answer side back); mapped says how each note type was taken and each note "+
			"left out is listed with its reason. The collection's tables are read only when they are real "+
			"tables: a view, a trigger or a generated column is a 422. The cards' scheduling and review log in the package "+
			"become the importer's schedule of the new cards. A note's one picture (<img src> naming a media file "+
			"whose bytes are PNG, JPEG or WebP) is stored as a media asset and becomes the card's picture: a basic "+
			"note showing it on its front an image card, any other note its card with the picture; a note with "+
			"several pictures or a missing or non-image one is left out. A package that cannot be read, or whose "+
			"media map names a file it lacks, is a 400; an entry or media name that is a path, a picture that "+
			"cannot be decoded, or no importable note, a 422; a package over its size, unpacked size (zip bomb, "+
			"collection or picture), entry, note, media map or media limits a 413; then nothing is stored.")
	op.MaxBodyBytes = h.svc.Config().MaxPackageBytes
	httpapi.Register(r, auth.Mod, op, h.importAnki)
}

func exportRoutes(r *httpapi.Router, h *handlers) {
	op := httpapi.Described(httpapi.Op(nethttp.MethodGet, "/flashcard-decks/{deck_id}/export/apkg", "flashcards",
		"Export a deck you may study as an Anki package (.apkg) with your schedule", 0, 404),
		"layout=latest (the default) writes what Anki 2.1.50 and later write by default: a meta entry "+
			"(package version 3), the collection as collection.anki21b (zstd, schema 18), a decoy collection.anki2 "+
			"asking older Ankis to update, a zstd protobuf media map and zstd media files. layout=legacy writes "+
			"collection.anki2 (schema 11) with a JSON media map, which every Anki from 2.0 on reads. Basic, "+
			"reversed, cloze and type-in cards become notes of Anki's stock note types, image cards "+
			"Basic notes showing the picture on the front; a card's picture is a media file of the package "+
			"shown in a field with <img src>. Occlusion (masked image) cards are left out (X-Cards-Left-Out "+
			"counts them). Each card carries your FSRS state of it "+
			"(Anki's due, interval, reps, lapses, queue and type, stability and difficulty in the card's data) and "+
			"the revlog holds your reviews; cards you never studied are new. The package is streamed as it is "+
			"written; one cut short has no zip directory.")
	op.Responses = map[string]*huma.Response{"200": {Description: "the package",
		Headers: map[string]*huma.Param{"X-Cards-Left-Out": {Description: "cards no Anki note type holds (occlusion cards)",
			Schema: &huma.Schema{Type: "integer"}}},
		Content: map[string]*huma.MediaType{"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}}
	httpapi.Register(r, auth.User, op, h.exportAnki)

	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodGet, "/flashcard-decks/{deck_id}/export/revlog", "flashcards",
		"Export your reviews of a deck as the review log CSV FSRS optimisers read", 0),
		"Columns card_id, review_time (ms since the Unix epoch), review_rating (1 again to 4 easy), "+
			"review_state (the card's state before the review: 0 new, 1 learning, 2 review, 3 relearning) and "+
			"review_duration (ms, 0 when not measured), the revlog.csv of open-spaced-repetition's fsrs-optimizer; "+
			"one row per review, by card then time. Only your own reviews, of a deck you may study."),
		h.exportReviews)

	op = httpapi.Described(httpapi.Op(nethttp.MethodGet, "/quizzes/{quiz_id}/export/{format}", "quizzes",
		"Export a quiz's questions, answers and feedback included, as a file (Moodle XML, GIFT or QTI 2.1)", 0, 404),
		"moodle-xml and gift answer the question file. qti answers a QTI 2.1 content package (zip): "+
			"imsmanifest.xml (IMS CP 1.1), assessment-test.xml referring to one assessmentItem per question "+
			"(items/item_<question id>.xml: choiceInteraction with match_correct, or textEntryInteraction with "+
			"map_response over the accepted answers; the explanation as modalFeedback, per-option feedback in a "+
			"tutor rubricBlock) and the question images under images/, referred to by relative path. The package "+
			"is streamed as it is written; one cut short has no zip directory.")
	op.Responses = map[string]*huma.Response{"200": {Description: "the file", Content: map[string]*huma.MediaType{
		"application/xml": {Schema: &huma.Schema{Type: "string"}},
		"text/plain":      {Schema: &huma.Schema{Type: "string"}},
		"application/zip": {Schema: &huma.Schema{Type: "string", Format: "binary"}},
	}}}
	httpapi.Register(r, auth.Mod, op, h.exportQuiz)
}
