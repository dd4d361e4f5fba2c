// Package bank_test drives the question bank end to end: the real app on a
// real Postgres, every route called as a client would, from each role
// (learner, grant holder, moderator, admin). Grants are given through
// identity's real routes.
package bank_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/jobs"
)

func TestBank(t *testing.T) { RunSuite(t, "Bank") }

var (
	h     *Harness
	mod   *User
	admin *User
	feed  = &eventFeed{}
)

// eventFeed records every bank.question_changed.v1 event a test consumer
// receives.
type eventFeed struct {
	mu     sync.Mutex
	events []bank.QuestionChanged
}

func (f *eventFeed) add(e bank.QuestionChanged) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, e)
}

// of returns the changes received for one question, in order.
func (f *eventFeed) of(id int64) []bank.QuestionChanged {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []bank.QuestionChanged
	for _, e := range f.events {
		if e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

var _ = Suite(&h, func() {
	mod = h.NewUser(auth.RoleModerator)
	admin = h.NewUser(auth.RoleAdmin)
}, BeforeStart(func(a *app.App) {
	events.Subscribe(a.Bus, "bank_e2e.feed", bank.TopicQuestionChanged,
		func(_ context.Context, e bank.QuestionChanged, _ events.Meta) error {
			feed.add(e)
			return nil
		})
	jobs.Register(a.Runner, jobs.Kind[otherJob]{Timeout: time.Minute,
		Handle: func(context.Context, *jobs.Run[otherJob]) (any, error) { return nil, nil }})
}))

// otherJob is a job of a kind that is not a classification.
type otherJob struct{}

func (otherJob) Kind() string { return "bank_e2e.other" }

const api = "/api/v1"

var ctxBG = context.Background()

var seq atomic.Int64

// unique returns a word no other test uses (so listings can be narrowed).
func unique(prefix string) string { return fmt.Sprintf("%s%d", prefix, seq.Add(1)) }

// q is a question body for POST /questions/create.
type q = map[string]any

// mcq makes a valid multiple-choice body.
func mcq(text string, extra ...q) q {
	b := q{"question_text": text, "question_type": "mcq",
		"options": []string{"Alpha", "Bravo", "Charlie", "Delta"}, "correct_answer": "Bravo",
		"explanation": "Bravo is right because of the rule.", "option_explanations": []string{"a", "b", "c", "d"},
		"key_points": []string{"first point"}, "attending_tip": "Think of Bravo.",
		"explanation_image_path": "figures/explain.png", "image_path": "figures/stem.png",
		"figures": []q{{"path": "figures/stem-fig.png", "role": "stem", "caption": "the stem"},
			{"path": "figures/answer-fig.png", "role": "answer"},
			{"path": "figures/why-fig.png", "role": "explanation"}}}
	for _, e := range extra {
		for k, v := range e {
			b[k] = v
		}
	}
	return b
}

// create files a question as a moderator and returns its id.
func create(body q) int64 {
	res := mod.Client(h).Post(api+"/questions/create", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// category makes a question category as a moderator and returns its id.
func category(name string, parent *int64, system *int64) int64 {
	body := q{"name": name}
	if parent != nil {
		body["parent_id"] = *parent
	}
	if system != nil {
		body["system_id"] = *system
	}
	res := mod.Client(h).Post(api+"/question-categories/", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// quiz makes a quiz from bank questions as a moderator and returns its id.
func quiz(title string, ids []int64, extra ...q) int64 {
	body := q{"title": title, "question_ids": ids}
	for _, e := range extra {
		for k, v := range e {
			body[k] = v
		}
	}
	res := mod.Client(h).Post(api+"/questions/from-bank", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// createOpen files a question every learner reaches (the bank's reach
// policy: one of a published quiz) and returns its id.
func createOpen(body q) int64 {
	id := create(body)
	publish(quiz(unique("Open to learners "), []int64{id}))
	return id
}

// publish shows a quiz to learners.
func publish(id int64) {
	ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("%s/quizzes/%d/publish?published=true", api, id), nil)).
		To(HaveStatus(200))
}

// grantHolder makes a learner holding one grant, given through identity's
// grant route by a moderator.
func grantHolder(kind string, target int64) *User {
	u := h.NewUser(auth.RoleUser)
	res := mod.Client(h).Post(fmt.Sprintf("%s/access/%d/grants", api, u.ID), q{"kind": kind, "target_id": target})
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return u
}

// tag attaches a tag to a question the way offline classification does
// (no route assigns tags) and returns the tag id.
func tag(questionID int64, typ, name string) int64 {
	var id int64
	conn := h.App.DB.Conn(context.Background())
	ExpectWithOffset(1, conn.Raw(`INSERT INTO bank.tags (type, name) VALUES (?, ?)
		ON CONFLICT (type, bank.fold(name)) DO UPDATE SET name = EXCLUDED.name RETURNING id`, typ, name).
		Scan(&id).Error).To(Succeed())
	ExpectWithOffset(1, conn.Exec(`INSERT INTO bank.question_tags (question_id, tag_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, questionID, id).Error).To(Succeed())
	return id
}

// systemTag is the id of one of the organ-system tags the migration made.
func systemTag(name string) int64 {
	var id int64
	ExpectWithOffset(1, h.App.DB.Conn(context.Background()).Raw(
		`SELECT id FROM bank.tags WHERE type = 'system' AND name = ?`, name).Scan(&id).Error).To(Succeed())
	ExpectWithOffset(1, id).NotTo(BeZero())
	return id
}

// ids extracts the ids of a listing's questions.
func ids(res *Response) []int64 {
	var body struct {
		Questions []struct {
			ID int64 `json:"id"`
		} `json:"questions"`
	}
	res.JSON(&body)
	out := make([]int64, 0, len(body.Questions))
	for _, x := range body.Questions {
		out = append(out, x.ID)
	}
	return out
}

func path(format string, args ...any) string { return api + fmt.Sprintf(format, args...) }

func ptr[T any](v T) *T { return &v }
