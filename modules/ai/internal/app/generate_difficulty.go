package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// JobClassifyDifficulty rates questions easy, medium or hard with the tool
// task's default model.
const JobClassifyDifficulty = "classify_question_difficulty"

// Bounds of one difficulty classification: questions per job, per model
// call, and the answer read.
const (
	rateMaxQuestions = 500
	rateBatch        = 20
	rateMaxReply     = 64 << 10
)

// ErrNoToolModel is how a classification fails without a tool model.
var ErrNoToolModel = errors.New("no tool model configured")

// Questions is the port to the bank's questions a classification reads and
// rates (implemented by bank.Module).
type Questions interface {
	RatedQuestions(ctx context.Context, ids []int64, categoryID *int64, limit int) ([]bank.RatedQuestion, error)
	SetDifficulty(ctx context.Context, levels map[int64]string) (int64, error)
}

// Rater runs difficulty classification jobs.
type Rater struct {
	s     *Service
	queue *jobs.Queue
	// Bank is filled once every module is built.
	Bank Questions
}

// NewRater makes the classifier over s's models and gateway.
func NewRater(s *Service, q *jobs.Queue) *Rater { return &Rater{s: s, queue: q} }

// RateRequest is what a classification is asked to rate: the questions
// named, or those filed in a category's branch; already rated ones only
// with Overwrite. It is the job's arguments, with who asked: the same
// request from the same person while one waits or runs gets that job.
type RateRequest struct {
	QuestionIDs []int64 `json:"question_ids,omitempty"`
	CategoryID  *int64  `json:"category_id,omitempty"`
	Overwrite   bool    `json:"overwrite,omitempty"`
	RequestedBy int64   `json:"requested_by,omitempty"`
}

func (RateRequest) Kind() string { return JobClassifyDifficulty }

// RateResult is a finished classification's result.
type RateResult struct {
	Questions int              `json:"questions"` // read
	Skipped   int              `json:"skipped"`   // already rated, left as they are
	Rated     int64            `json:"rated"`     // stored
	Levels    map[string]int   `json:"levels"`    // stored per level
	Unrated   []int64          `json:"unrated"`   // the model gave no usable level
	Stored    map[int64]string `json:"stored"`    // question id → level
}

// Start queues a classification (moderators; the route checks the role):
// with no tool model it is refused now (503), before anything is queued.
func (r *Rater) Start(ctx context.Context, p auth.Principal, in RateRequest) (string, error) {
	if (len(in.QuestionIDs) == 0) == (in.CategoryID == nil) {
		return "", apperr.Invalidf("question_ids", "name either question_ids or a category_id")
	}
	if len(in.QuestionIDs) > rateMaxQuestions {
		return "", apperr.Invalidf("question_ids", "at most %d questions per classification", rateMaxQuestions)
	}
	m, err := r.s.taskDefault(ctx, "tool")
	if err != nil {
		return "", err
	}
	if m == nil {
		return "", apperr.New(apperr.Unavailable, "%s (an admin adds one for the task tool)", ErrNoToolModel)
	}
	in.RequestedBy = p.UserID
	id, err := r.queue.Enqueue(ctx, &p.UserID, in)
	if errors.Is(err, jobs.ErrDuplicate) {
		return id.String(), nil
	}
	if errors.Is(err, jobs.ErrQueueFull) {
		return "", &apperr.Error{Code: apperr.Unavailable, RetryAfter: 30 * time.Second,
			Message: "the job queue cannot accept a classification now; nothing was started, try again shortly"}
	}
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// Job reads one of the caller's classifications (others' are not found).
func (r *Rater) Job(ctx context.Context, p auth.Principal, id string) (*jobs.Record, error) {
	missing := apperr.NotFoundf("classification job %s not found", id)
	uid, err := uuid.Parse(id)
	if err != nil {
		return nil, missing
	}
	rec, err := r.queue.Get(ctx, uid)
	if errors.Is(err, jobs.ErrNotFound) || err == nil && (rec.Kind != JobClassifyDifficulty || rec.OwnerID == nil ||
		*rec.OwnerID != p.UserID) {
		return nil, missing
	}
	return rec, err
}

const rateBrief = `You rate how hard medical exam questions are for a final-year medical student.
Answer with one JSON object and nothing else: {"ratings":[{"id":123,"difficulty":"easy"}]}
difficulty is "easy" (recall of a core fact), "medium" (applying a fact to a case) or "hard" (several steps,
rare knowledge or close distractors). Rate every question given, by its id.`

// Run is the job: it reads the questions, asks the model in batches of
// 20 (never inside a transaction) and stores each batch's levels through
// the bank in one write after its call. Stored levels stay if a later
// batch fails: running it again rates what is left.
func (r *Rater) Run(ctx context.Context, run *jobs.Run[RateRequest]) (any, error) {
	in := run.Args
	qs, err := r.Bank.RatedQuestions(ctx, in.QuestionIDs, in.CategoryID, rateMaxQuestions)
	if err != nil {
		return nil, err
	}
	res := &RateResult{Questions: len(qs), Levels: map[string]int{}, Unrated: []int64{}, Stored: map[int64]string{}}
	todo := qs[:0:0]
	for _, q := range qs {
		if q.Difficulty != nil && !in.Overwrite {
			res.Skipped++
			continue
		}
		todo = append(todo, q)
	}
	if err := run.Step(ctx, "questions", fmt.Sprintf("%d to rate, %d already rated", len(todo), res.Skipped)); err != nil {
		return nil, err
	}
	if len(todo) == 0 {
		return res, nil
	}
	m, err := r.s.taskDefault(ctx, "tool")
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, ErrNoToolModel
	}
	t, err := r.s.target(m)
	if err != nil {
		return nil, err
	}
	if err := run.Step(ctx, "model", "rating with "+m.ModelID); err != nil {
		return nil, err
	}
	for start := 0; start < len(todo); start += rateBatch {
		batch := todo[start:min(start+rateBatch, len(todo))]
		reply, err := r.s.gw.Chat(ctx, t, []gateway.Message{{Role: "system", Content: rateBrief},
			{Role: "user", Content: rateAsk(batch)}}, 2000)
		if err != nil {
			return nil, err
		}
		r.s.recordFor(ctx, 0, "tool", m.ModelID, reply.PromptTokens, reply.CompletionTokens)
		levels, err := parseRatings(reply.Text, batch)
		if err != nil {
			return nil, fmt.Errorf("model %s, questions %d to %d: %w; this batch was not stored", m.ModelID,
				batch[0].ID, batch[len(batch)-1].ID, err)
		}
		n, err := r.Bank.SetDifficulty(ctx, levels)
		if err != nil {
			return nil, err
		}
		res.Rated += n
		for _, q := range batch {
			if l, ok := levels[q.ID]; ok {
				res.Levels[l]++
				res.Stored[q.ID] = l
			} else {
				res.Unrated = append(res.Unrated, q.ID)
			}
		}
		if err := run.Step(ctx, "rated", fmt.Sprintf("%d of %d questions", start+len(batch), len(todo))); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// rateAsk lists a batch: each question's stem, options, answer and
// explanation, cut to keep the call bounded.
func rateAsk(batch []bank.RatedQuestion) string {
	var b strings.Builder
	for _, q := range batch {
		fmt.Fprintf(&b, "--- question %d ---\n%s\n", q.ID, cut(q.Text, 3000))
		for i, o := range q.Options {
			if i < 10 {
				fmt.Fprintf(&b, "%c. %s\n", 'A'+i, cut(o, 300))
			}
		}
		fmt.Fprintf(&b, "Answer: %s\nExplanation: %s\n", cut(q.CorrectAnswer, 300), cut(q.Explanation, 1500))
	}
	return b.String()
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// parseRatings reads the JSON asked for, bounded; ratings of questions not
// in the batch or with another level are ignored (those questions stay
// unrated). An answer that is not the JSON asked for is an error.
func parseRatings(text string, batch []bank.RatedQuestion) (map[int64]string, error) {
	var reply struct {
		Ratings []struct {
			ID         int64  `json:"id"`
			Difficulty string `json:"difficulty"`
		} `json:"ratings"`
	}
	if err := decodeReply(text, rateMaxReply, &reply); err != nil {
		return nil, err
	}
	asked := map[int64]bool{}
	for _, q := range batch {
		asked[q.ID] = true
	}
	out := map[int64]string{}
	for _, rt := range reply.Ratings {
		l := strings.ToLower(strings.TrimSpace(rt.Difficulty))
		if asked[rt.ID] && slices.Contains(bank.Difficulties, l) {
			out[rt.ID] = l
		}
	}
	return out, nil
}
