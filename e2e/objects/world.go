package objects_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/roundsedu/rounds/e2e/fixtures"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/drafts/pdffixtures"
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

func id(m map[string]any) int64 { return int64(m["id"].(float64)) }

// build makes the world through the API, each object by the role that
// makes it: moderators write the bank, the library and decks; another
// learner sits, collects, notes, shares and reports; the caller keeps
// objects of their own to fill the ids a row does not try.
func build(t *testing.T, h *harness.Harness, idp *harness.IdP) *world {
	t.Helper()
	admin := caller{h, h.NewUser(auth.RoleAdmin)}
	mod := caller{h, h.NewUser(auth.RoleModerator)}
	other := caller{h, h.NewUser(auth.RoleUser)}
	me := caller{h, h.NewUser(auth.RoleUser)}
	w := &world{me: me.u, kinds: map[string]kind{}, markers: []string{hiddenMark, answerMark}}
	add := func(name string, filler any, variants map[string]any) {
		if _, ok := variants["absent"]; !ok {
			variants["absent"] = absent
		}
		w.kinds[name] = kind{filler: filler, variants: variants}
	}
	unowned := func(name string) {
		k := w.kinds[name]
		k.unowned = true
		w.kinds[name] = k
	}

	// The bank: an open category with questions in a published quiz, a
	// hidden one with a question nothing publishes or grants.
	openCat := id(mod.post("/question-categories/", map[string]any{"name": "Objects open"}, 201))
	// Categories are public (listed to everyone); this one holds only what
	// a learner may not reach, so filtering by it must show nothing.
	hiddenCat := id(mod.post("/question-categories/", map[string]any{"name": "Objects closed"}, 201))
	question := func(cat int64, stem string) int64 {
		return id(mod.post("/questions/create", map[string]any{"question_text": stem, "question_type": "mcq",
			"options": []string{"Mitral", "Aortic"}, "correct_answer": "Mitral", "question_category_id": cat,
			"explanation": answerMark + " explanation", "option_explanations": []string{answerMark + " a", answerMark + " b"},
			"key_points": []string{answerMark + " point"}, "attending_tip": answerMark + " tip"}, 201))
	}
	open1, open2 := question(openCat, "Which valve opens first?"), question(openCat, "Which valve closes first?")
	trashedQ := question(openCat, "Which valve was binned?")
	hiddenQ := question(hiddenCat, "Which valve is unpublished?")
	quiz := func(title string, ids ...int64) int64 {
		return id(mod.post("/questions/from-bank", map[string]any{"title": title, "question_ids": ids, "mode": "learning"}, 201))
	}
	publish := func(quizID int64) {
		mod.do(http.MethodPatch, fmt.Sprintf("/quizzes/%d/publish?published=true", quizID), nil, 200)
	}
	pubQuiz := quiz("Objects published", open1, open2, trashedQ)
	publish(pubQuiz)
	timedQuiz := id(mod.post("/questions/from-bank", map[string]any{"title": "Objects timed", "question_ids": []int64{open1, open2},
		"mode": "timed", "time_limit_minutes": 600}, 201))
	publish(timedQuiz)
	hiddenQuiz := quiz("Objects "+hiddenMark, hiddenQ)
	trashedQuiz := quiz("Objects binned", open1)
	publish(trashedQuiz)
	mod.do(http.MethodDelete, fmt.Sprintf("/quizzes/%d", trashedQuiz), nil, 204)
	mod.do(http.MethodPatch, fmt.Sprintf("/questions/%d", hiddenQ), map[string]any{"question_text": "Which valve is unpublished, again?"}, 200)
	mod.do(http.MethodDelete, fmt.Sprintf("/questions/%d", trashedQ), nil, 204)
	versions := func(qid int64) int64 {
		return int64(mod.do(http.MethodGet, fmt.Sprintf("/questions/detail/%d/versions", qid), nil, 200).List()[0].(map[string]any)["id"].(float64))
	}
	mod.do(http.MethodPatch, fmt.Sprintf("/questions/%d", open1), map[string]any{"question_text": "Which valve opens first of all?"}, 200)
	add("question", open1, map[string]any{"hidden": hiddenQ, "trashed": trashedQ})
	add("version", versions(open1), map[string]any{"hidden": versions(hiddenQ)})
	add("category", nil, map[string]any{"hidden": hiddenCat})
	add("tag", nil, map[string]any{})

	// Another learner's saved test, sittings, collection, folder, note,
	// favourite, share links and report.
	savedTest := id(other.post("/saved-tests", map[string]any{"title": "Objects " + hiddenMark, "question_ids": []int64{open1, open2},
		"mode": "learning"}, 201))
	add("quiz", pubQuiz, map[string]any{"other": savedTest, "hidden": hiddenQuiz, "trashed": trashedQuiz})

	sit := func(c caller, quizID int64) int64 {
		return id(c.post(fmt.Sprintf("/attempts/start?quiz_id=%d&fresh=true", quizID), nil, 200))
	}
	answers := map[string]string{fmt.Sprint(open1): "Mitral", fmt.Sprint(open2): "Aortic"}
	done := sit(other, pubQuiz)
	other.post(fmt.Sprintf("/attempts/%d/submit", done), map[string]any{"answers": answers}, 200)
	running := sit(other, timedQuiz)
	other.post("/attempts/progress", map[string]any{"quiz_id": timedQuiz, "attempt_id": running,
		"answers": map[string]string{fmt.Sprint(open1): "Mitral"}}, 200)
	// The learner's own: a sitting that missed open1 (so it is on their
	// reminders), and one running with progress saved.
	missed := sit(me, pubQuiz)
	me.post(fmt.Sprintf("/attempts/%d/submit", missed), map[string]any{"answers": map[string]string{fmt.Sprint(open1): "Aortic"}}, 200)
	mine := sit(me, pubQuiz)
	me.post("/attempts/progress", map[string]any{"quiz_id": pubQuiz, "attempt_id": mine,
		"answers": map[string]string{fmt.Sprint(open1): "Aortic"}}, 200)
	add("attempt", mine, map[string]any{"other": done, "running": running})
	w.kinds["attempt"] = kind{filler: mine, variants: w.kinds["attempt"].variants, alts: map[string]any{"done": missed}}

	folder := func(c caller, name string) int64 { return id(c.post("/folders", map[string]any{"name": name}, 201)) }
	collection := func(c caller, name string, folderID int64) int64 {
		coll := id(c.post("/collections", map[string]any{"name": name, "description": name, "folder_id": folderID}, 201))
		c.do(http.MethodPut, fmt.Sprintf("/collections/%d/questions/%d", coll, open1), nil, 204)
		return coll
	}
	otherFolder, myFolder := folder(other, "Folder "+hiddenMark), folder(me, "My folder")
	add("folder", myFolder, map[string]any{"other": otherFolder})
	add("collection", collection(me, "My collection", myFolder),
		map[string]any{"other": collection(other, "Collection "+hiddenMark, otherFolder)})
	other.do(http.MethodPut, fmt.Sprintf("/notes/%d", open1), map[string]any{"body": "Note " + hiddenMark}, 200)
	other.post("/favorites", map[string]any{"question_id": open1}, 201)
	me.do(http.MethodPut, fmt.Sprintf("/notes/%d", open1), map[string]any{"body": "My note"}, 200)
	me.post("/favorites", map[string]any{"question_id": open1}, 201)

	// The library: a published article and its figure, a draft, a binned
	// one; decks shared, private and binned, each with a card.
	article := func(status string, cat int64, title string) map[string]any {
		return mod.post("/articles/", map[string]any{"title": title, "status": status, "category_id": cat,
			"summary": title, "sections": []map[string]any{{"id": "intro", "heading": "Intro", "markdown": title + " text."}}}, 201)
	}
	pub := article("published", openCat, "Objects published article")
	draft := article("draft", hiddenCat, "Article "+hiddenMark)
	binned := article("published", openCat, "Objects binned article")
	revision := func(a map[string]any) int64 {
		mod.do(http.MethodPatch, fmt.Sprintf("/articles/%d", id(a)), map[string]any{"summary": "Revised", "note": "revise"}, 200)
		return id(mod.do(http.MethodGet, fmt.Sprintf("/articles/%d/revisions", id(a)), nil, 200).List()[0].(map[string]any))
	}
	archived := article("published", openCat, "Archived article "+hiddenMark)
	mod.do(http.MethodPut, fmt.Sprintf("/articles/%d/status", id(archived)), map[string]any{"status": "archived"}, 200)
	pubRevision, draftRevision, archivedRevision := revision(pub), revision(draft), revision(archived)
	mod.do(http.MethodDelete, fmt.Sprintf("/articles/%d", id(binned)), nil, 200)
	add("article", id(pub), map[string]any{"draft": id(draft), "trashed": id(binned), "archived": id(archived)})
	add("slug", pub["slug"], map[string]any{"draft": draft["slug"], "trashed": binned["slug"], "archived": archived["slug"],
		"absent": "no-such-article"})
	add("revision", pubRevision, map[string]any{"draft": draftRevision, "archived": archivedRevision})

	hidden := fixtures.HiddenAssets(h, mod.u)
	assets := map[string]any{}
	for name, a := range hidden {
		assets[strings.ReplaceAll(name, " ", "-")] = a.ID
	}
	add("asset", fixtures.Figure(h, mod.u, id(pub), "intro").ID, assets)
	library := id(mod.post("/media/libraries", map[string]any{"name": "Objects library"}, 201))
	add("library", nil, map[string]any{"hidden": library})

	deck := func(title string, cat int64) (int64, int64) {
		d := id(mod.post("/flashcards/manual", map[string]any{"title": title, "category_id": cat}, 201))
		res := mod.post(fmt.Sprintf("/flashcards/decks/%d/cards", d), map[string]any{"card_type": "basic",
			"front": title + " front", "back": title + " back"}, 201)
		return d, id(res["cards"].([]any)[0].(map[string]any))
	}
	sharedDeck, sharedCard := deck("Objects shared deck", openCat)
	mod.do(http.MethodPut, fmt.Sprintf("/flashcards/%d/share", sharedDeck), nil, 200)
	privateDeck, privateCard := deck("Deck "+hiddenMark, hiddenCat)
	binnedDeck, binnedCard := deck("Binned deck "+hiddenMark, openCat)
	mod.do(http.MethodPut, fmt.Sprintf("/flashcards/%d/share", binnedDeck), nil, 200)
	mod.do(http.MethodDelete, fmt.Sprintf("/flashcards/%d", binnedDeck), nil, 204)
	add("deck", sharedDeck, map[string]any{"private": privateDeck, "binned": binnedDeck})
	add("card", sharedCard, map[string]any{"private": privateCard, "binned": binnedCard})

	// Plans and exams: published ones to fill, unpublished ones hidden.
	plan := func(title string, questionID, articleID int64, published bool) (int64, int64, int64) {
		p := id(mod.post("/study-plans", map[string]any{"title": title, "kind": "mixed"}, 201))
		res := mod.post(fmt.Sprintf("/study-plans/%d/blocks", p), map[string]any{"title": title + " block",
			"question_ids": []int64{questionID}, "reading": []map[string]any{{"article_id": articleID}}}, 201)
		blocks := res["blocks"].([]any)
		b := blocks[len(blocks)-1].(map[string]any)
		link := id(b["reading"].([]any)[0].(map[string]any))
		if published {
			mod.do(http.MethodPatch, fmt.Sprintf("/study-plans/%d/publish?published=true", p), nil, 200)
		}
		return p, id(b), link
	}
	pubPlan, pubBlock, pubLink := plan("Objects plan", open1, id(pub), true)
	hidPlan, hidBlock, hidLink := plan("Plan "+hiddenMark, hiddenQ, id(draft), false)
	// Retired after the other learner enrolled: still theirs, nobody else's.
	oldPlan, oldBlock, oldLink := plan("Retired plan "+hiddenMark, open2, id(pub), true)
	other.post(fmt.Sprintf("/study-plans/%d/enrol", oldPlan), nil, 200)
	other.post(fmt.Sprintf("/study-plans/blocks/%d/start?mode=learning", oldBlock), nil, 200)
	other.do(http.MethodPost, fmt.Sprintf("/study-plans/reading/%d/read?read=true", oldLink), nil, 204)
	mod.do(http.MethodPatch, fmt.Sprintf("/study-plans/%d/publish?published=false", oldPlan), nil, 200)
	add("plan", pubPlan, map[string]any{"hidden": hidPlan, "retired": oldPlan})
	add("block", pubBlock, map[string]any{"hidden": hidBlock, "retired": oldBlock})
	add("link", pubLink, map[string]any{"hidden": hidLink, "retired": oldLink})
	other.post(fmt.Sprintf("/study-plans/%d/enrol", pubPlan), nil, 200)

	exam := func(title string, published bool) int64 {
		e := id(mod.post("/exams", map[string]any{"title": title, "size": 2, "time_limit_minutes": 30, "seed": 1,
			"domains": []map[string]any{{"name": "Valves", "weight": 1, "question_ids": []int64{open1, open2}}}}, 201))
		if published {
			mod.do(http.MethodPatch, fmt.Sprintf("/exams/%d/publish?published=true", e), nil, 200)
		}
		return e
	}
	// Closed after the other learner sat it: their paper, sitting and
	// result stay theirs.
	closed := exam("Closed exam "+hiddenMark, true)
	paper := int64(other.post(fmt.Sprintf("/exams/%d/start", closed), nil, 200)["quiz_id"].(float64))
	sitting := sit(other, paper)
	other.post(fmt.Sprintf("/attempts/%d/submit", sitting), map[string]any{"answers": answers}, 200)
	mod.do(http.MethodPatch, fmt.Sprintf("/exams/%d/publish?published=false", closed), nil, 200)
	add("exam", exam("Objects exam", true), map[string]any{"hidden": exam("Exam "+hiddenMark, false), "closed": closed})
	w.kinds["quiz"].variants["paper"] = paper
	w.kinds["attempt"].variants["exam"] = sitting

	// Sharing and feedback by the other learner.
	share := func(kindName string, target int64) map[string]any {
		return other.post("/share/links", map[string]any{"kind": kindName, "target_id": target}, 201)
	}
	link := share("quiz", pubQuiz)
	revoked := share("article", id(pub))
	other.do(http.MethodDelete, fmt.Sprintf("/share/links/%d", id(revoked)), nil, 204)
	myLink := me.post("/share/links", map[string]any{"kind": "deck", "target_id": sharedDeck}, 201)
	add("share", id(myLink), map[string]any{"other": id(link)})
	add("token", link["token"], map[string]any{"revoked": revoked["token"], "absent": "no-such-token"})
	report := id(other.post("/feedback", map[string]any{"kind": "question", "target_id": open1, "type": "typo",
		"text": "Report " + hiddenMark}, 201))
	add("report", report, map[string]any{"other": report})

	// A session each on a device that keeps one.
	family := func(c caller) any {
		h.SignIn(idp, devidp.Claims{Email: c.u.Email}, true, "Objects phone")
		return c.do(http.MethodGet, "/auth/sessions", nil, 200).List()[0].(map[string]any)["family"]
	}
	add("family", family(me), map[string]any{"other": family(other), "absent": "no-such-family"})

	// Editorial objects behind the moderators' gate.
	add("user", other.u.ID, map[string]any{"other": other.u.ID})
	grant := id(mod.post(fmt.Sprintf("/access/%d/grants", other.u.ID), map[string]any{"kind": "category", "target_id": openCat}, 201))
	add("grant", grant, map[string]any{"other": grant})
	doc := uploadDocument(h, mod)
	add("document", doc, map[string]any{"other": doc})
	unowned("document")
	add("section", nil, map[string]any{})
	imported := mod.u.Client(h).With("Content-Type", "application/octet-stream").Post(
		fmt.Sprintf("/api/v1/drafts/import/gift?category_id=%d", openCat), "::Q1:: Which valve? {=Mitral ~Aortic}")
	if imported.Status != http.StatusCreated {
		panic(fmt.Sprintf("objects: import drafts: %d %s", imported.Status, imported.Body))
	}
	batch := int64(imported.Map()["batch_id"].(float64))
	drafts := mod.do(http.MethodGet, fmt.Sprintf("/drafts/batches/%d/drafts", batch), nil, 200).List()
	add("batch", batch, map[string]any{"other": batch})
	add("draft", id(drafts[0].(map[string]any)), map[string]any{"other": id(drafts[0].(map[string]any))})
	job := mod.post("/articles/ai-draft", map[string]any{"title": "Valves", "category_id": openCat}, 202)["job_id"]
	add("job", job, map[string]any{"other": job, "absent": "00000000-0000-0000-0000-000000000000"})
	unowned("job")
	term := id(mod.post("/glossary/", map[string]any{"term": "Objects term", "definition": "A term"}, 201))
	add("term", term, map[string]any{"other": term})
	lab := id(mod.post("/study-tools/lab-values", map[string]any{"name": "Sodium", "group": "Chemistry",
		"reference_range": "135-145", "units": "mmol/L", "age_group": "Adult", "specimen": "Serum",
		"source": "Objects", "is_published": false}, 201))
	add("labvalue", lab, map[string]any{"hidden": lab})
	// The tutor's model, and a speech model: not one a tutor may be asked
	// to use.
	admin.do(http.MethodPost, "/admin/models", map[string]any{"name": "Objects tutor", "model_id": "objects-teach", "task": "teach"}, 201)
	speech := admin.do(http.MethodPost, "/admin/models", map[string]any{"name": "Objects speech", "model_id": "objects-tts",
		"task": "tts", "voices": []string{"alloy"}}, 201).List()[0].(map[string]any)
	add("model", nil, map[string]any{"other-task": id(speech)})
	add("system", nil, map[string]any{})
	add("snapshot", absent, map[string]any{})
	add("submission", absent, map[string]any{})
	return w
}

// uploadDocument uploads a PDF as a moderator.
func uploadDocument(h *harness.Harness, mod caller) int64 {
	body, ct := harness.Form("file", "objects.pdf", pdffixtures.QuestionPaper(), nil)
	res := mod.u.Client(h).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
	if res.Status != http.StatusCreated && res.Status != http.StatusOK {
		panic(fmt.Sprintf("objects: upload a document: %d %s", res.Status, res.Body))
	}
	return id(res.Map())
}
