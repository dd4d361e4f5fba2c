package objects_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/roundsedu/rounds/e2e/fixtures"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/devidp"
)

// kind is what an id of one kind of object is tried with: variants are
// (a) another learner's object, (b) objects the learner may not reach and
// (c) "absent", an id nothing has; filler fills the id when the row tries
// another of the operation's ids (the learner's own, or one they reach;
// nil leaves an optional query filter out).
type kind struct {
	filler   any
	variants map[string]any
	unowned  bool           // a learner has none of their own: filler is someone else's
	alts     map[string]any // other fillers a row may name as kind.alt
}

// kind finds a row's kind, "name" or "name.alt", and the filler it names
// (nil kind when there is none).
func (w *world) kind(name string) (*kind, any) {
	base, alt, _ := strings.Cut(name, ".")
	k, ok := w.kinds[base]
	if !ok {
		return nil, nil
	}
	if alt == "" {
		return &k, k.filler
	}
	v, ok := k.alts[alt]
	if !ok {
		return nil, nil
	}
	return &k, v
}

// world is every object the rows are tried with, and what no answer may
// show.
type world struct {
	me      *harness.User // the learner who calls every row
	kinds   map[string]kind
	markers []string // text of hidden objects and of answer sides
}

// Hidden marks the text of objects the caller may not see; Answer marks
// every answer side (the correct answer itself is an option's text, shown
// with the stem, and is found by its field instead).
const (
	hiddenMark = "HIDDEN-OBJECT"
	answerMark = "ANSWER-SIDE"
)

// answerFields are the answer side of a question under any of its names.
var answerFields = map[string]bool{"correct_answer": true, "explanation": true, "option_explanations": true,
	"key_points": true, "attending_tip": true, "explanation_image_path": true}

// leaks names what a body shows that no try may: a marker, or a non-empty
// answer-side field anywhere in it.
func (w *world) leaks(body []byte) []string {
	var out []string
	for _, m := range w.markers {
		if bytes.Contains(body, []byte(m)) {
			out = append(out, fmt.Sprintf("%q", m))
		}
	}
	var v any
	if json.Unmarshal(body, &v) == nil {
		walk(v, func(k string, val any) {
			if answerFields[k] && !empty(val) {
				out = append(out, fmt.Sprintf("the answer-side field %s", k))
			}
		})
	}
	return out
}

func walk(v any, visit func(string, any)) {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			visit(k, val)
			walk(val, visit)
		}
	case []any:
		for _, val := range t {
			walk(val, visit)
		}
	}
}

func empty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return t == ""
	case []any:
		return len(t) == 0
	}
	return false
}

const absent = fixtures.Absent

// caller sends requests as one user and panics (failing the test) when a
// fixture step answers otherwise than it should.
type caller struct {
	h *harness.Harness
	u *harness.User
}

func (c caller) do(method, path string, body any, want int) *harness.Response {
	res := c.u.Client(c.h).Do(method, "/api/v1"+path, body)
	if res.Status != want {
		panic(fmt.Sprintf("objects: building the world: %s %s: want %d, got %d\n%s", method, path, want, res.Status, res.Body))
	}
	return res
}

func (c caller) post(path string, body any, want int) map[string]any {
	return c.do(http.MethodPost, path, body, want).Map()
}

// builder makes the world; the ids one area of it uses from another are
// its fields.
type builder struct {
	h                     *harness.Harness
	idp                   *harness.IdP
	w                     *world
	admin, mod, other, me caller

	openCat, hiddenCat       int64 // hiddenCat holds only what a learner may not reach
	open1, open2, hiddenQ    int64 // questions: in a published quiz, in none
	pubQuiz                  int64 // published, learning mode: open1, open2 and a trashed one
	answers                  map[string]string
	pubArticle, draftArticle int64
	sharedDeck, privateDeck  int64
}

// build makes the world through the API, each object by the role that
// makes it: moderators write the bank, the library, decks, plans and
// exams; another learner sits, collects, notes, shares and reports; the
// caller keeps objects of their own to fill the ids a row does not try.
func build(h *harness.Harness, idp *harness.IdP) *world {
	b := &builder{h: h, idp: idp, admin: caller{h, h.NewUser(auth.RoleAdmin)}, mod: caller{h, h.NewUser(auth.RoleModerator)},
		other: caller{h, h.NewUser(auth.RoleUser)}, me: caller{h, h.NewUser(auth.RoleUser)}}
	b.w = &world{me: b.me.u, kinds: map[string]kind{}, markers: []string{hiddenMark, answerMark}}
	b.bank()
	b.sittings()
	b.personal()
	b.library()
	b.plans()
	b.exams()
	b.sharing()
	b.editorial()
	return b.w
}

// add records a kind: its filler and variants ("absent" added unless
// given).
func (b *builder) add(name string, filler any, variants map[string]any) {
	if _, ok := variants["absent"]; !ok {
		variants["absent"] = absent
	}
	b.w.kinds[name] = kind{filler: filler, variants: variants}
}

// bank: an open category with questions in a published quiz, and a closed
// one whose question nothing publishes or grants. Categories are public
// (listed to everyone), so filtering by the closed one must show nothing.
func (b *builder) bank() {
	mod := b.mod
	b.openCat = harness.IDOf(mod.post("/question-categories/", map[string]any{"name": "Objects open"}, 201))
	b.hiddenCat = harness.IDOf(mod.post("/question-categories/", map[string]any{"name": "Objects closed"}, 201))
	question := func(cat int64, stem string) int64 {
		return fixtures.Question{Stem: stem, Options: []string{"Mitral", "Aortic"}, Correct: "Mitral", Category: cat,
			Explanation: answerMark + " explanation", OptionNotes: []string{answerMark + " a", answerMark + " b"},
			KeyPoints: []string{answerMark + " point"}, AttendingTip: answerMark + " tip"}.Create(mod.h, mod.u)
	}
	b.open1, b.open2 = question(b.openCat, "Which valve opens first?"), question(b.openCat, "Which valve closes first?")
	trashedQ := question(b.openCat, "Which valve was binned?")
	b.hiddenQ = question(b.hiddenCat, "Which valve is unpublished?")
	b.answers = map[string]string{fmt.Sprint(b.open1): "Mitral", fmt.Sprint(b.open2): "Aortic"}

	b.pubQuiz = b.quiz("Objects published", true, b.open1, b.open2, trashedQ)
	hiddenQuiz := b.quiz("Objects "+hiddenMark, false, b.hiddenQ)
	trashedQuiz := b.quiz("Objects binned", true, b.open1)
	mod.do(http.MethodDelete, fmt.Sprintf("/quizzes/%d", trashedQuiz), nil, 204)
	mod.do(http.MethodDelete, fmt.Sprintf("/questions/%d", trashedQ), nil, 204)
	b.add("quiz", b.pubQuiz, map[string]any{"hidden": hiddenQuiz, "trashed": trashedQuiz})

	version := func(qid int64) int64 {
		mod.do(http.MethodPatch, fmt.Sprintf("/questions/%d", qid), map[string]any{"question_text": "Edited once"}, 200)
		return harness.IDOf(mod.do(http.MethodGet, fmt.Sprintf("/questions/detail/%d/versions", qid), nil, 200).List()[0].(map[string]any))
	}
	b.add("question", b.open1, map[string]any{"hidden": b.hiddenQ, "trashed": trashedQ})
	b.add("version", version(b.open1), map[string]any{"hidden": version(b.hiddenQ)})
	b.add("category", nil, map[string]any{"hidden": b.hiddenCat})
	b.add("tag", nil, map[string]any{})
}

// quiz makes a learning-mode quiz of the questions as a moderator.
func (b *builder) quiz(title string, published bool, ids ...int64) int64 {
	return fixtures.Quiz{Title: title, Questions: ids, Published: published}.Create(b.mod.h, b.mod.u)
}

// sit starts a fresh attempt of a quiz as c.
func (b *builder) sit(c caller, quizID int64) int64 { return fixtures.Sitting(c.h, c.u, quizID) }

// sittings: the other learner's saved test, a submitted study sitting and
// a timed one running; the learner's own sitting that missed open1 (so it
// is on their reminders) and one running with progress saved.
func (b *builder) sittings() {
	other, me := b.other, b.me
	savedTest := harness.IDOf(other.post("/saved-tests", map[string]any{"title": "Objects " + hiddenMark,
		"question_ids": []int64{b.open1, b.open2}, "mode": "learning"}, 201))

	b.w.kinds["quiz"].variants["other"] = savedTest
	timed := fixtures.Quiz{Title: "Objects timed", Questions: []int64{b.open1, b.open2}, Mode: "timed", Minutes: 600,
		Published: true}.Create(b.mod.h, b.mod.u)

	done := b.sit(other, b.pubQuiz)
	other.post(fmt.Sprintf("/attempts/%d/submit", done), map[string]any{"answers": b.answers}, 200)
	running := b.sit(other, timed)
	other.post("/attempts/progress", map[string]any{"quiz_id": timed, "attempt_id": running,
		"answers": map[string]string{fmt.Sprint(b.open1): "Mitral"}}, 200)

	missed := b.sit(me, b.pubQuiz)
	me.post(fmt.Sprintf("/attempts/%d/submit", missed), map[string]any{"answers": map[string]string{fmt.Sprint(b.open1): "Aortic"}}, 200)
	mine := b.sit(me, b.pubQuiz)
	me.post("/attempts/progress", map[string]any{"quiz_id": b.pubQuiz, "attempt_id": mine,
		"answers": map[string]string{fmt.Sprint(b.open1): "Aortic"}}, 200)
	b.add("attempt", mine, map[string]any{"other": done, "running": running})
	k := b.w.kinds["attempt"]
	k.alts = map[string]any{"done": missed}
	b.w.kinds["attempt"] = k
}

// personal: folders and collections, notes and favourites, the other
// learner's and the learner's own.
func (b *builder) personal() {
	folder := func(c caller, name string) int64 {
		return harness.IDOf(c.post("/folders", map[string]any{"name": name}, 201))
	}
	collection := func(c caller, name string, folderID int64) int64 {
		coll := harness.IDOf(c.post("/collections", map[string]any{"name": name, "description": name, "folder_id": folderID}, 201))
		c.do(http.MethodPut, fmt.Sprintf("/collections/%d/questions/%d", coll, b.open1), nil, 204)
		return coll
	}
	otherFolder, myFolder := folder(b.other, "Folder "+hiddenMark), folder(b.me, "My folder")
	b.add("folder", myFolder, map[string]any{"other": otherFolder})
	b.add("collection", collection(b.me, "My collection", myFolder),
		map[string]any{"other": collection(b.other, "Collection "+hiddenMark, otherFolder)})
	for c, note := range map[caller]string{b.other: "Note " + hiddenMark, b.me: "My note"} {
		c.do(http.MethodPut, fmt.Sprintf("/notes/%d", b.open1), map[string]any{"body": note}, 200)
		c.post("/favorites", map[string]any{"question_id": b.open1}, 201)
	}
}

// library: articles published, draft, archived and binned with a revision
// each, assets (media's hidden ones and a published figure), an image
// library, and decks shared, private and binned with a card each.
func (b *builder) library() {
	mod := b.mod
	article := func(status string, cat int64, title string) map[string]any {
		return mod.post("/articles/", map[string]any{"title": title, "status": status, "category_id": cat,
			"summary": title, "sections": []map[string]any{{"id": "intro", "heading": "Intro", "markdown": title + " text."}}}, 201)
	}
	revision := func(a map[string]any) int64 {
		mod.do(http.MethodPatch, fmt.Sprintf("/articles/%d", harness.IDOf(a)), map[string]any{"summary": "Revised", "note": "revise"}, 200)
		return harness.IDOf(mod.do(http.MethodGet, fmt.Sprintf("/articles/%d/revisions", harness.IDOf(a)), nil, 200).List()[0].(map[string]any))
	}
	pub := article("published", b.openCat, "Objects published article")
	draft := article("draft", b.hiddenCat, "Article "+hiddenMark)
	binned := article("published", b.openCat, "Objects binned article")
	archived := article("published", b.openCat, "Archived article "+hiddenMark)
	mod.do(http.MethodPut, fmt.Sprintf("/articles/%d/status", harness.IDOf(archived)), map[string]any{"status": "archived"}, 200)
	revisions := map[string]any{"draft": revision(draft), "archived": revision(archived)}
	b.add("revision", revision(pub), revisions)
	mod.do(http.MethodDelete, fmt.Sprintf("/articles/%d", harness.IDOf(binned)), nil, 200)
	// What a learner reads may point at what they may not: the published
	// article cross-references the draft.
	mod.do(http.MethodPatch, fmt.Sprintf("/articles/%d", harness.IDOf(pub)), map[string]any{"sections": []map[string]any{{"id": "intro",
		"heading": "Intro", "markdown": fmt.Sprintf("See [[%s]].", draft["slug"])}}}, 200)
	b.add("article", harness.IDOf(pub), map[string]any{"draft": harness.IDOf(draft), "trashed": harness.IDOf(binned), "archived": harness.IDOf(archived)})
	b.add("slug", pub["slug"], map[string]any{"draft": draft["slug"], "trashed": binned["slug"], "archived": archived["slug"],
		"absent": "no-such-article"})
	b.pubArticle, b.draftArticle = harness.IDOf(pub), harness.IDOf(draft)

	assets := map[string]any{}
	for name, a := range fixtures.HiddenAssets(b.h, mod.u) {
		assets[strings.ReplaceAll(name, " ", "-")] = a.ID
	}
	b.add("asset", fixtures.Figure(b.h, mod.u, harness.IDOf(pub), "intro").ID, assets)
	b.add("library", nil, map[string]any{"hidden": harness.IDOf(mod.post("/media/libraries", map[string]any{"name": "Objects library"}, 201))})

	deck := func(title string, cat int64) (int64, int64) {
		d := harness.IDOf(mod.post("/flashcards/manual", map[string]any{"title": title, "category_id": cat}, 201))
		res := mod.post(fmt.Sprintf("/flashcards/decks/%d/cards", d), map[string]any{"card_type": "basic",
			"front": title + " front", "back": title + " back"}, 201)
		return d, harness.IDOf(res["cards"].([]any)[0].(map[string]any))
	}
	sharedDeck, sharedCard := deck("Objects shared deck", b.openCat)
	mod.do(http.MethodPut, fmt.Sprintf("/flashcards/%d/share", sharedDeck), nil, 200)
	privateDeck, privateCard := deck("Deck "+hiddenMark, b.hiddenCat)
	binnedDeck, binnedCard := deck("Binned deck "+hiddenMark, b.openCat)
	mod.do(http.MethodPut, fmt.Sprintf("/flashcards/%d/share", binnedDeck), nil, 200)
	mod.do(http.MethodDelete, fmt.Sprintf("/flashcards/%d", binnedDeck), nil, 204)
	mod.do(http.MethodPut, fmt.Sprintf("/flashcards/%d/articles/%d", sharedDeck, harness.IDOf(draft)), nil, 200)
	b.add("deck", sharedDeck, map[string]any{"private": privateDeck, "binned": binnedDeck})
	b.add("card", sharedCard, map[string]any{"private": privateCard, "binned": binnedCard})
	b.sharedDeck, b.privateDeck = sharedDeck, privateDeck
}

// plans: a published plan to fill, an unpublished one, and one retired
// after the other learner enrolled, started its block and read its link
// (still theirs, nobody else's); each with a block and a reading link.
func (b *builder) plans() {
	// Every plan's block also reads the draft, which no learner may see.
	plan := func(title string, questionID, articleID int64, published bool) (int64, int64, int64) {
		p := harness.IDOf(b.mod.post("/study-plans", map[string]any{"title": title, "kind": "mixed"}, 201))
		res := b.mod.post(fmt.Sprintf("/study-plans/%d/blocks", p), map[string]any{"title": title + " block",
			"question_ids": []int64{questionID}, "reading": []map[string]any{{"article_id": articleID},
				{"article_id": b.draftArticle}}}, 201)
		blocks := res["blocks"].([]any)
		block := blocks[len(blocks)-1].(map[string]any)
		if published {
			b.mod.do(http.MethodPatch, fmt.Sprintf("/study-plans/%d/publish?published=true", p), nil, 200)
		}
		return p, harness.IDOf(block), harness.IDOf(block["reading"].([]any)[0].(map[string]any))
	}
	pubPlan, pubBlock, pubLink := plan("Objects plan", b.open1, b.pubArticle, true)
	hidPlan, hidBlock, hidLink := plan("Plan "+hiddenMark, b.hiddenQ, b.draftArticle, false)
	oldPlan, oldBlock, oldLink := plan("Retired plan "+hiddenMark, b.open2, b.pubArticle, true)
	b.other.post(fmt.Sprintf("/study-plans/%d/enrol", oldPlan), nil, 200)
	b.other.post(fmt.Sprintf("/study-plans/blocks/%d/start?mode=learning", oldBlock), nil, 200)
	b.other.do(http.MethodPost, fmt.Sprintf("/study-plans/reading/%d/read?read=true", oldLink), nil, 204)
	b.mod.do(http.MethodPatch, fmt.Sprintf("/study-plans/%d/publish?published=false", oldPlan), nil, 200)
	b.other.post(fmt.Sprintf("/study-plans/%d/enrol", pubPlan), nil, 200)
	b.add("plan", pubPlan, map[string]any{"hidden": hidPlan, "retired": oldPlan})
	b.add("block", pubBlock, map[string]any{"hidden": hidBlock, "retired": oldBlock})
	b.add("link", pubLink, map[string]any{"hidden": hidLink, "retired": oldLink})
}

// exams: a published exam to fill, an unpublished one, and one closed
// after the other learner sat it: their paper, sitting and result stay
// theirs (and are tried as quiz and attempt variants).
func (b *builder) exams() {
	// Every exam's domain also names the draft article and the private deck.
	exam := func(title string, published bool) int64 {
		e := harness.IDOf(b.mod.post("/exams", map[string]any{"title": title, "size": 2, "time_limit_minutes": 30, "seed": 1,
			"domains": []map[string]any{{"name": "Valves", "weight": 1, "question_ids": []int64{b.open1, b.open2},
				"article_ids": []int64{b.draftArticle}, "deck_ids": []int64{b.privateDeck}}}}, 201))

		if published {
			b.mod.do(http.MethodPatch, fmt.Sprintf("/exams/%d/publish?published=true", e), nil, 200)
		}
		return e
	}
	closed := exam("Closed exam "+hiddenMark, true)
	paper := int64(b.other.post(fmt.Sprintf("/exams/%d/start", closed), nil, 200)["quiz_id"].(float64))
	sitting := b.sit(b.other, paper)
	b.other.post(fmt.Sprintf("/attempts/%d/submit", sitting), map[string]any{"answers": b.answers}, 200)
	b.mod.do(http.MethodPatch, fmt.Sprintf("/exams/%d/publish?published=false", closed), nil, 200)
	b.add("exam", exam("Objects exam", true), map[string]any{"hidden": exam("Exam "+hiddenMark, false), "closed": closed})
	b.w.kinds["quiz"].variants["paper"] = paper
	b.w.kinds["attempt"].variants["exam"] = sitting
}

// sharing: the other learner's share links (one revoked) and report, the
// learner's own link, and a session each on a device that keeps one.
func (b *builder) sharing() {
	share := func(c caller, kindName string, target int64) map[string]any {
		return c.post("/share/links", map[string]any{"kind": kindName, "target_id": target}, 201)
	}
	link := share(b.other, "quiz", b.pubQuiz)
	revoked := share(b.other, "article", b.pubArticle)
	b.other.do(http.MethodDelete, fmt.Sprintf("/share/links/%d", harness.IDOf(revoked)), nil, 204)
	b.add("share", harness.IDOf(share(b.me, "deck", b.sharedDeck)), map[string]any{"other": harness.IDOf(link)})
	b.add("token", link["token"], map[string]any{"revoked": revoked["token"], "absent": "no-such-token"})
	report := harness.IDOf(b.other.post("/feedback", map[string]any{"kind": "question", "target_id": b.open1, "type": "typo",
		"text": "Report " + hiddenMark}, 201))

	b.add("report", report, map[string]any{"other": report})

	family := func(c caller) any {
		b.h.SignIn(b.idp, devidp.Claims{Email: c.u.Email}, true, "Objects phone")
		return c.do(http.MethodGet, "/auth/sessions", nil, 200).List()[0].(map[string]any)["family"]
	}
	b.add("family", family(b.me), map[string]any{"other": family(b.other), "absent": "no-such-family"})
}

// editorial: objects behind the moderators' gate (rows that try them
// answer 403 before any id is read), and the AI models a learner names.
// Learners have no documents or jobs of their own: those kinds fill with
// a moderator's.
func (b *builder) editorial() {
	mod := b.mod
	b.add("user", b.other.u.ID, map[string]any{"other": b.other.u.ID})
	grant := harness.IDOf(mod.post(fmt.Sprintf("/access/%d/grants", b.other.u.ID), map[string]any{"kind": "category", "target_id": b.openCat}, 201))
	b.add("grant", grant, map[string]any{"other": grant})
	doc := uploadDocument(b.h, mod)
	b.add("document", doc, map[string]any{"other": doc})
	b.add("section", nil, map[string]any{})
	imported := mod.u.Client(b.h).With("Content-Type", "application/octet-stream").Post(
		fmt.Sprintf("/api/v1/drafts/import/gift?category_id=%d", b.openCat), "::Q1:: Which valve? {=Mitral ~Aortic}")
	if imported.Status != http.StatusCreated {
		panic(fmt.Sprintf("objects: import drafts: %d %s", imported.Status, imported.Body))
	}
	batch := int64(imported.Map()["batch_id"].(float64))
	draft := harness.IDOf(mod.do(http.MethodGet, fmt.Sprintf("/drafts/batches/%d/drafts", batch), nil, 200).List()[0].(map[string]any))
	b.add("batch", batch, map[string]any{"other": batch})
	b.add("draft", draft, map[string]any{"other": draft})
	job := mod.post("/articles/ai-draft", map[string]any{"title": "Valves", "category_id": b.openCat}, 202)["job_id"]
	b.add("job", job, map[string]any{"other": job, "absent": "00000000-0000-0000-0000-000000000000"})
	for _, name := range []string{"document", "job"} {
		k := b.w.kinds[name]
		k.unowned = true
		b.w.kinds[name] = k
	}
	term := harness.IDOf(mod.post("/glossary/", map[string]any{"term": "Objects term", "definition": "A term"}, 201))
	b.add("term", term, map[string]any{"other": term})
	lab := harness.IDOf(mod.post("/study-tools/lab-values", map[string]any{"name": "Sodium", "group": "Chemistry",
		"reference_range": "135-145", "units": "mmol/L", "age_group": "Adult", "specimen": "Serum",
		"source": "Objects", "is_published": false}, 201))

	b.add("labvalue", lab, map[string]any{"hidden": lab})
	// The tutor's model, and a speech model: not one a tutor may be asked
	// to use.
	b.admin.do(http.MethodPost, "/admin/models", map[string]any{"name": "Objects tutor", "model_id": "objects-teach", "task": "teach"}, 201)
	speech := b.admin.do(http.MethodPost, "/admin/models", map[string]any{"name": "Objects speech", "model_id": "objects-tts",
		"task": "tts", "voices": []string{"alloy"}}, 201).List()[0].(map[string]any)
	b.add("model", nil, map[string]any{"other-task": harness.IDOf(speech)})
	b.add("system", nil, map[string]any{})
	b.add("snapshot", absent, map[string]any{})
	b.add("submission", absent, map[string]any{})
}

// uploadDocument uploads a PDF as a moderator.
func uploadDocument(h *harness.Harness, mod caller) int64 {
	body, ct := harness.Form("file", "objects.pdf", pdffixtures.QuestionPaper(), nil)
	res := mod.u.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
	if res.Status != http.StatusCreated && res.Status != http.StatusOK {
		panic(fmt.Sprintf("objects: upload a document: %d %s", res.Status, res.Body))
	}
	return res.ID()
}
