package app

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/ratelimit"
)

// SettingAIModeQuota is AI Mode's daily quota per person (0: none).
const SettingAIModeQuota = "ai_mode_daily_quota"

// AI Mode's shortlist: this many hits of each kind, each with this much of
// its public text, are what the model may answer from.
const (
	askPerKind      = 5
	askExcerptRunes = 1200
)

// askKinds are what AI Mode searches: the library's articles and the bank's
// questions (public side only: a question's answer is never in its excerpt).
var askKinds = []search.Kind{search.KindArticle, search.KindQuestion}

// Source is one item of the shortlist AI Mode answered from, numbered as
// the answer cites it ([1], [2], ...).
type Source struct {
	N         int
	Kind      string
	ID        int64  // the question's or the article's id
	SectionID *int64 // articles: the section found
	Title     string
	Snippet   string
	Cited     bool // the answer cites it
}

// Answer is AI Mode's reply: markdown citing the sources by number.
type Answer struct {
	Answer   string
	Sources  []Source
	Semantic bool // the shortlist used the vector ranker (false: keywords only)
}

// Ask answers a learner's question from the library and the bank: the
// person's own search (their reach, reranked where the spec reranks) makes
// the shortlist, the tutor model answers from it alone and cites it. With
// nothing found no model is called. Refused politely (503) when no tutor
// model is configured, before any search or quota is spent.
func (s *Service) Ask(ctx context.Context, p auth.Principal, question string, modelID *int64) (*Answer, error) {
	question = strings.TrimSpace(question)
	if question == "" {
		return nil, apperr.Invalidf("question", "ask a question")
	}
	m, err := s.teachModel(ctx, modelID)
	if apperr.Is(err, apperr.Unavailable) {
		return nil, apperr.New(apperr.Unavailable, "AI Mode is not available: no tutor model is configured (an admin adds one for the task teach)")
	}
	if err != nil {
		return nil, err
	}
	rate := ratelimit.Limit{Name: "ai.mode", Max: s.cfg.AIModePer10Minutes, Window: 10 * time.Minute}
	if err := s.limit(ctx, p, "ai_mode", rate, SettingAIModeQuota); err != nil {
		return nil, err
	}
	found, err := s.ports.Search.Find(ctx, p, askKinds, question, askPerKind, askExcerptRunes)
	if err != nil {
		return nil, err
	}
	var shortlist []Source
	for _, k := range found.Kinds {
		for _, h := range k.Hits {
			shortlist = append(shortlist, Source{Kind: k.Kind, ID: h.ID, Title: h.Title, Snippet: h.Snippet})
		}
	}
	out := &Answer{Semantic: found.Semantic}
	if out.Sources, err = s.linkSections(ctx, shortlist); err != nil {
		return nil, err
	}
	if len(out.Sources) == 0 {
		out.Sources = []Source{}
		out.Answer = "Nothing in the library or the question bank matches this question yet, so there is nothing to answer from. Try other words."
		return out, nil
	}
	t, err := s.target(m)
	if err != nil {
		return nil, err
	}
	reply, err := s.gw.Chat(ctx, t, []gateway.Message{
		{Role: "system", Content: askBrief(out.Sources)},
		{Role: "user", Content: question},
	}, 1200)
	if err != nil {
		return nil, s.forCaller(ctx, p, "ai_mode", err)
	}
	s.record(ctx, p, "ai_mode", m.ModelID, reply.PromptTokens, reply.CompletionTokens)
	out.Answer = strings.TrimSpace(reply.Text)
	for _, n := range citations(out.Answer, len(out.Sources)) {
		out.Sources[n-1].Cited = true
	}
	return out, nil
}

// linkSections turns article hits (sections) into their articles and
// numbers the shortlist; a section gone since it was indexed leaves it.
func (s *Service) linkSections(ctx context.Context, sources []Source) ([]Source, error) {
	var ids []int64
	for _, src := range sources {
		if src.Kind == string(search.KindArticle) {
			ids = append(ids, src.ID)
		}
	}
	articles := map[int64]int64{}
	if len(ids) > 0 {
		var err error
		if articles, err = s.ports.Library.ArticlesOfSections(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := sources[:0]
	for _, src := range sources {
		if src.Kind == string(search.KindArticle) {
			article, ok := articles[src.ID]
			if !ok {
				continue
			}
			section := src.ID
			src.SectionID, src.ID = &section, article
		}
		src.N = len(out) + 1
		out = append(out, src)
	}
	return out, nil
}

// askBrief is the system message: answer from the numbered sources only,
// citing them.
func askBrief(sources []Source) string {
	var b strings.Builder
	b.WriteString("You answer a medical learner's question using only the numbered sources below, from the " +
		"service's own library (articles) and question bank (questions, without their answers). Answer in " +
		"markdown, briefly and accurately. Cite every statement with the source numbers in square brackets, " +
		"like [1] or [2][3]. If the sources do not answer the question, say so plainly instead of guessing.\n\nSources:\n")
	for _, src := range sources {
		fmt.Fprintf(&b, "[%d] (%s) %s\n%s\n\n", src.N, src.Kind, src.Title, src.Snippet)
	}
	return b.String()
}

var citation = regexp.MustCompile(`\[(\d{1,3})\]`)

// citations lists the source numbers from 1 to n that text cites, each
// once, in order of first citation; numbers out of range are ignored.
func citations(text string, n int) []int {
	var out []int
	seen := map[int]bool{}
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		k, _ := strconv.Atoi(m[1])
		if k >= 1 && k <= n && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
