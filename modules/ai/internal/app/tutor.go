package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// TeachModels lists the active tutor models.
func (s *Service) TeachModels(ctx context.Context) ([]Model, error) {
	return s.Available(ctx, "teach")
}

// ChatInput is a learner's conversation about a question.
type ChatInput struct {
	QuestionID int64
	AttemptID  *int64 // the caller's attempt that may show the answer side
	ModelID    *int64 // a teach model's row id; nil: the task's default
	Messages   []gateway.Message
}

// ChatReply is the tutor's answer: markdown, and up to three follow-up
// questions the learner may ask next.
type ChatReply struct {
	Reply       string
	Suggestions []string
}

// similarShown is how many other questions the tutor sees beside the one
// asked about.
const similarShown = 4

// Chat answers a learner about a question they reach (the bank's reach
// policy; otherwise the 404 of a missing question). The tutor sees the
// question and, only when the caller may see them (an editor, or inside the
// caller's own attempt that shows answers: study mode, or a submitted timed
// one), its answer and explanation; never during a timed attempt. It also
// sees the stems of up to four similar questions the caller reaches.
func (s *Service) Chat(ctx context.Context, p auth.Principal, in ChatInput) (*ChatReply, error) {
	m, t, msgs, err := s.prepareChat(ctx, p, in)
	if err != nil {
		return nil, err
	}
	reply, err := s.gw.Chat(ctx, t, msgs, tutorMaxTokens)
	if err != nil {
		return nil, s.forCaller(ctx, p, "teach", err)
	}
	s.record(ctx, p, "teach", m.ModelID, reply.PromptTokens, reply.CompletionTokens)
	return parseReply(reply.Text), nil
}

// TutorStream is a tutor answer arriving in pieces (Next, Err, Close);
// Finish, once Next has said false, records the usage and gives the whole
// reply parsed as Chat gives it.
type TutorStream struct {
	*gateway.Stream
	finish func(ctx context.Context) *ChatReply
	err    func() error
}

// Err is why the stream stopped early, told as Chat tells it, or nil.
func (ts *TutorStream) Err() error { return ts.err() }

// Finish records the call and parses the reply.
func (ts *TutorStream) Finish(ctx context.Context) *ChatReply { return ts.finish(ctx) }

// ChatStream is Chat streamed as the model writes: the same checks and
// limits, all made before the first piece is asked for.
func (s *Service) ChatStream(ctx context.Context, p auth.Principal, in ChatInput) (*TutorStream, error) {
	m, t, msgs, err := s.prepareChat(ctx, p, in)
	if err != nil {
		return nil, err
	}
	st, err := s.gw.ChatStream(ctx, t, msgs, tutorMaxTokens)
	if err != nil {
		return nil, s.forCaller(ctx, p, "teach", err)
	}
	return &TutorStream{Stream: st, finish: func(ctx context.Context) *ChatReply {
		reply := st.Reply()
		s.record(ctx, p, "teach", m.ModelID, reply.PromptTokens, reply.CompletionTokens)
		return parseReply(reply.Text)
	}, err: func() error { return s.forCaller(ctx, p, "teach", st.Err()) }}, nil
}

// tutorMaxTokens bounds one tutor answer.
const tutorMaxTokens = 1200

// prepareChat applies the tutor's rules (model, limits, what the caller
// may see) and gives the call to make.
func (s *Service) prepareChat(ctx context.Context, p auth.Principal, in ChatInput) (*store.Model, gateway.Target, []gateway.Message, error) {
	m, err := s.teachModel(ctx, in.ModelID)
	if err != nil {
		return nil, gateway.Target{}, nil, err
	}
	rate := ratelimit.Limit{Name: "ai.tutor", Max: s.cfg.TutorPer10Minutes, Window: 10 * time.Minute}
	if err := s.limit(ctx, p, "teach", rate, SettingTutorQuota); err != nil {
		return nil, gateway.Target{}, nil, err
	}
	q, err := s.ports.Bank.TutorQuestion(ctx, p, in.QuestionID, in.AttemptID)
	if err != nil {
		return nil, gateway.Target{}, nil, err
	}
	t, err := s.target(m)
	if err != nil {
		return nil, gateway.Target{}, nil, err
	}
	l, err := s.learner(ctx, p, q)
	if err != nil {
		return nil, gateway.Target{}, nil, err
	}
	msgs := append([]gateway.Message{{Role: "system", Content: s.brief(ctx, p, q, l)}}, in.Messages...)
	return m, t, msgs, nil
}

func (s *Service) teachModel(ctx context.Context, id *int64) (*store.Model, error) {
	if id != nil {
		m, err := s.store.Get(ctx, *id)
		if db.IsNotFound(err) || err == nil && (m.Task != "teach" || !m.IsActive) {
			return nil, apperr.Invalidf("model_id", "model %d is not an active tutor model (GET /teach/models)", *id)
		}
		return m, err
	}
	rows, err := s.store.Models(ctx, "teach", true)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if rows[i].IsDefault {
			return &rows[i], nil
		}
	}
	if len(rows) > 0 {
		return &rows[0], nil
	}
	return nil, apperr.New(apperr.Unavailable, "no tutor model is configured (an admin adds one for the task teach)")
}

// brief is the system message: the question, what the caller may see of
// its answer (never while they sit it in a timed attempt), the stems of
// similar questions the caller reaches, and the learner's own record and
// the library's reading on it.
func (s *Service) brief(ctx context.Context, p auth.Principal, q *bank.TutorQuestion, l *learnerBrief) string {
	var b strings.Builder
	b.WriteString("You are a patient medical tutor. Answer in markdown, briefly and accurately. " +
		"End with exactly three follow-up questions the learner could ask, each on its own line starting with '>'.\n\n")
	fmt.Fprintf(&b, "The learner is looking at this question:\n%s\n", q.Text)
	for i, o := range q.Options {
		fmt.Fprintf(&b, "%c. %s\n", 'A'+i, o)
	}
	if q.AnswersShown && !l.sitting {
		fmt.Fprintf(&b, "\nCorrect answer: %s\n", q.CorrectAnswer)
		if q.Explanation != "" {
			fmt.Fprintf(&b, "Explanation: %s\n", q.Explanation)
		}
	} else {
		b.WriteString("\nThe learner has not seen the answer yet. Do not reveal or hint at which option is correct; " +
			"help them reason about the topic instead.\n")
	}
	if similar := s.similar(ctx, p, q); len(similar) > 0 {
		b.WriteString("\nRelated questions in the bank (for context):\n")
		for _, stem := range similar {
			fmt.Fprintf(&b, "- %s\n", stem)
		}
	}
	l.write(&b)
	return b.String()
}

// similar gives the stems of up to four questions like q that p reaches
// (the bank leaves the others out). A search failure leaves them out: the
// tutor still answers.
func (s *Service) similar(ctx context.Context, p auth.Principal, q *bank.TutorQuestion) []string {
	hits, err := s.ports.Search.Semantic(ctx, search.KindQuestion, q.Text, 0.3, similarShown+1)
	if err != nil {
		s.log.WarnContext(ctx, "ai: similar questions unavailable", "error", err)
		return nil
	}
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		if h.ID != q.ID {
			ids = append(ids, h.ID)
		}
	}
	stems, err := s.ports.Bank.QuestionStems(ctx, p, ids)
	if err != nil {
		s.log.WarnContext(ctx, "ai: similar questions unavailable", "error", err)
		return nil
	}
	var out []string
	for _, id := range ids {
		if stem, ok := stems[id]; ok && len(out) < similarShown {
			out = append(out, stem)
		}
	}
	return out
}

// parseReply splits the model's text into the answer and the follow-ups
// (lines starting with '>'; at most three kept).
func parseReply(text string) *ChatReply {
	out := &ChatReply{Suggestions: []string{}}
	var body []string
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, ">") {
			if sug := strings.TrimSpace(strings.TrimLeft(t, "> ")); sug != "" && len(out.Suggestions) < 3 {
				out.Suggestions = append(out.Suggestions, sug)
			}
			continue
		}
		body = append(body, line)
	}
	out.Reply = strings.TrimSpace(strings.Join(body, "\n"))
	return out
}
