package harness

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/onsi/gomega/types"

	"github.com/roundsedu/rounds/platform/auth"
)

// AnswerKey is a bank question whose every answer-side field holds text
// made for it and found nowhere else, so a test can tell whether any of its
// key reached a response.
type AnswerKey struct {
	ID int64
	// Answer is the correct answer: one of the options, so it shows
	// wherever the stem side does; look for it only where nothing of the
	// question may show (and check correct_answer itself elsewhere).
	Answer string
	// Secrets are the explanation, option explanations, key points and
	// tip: text that shows only where the answer side does.
	Secrets []string
}

// HandPicked are the question ids a learner picking ids by hand tries
// (docs/decisions/bank.md, "Who reaches a question"): one they reach, and
// one of each kind they do not, every one with its own answer key. The
// bank's reach policy must answer the unreached ones exactly as Missing.
type HandPicked struct {
	Open        AnswerKey // in a published quiz: every learner reaches it
	Unpublished AnswerKey // only in a quiz never published
	Ungranted   AnswerKey // filed in a category someone else holds a grant on; in no published quiz
	Binned      AnswerKey // was in a published quiz, now in the trash
	Withdrawn   AnswerKey // another learner favourited it while its quiz was published; the quiz was withdrawn since
	Missing     int64     // no question has this id
	Holder      *User     // the learner holding the grant on Ungranted's branch
}

var keySeq atomic.Int64

// HandPick files the questions of a HandPicked as the moderator mod (a
// category, two quizzes, a grant and a favourite for two learners it signs
// in, all through the API).
func (h *Harness) HandPick(mod *User) HandPicked {
	c := mod.Client(h)
	hp := HandPicked{Missing: 987654321}
	hp.Open, hp.Unpublished, hp.Binned, hp.Withdrawn = h.NewAnswerKey(mod, nil), h.NewAnswerKey(mod, nil),
		h.NewAnswerKey(mod, nil), h.NewAnswerKey(mod, nil)

	res := c.Post("/api/v1/question-categories/", map[string]any{"name": fmt.Sprintf("Hand-picked branch %d", keySeq.Add(1))})
	must(res, http.StatusCreated, "file a category")
	branch := idIn(res)
	hp.Ungranted = h.NewAnswerKey(mod, map[string]any{"question_category_id": branch})
	hp.Holder = h.NewUser(auth.RoleUser)
	must(c.Post(fmt.Sprintf("/api/v1/access/%d/grants", hp.Holder.ID), map[string]any{"kind": "category", "target_id": branch}),
		http.StatusCreated, "grant the branch to another learner")

	quiz := func(ids ...int64) int64 {
		res := c.Post("/api/v1/questions/from-bank", map[string]any{"title": "Hand-picked", "question_ids": ids})
		must(res, http.StatusCreated, "make a quiz")
		return idIn(res)
	}
	publish := func(id int64, on bool) {
		must(c.Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=%t", id, on), nil), http.StatusOK, "publish a quiz")
	}
	publish(quiz(hp.Open.ID, hp.Binned.ID), true)
	quiz(hp.Unpublished.ID)
	withdrawn := quiz(hp.Withdrawn.ID)
	publish(withdrawn, true)
	must(h.NewUser(auth.RoleUser).Client(h).Post("/api/v1/favorites", map[string]any{"question_id": hp.Withdrawn.ID}),
		http.StatusCreated, "favourite a question while it is published")
	publish(withdrawn, false)
	must(c.Delete(fmt.Sprintf("/api/v1/questions/%d", hp.Binned.ID)), http.StatusNoContent, "bin a question")
	return hp
}

// Unreached names every id of hp the learner may not reach.
func (hp HandPicked) Unreached() map[string]int64 {
	return map[string]int64{"unpublished": hp.Unpublished.ID, "ungranted": hp.Ungranted.ID, "binned": hp.Binned.ID,
		"withdrawn (another learner's favourite)": hp.Withdrawn.ID, "missing": hp.Missing}
}

// Secrets is every answer-side text of hp's unreached questions, correct
// answers included: nothing of those may show to the learner.
func (hp HandPicked) Secrets() []string {
	var out []string
	for _, k := range []AnswerKey{hp.Unpublished, hp.Ungranted, hp.Binned, hp.Withdrawn} {
		out = append(append(out, k.Answer), k.Secrets...)
	}
	return out
}

// NewAnswerKey files an MCQ as the moderator by, with a fresh answer key
// and the extra fields of the create body (a category, say).
func (h *Harness) NewAnswerKey(by *User, extra map[string]any) AnswerKey {
	n := keySeq.Add(1)
	secret := func(what string) string { return fmt.Sprintf("Secret%s%dx%s", what, n, strconv.FormatInt(n*7919, 36)) }
	k := AnswerKey{Answer: secret("Answer"), Secrets: []string{secret("Explanation"), secret("OptionWhy"), secret("KeyPoint"), secret("Tip")}}
	body := map[string]any{"question_text": fmt.Sprintf("Hand-picked question %d: which one?", n), "question_type": "mcq",
		"options": []string{"Plain option one", k.Answer, "Plain option three"}, "correct_answer": k.Answer,
		"explanation": k.Secrets[0], "option_explanations": []string{"plain", k.Secrets[1], "plain"},
		"key_points": []string{k.Secrets[2]}, "attending_tip": k.Secrets[3]}
	for f, v := range extra {
		body[f] = v
	}
	res := by.Client(h).Post("/api/v1/questions/create", body)
	must(res, http.StatusCreated, "file a question")
	k.ID = idIn(res)
	return k
}

func must(res *Response, status int, step string) {
	if res.Status != status {
		panic(fmt.Sprintf("harness: %s: %s %s answered %d\nbody: %s", step, res.Method, res.Path, res.Status, res.Body))
	}
}

func idIn(res *Response) int64 {
	var body struct {
		ID int64 `json:"id"`
	}
	res.JSON(&body)
	return body.ID
}

// ShowNoneOf matches a Response whose body holds none of the texts (an
// answer key's secrets).
func ShowNoneOf(secrets []string) types.GomegaMatcher { return &showNoneMatcher{secrets: secrets} }

type showNoneMatcher struct {
	secrets []string
	found   string
}

func (m *showNoneMatcher) Match(actual any) (bool, error) {
	r, ok := actual.(*Response)
	if !ok {
		return false, fmt.Errorf("ShowNoneOf expects *harness.Response, got %T", actual)
	}
	for _, s := range m.secrets {
		if bytes.Contains(r.Body, []byte(s)) {
			m.found = s
			return false, nil
		}
	}
	return true, nil
}

func (m *showNoneMatcher) FailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s shows %q, part of an answer key the caller may not read\nbody: %s", r.Method, r.Path, m.found, r.Body)
}

func (m *showNoneMatcher) NegatedFailureMessage(any) string {
	return "wanted an answer key's text in the body"
}

// AnswerAlike matches a Response with the same status and, byte for byte,
// the same body as want (an unreached id answered exactly as a missing one).
func AnswerAlike(want *Response) types.GomegaMatcher { return &alikeMatcher{want: want} }

type alikeMatcher struct{ want *Response }

func (m *alikeMatcher) Match(actual any) (bool, error) {
	r, ok := actual.(*Response)
	if !ok {
		return false, fmt.Errorf("AnswerAlike expects *harness.Response, got %T", actual)
	}
	return r.Status == m.want.Status && bytes.Equal(r.Body, m.want.Body), nil
}

func (m *alikeMatcher) FailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s: want what %s %s answered, %d %s\ngot %d %s", r.Method, r.Path, m.want.Method, m.want.Path,
		m.want.Status, strings.TrimSpace(string(m.want.Body)), r.Status, strings.TrimSpace(string(r.Body)))
}

func (m *alikeMatcher) NegatedFailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s: did not want the same answer as %s %s", r.Method, r.Path, m.want.Method, m.want.Path)
}
