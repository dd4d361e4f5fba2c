package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/modules/library/generation"
)

// Bounds on what a generation sends and what is kept of the answer: a
// model's answer longer than genMaxReply, or with more than
// genMaxSections sections or genMaxCards cards, is refused whole rather
// than cut, so nothing half-read is stored.
const (
	genMaxTokens       = 8000
	genMaxReply        = 256 << 10
	genMaxSections     = 40
	genMaxSectionRunes = 30000
	genMaxTitleRunes   = 300
	genMaxCards        = 100
	genSourceRunes     = 24000 // all grounding together
)

// taskDefault is the task's active default model, or nil.
func (s *Service) taskDefault(ctx context.Context, task string) (*store.Model, error) {
	rows, err := s.store.Models(ctx, task, true)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		if rows[i].IsDefault {
			return &rows[i], nil
		}
	}
	return nil, nil
}

// generate asks task's default model once (none: missing), the model
// recorded as a progress step first, records the usage against the service (user 0) and
// gives the answer's text.
func (s *Service) generate(ctx context.Context, task string, missing error, progress generation.Progress,
	system, user string) (string, error) {
	m, err := s.taskDefault(ctx, task)
	if err != nil {
		return "", err
	}
	detail := "no active default model for the task " + task
	if m != nil {
		detail = "writing with " + m.ModelID
	}
	if err := progress(ctx, "model", detail); err != nil {
		return "", err
	}
	if m == nil {
		return "", missing
	}
	t, err := s.target(m)
	if err != nil {
		return "", err
	}
	reply, err := s.gw.Chat(ctx, t, []gateway.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		genMaxTokens)
	if err != nil {
		return "", err
	}
	s.recordFor(ctx, 0, task, m.ModelID, reply.PromptTokens, reply.CompletionTokens)
	if len(reply.Text) > genMaxReply {
		return "", fmt.Errorf("model %s: the answer is %d bytes, more than %d; nothing was stored", m.ModelID, len(reply.Text), genMaxReply)
	}
	return reply.Text, nil
}

const articleBrief = `You write articles for a medical question bank's library, in markdown, accurate and concise.
Answer with the article only, in this shape and nothing else:
# Title
One paragraph of summary.
## First section heading
The section's markdown.
## Next section heading
...
Use "##" only for section headings; inside a section use "###" or lists. Ground every statement on the sources
given; where they do not cover something, keep to well-established facts.`

// DraftArticle implements generation.Writer: the article task's default
// model writes an article, read as sections.
func (s *Service) DraftArticle(ctx context.Context, in generation.DraftRequest) (*generation.Article, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Write the article %q.\n", in.Title)
	writeAsk(&b, in.Instructions, in.Sources)
	text, err := s.generate(ctx, "article", generation.ErrNoArticleModel, in.Progress, articleBrief, b.String())
	if err != nil {
		return nil, err
	}
	a, err := parseArticle(text)
	if err != nil {
		return nil, fmt.Errorf("the model's article cannot be used: %w; nothing was stored", err)
	}
	if a.Title == "" {
		a.Title = in.Title
	}
	return a, nil
}

// RefineArticle implements generation.Writer: the article task's default
// model rewrites one section (its heading kept) or the whole article.
func (s *Service) RefineArticle(ctx context.Context, in generation.RefineRequest) ([]generation.Section, error) {
	var b strings.Builder
	if in.Section != "" {
		fmt.Fprintf(&b, "Rewrite the section %q of the article below. Answer with that section only: its \"## %s\" "+
			"heading line, then its new markdown.\n", in.Section, in.Section)
	} else {
		b.WriteString("Rewrite the article below. Answer with the whole article in the shape asked for.\n")
	}
	writeAsk(&b, in.Instructions, in.Sources)
	b.WriteString("\nThe article as it is:\n")
	writeArticle(&b, in.Article)
	text, err := s.generate(ctx, "article", generation.ErrNoArticleModel, in.Progress, articleBrief, b.String())
	if err != nil {
		return nil, err
	}
	if in.Section == "" {
		a, err := parseArticle(text)
		if err != nil {
			return nil, fmt.Errorf("the model's article cannot be used: %w; nothing was stored", err)
		}
		return a.Sections, nil
	}
	sec, err := parseSection(text, in.Section)
	if err != nil {
		return nil, fmt.Errorf("the model's section cannot be used: %w; nothing was stored", err)
	}
	return []generation.Section{sec}, nil
}

const cardsBrief = `You write flashcards for medical learners from an article. Answer with one JSON object and nothing else:
{"cards":[{"type":"basic","front":"question","back":"answer"},{"type":"cloze","front":"text with {{c1::a deletion}}","back":""}]}
type is "basic" (a question and its short answer) or "cloze" (a sentence with deletions written {{c1::...}}).
One fact per card, at most 30 cards, only facts the article states.`

// MakeCards implements generation.Writer: the flashcard task's default
// model writes cards from the article.
func (s *Service) MakeCards(ctx context.Context, in generation.CardsRequest) ([]generation.Card, error) {
	var b strings.Builder
	writeAsk(&b, in.Instructions, in.Sources)
	b.WriteString("\nThe article:\n")
	writeArticle(&b, in.Article)
	text, err := s.generate(ctx, "flashcard", generation.ErrNoFlashcardModel, in.Progress, cardsBrief, b.String())
	if err != nil {
		return nil, err
	}
	cards, err := parseCards(text)
	if err != nil {
		return nil, fmt.Errorf("the model's cards cannot be used: %w; nothing was stored", err)
	}
	return cards, nil
}

// writeAsk adds the requester's instructions and the grounding, the
// grounding cut at genSourceRunes in all.
func writeAsk(b *strings.Builder, instructions string, sources []generation.Source) {
	if instructions = strings.TrimSpace(instructions); instructions != "" {
		fmt.Fprintf(b, "The editor asks: %s\n", instructions)
	}
	if len(sources) == 0 {
		return
	}
	b.WriteString("\nSources:\n")
	left := genSourceRunes
	for _, src := range sources {
		text := []rune(src.Text)
		if len(text) > left {
			text = text[:left]
		}
		left -= len(text)
		fmt.Fprintf(b, "--- %s: %s ---\n%s\n", src.Kind, src.Title, string(text))
		if left == 0 {
			return
		}
	}
}

func writeArticle(b *strings.Builder, a generation.Article) {
	fmt.Fprintf(b, "# %s\n%s\n", a.Title, a.Summary)
	for _, sec := range a.Sections {
		fmt.Fprintf(b, "## %s\n%s\n", sec.Heading, sec.Markdown)
	}
}

var errNoSections = errors.New(`it has no sections ("## " headings)`)

// parseArticle reads "# Title", a summary and "## " sections, outside code
// fences. An answer without sections, or with more than genMaxSections, or
// with a section too long, is an error naming why.
func parseArticle(text string) (*generation.Article, error) {
	a := &generation.Article{}
	var summary []string
	var cur *generation.Section
	var body []string
	flush := func() {
		if cur != nil {
			cur.Markdown = strings.TrimSpace(strings.Join(body, "\n"))
			if cur.Markdown != "" {
				a.Sections = append(a.Sections, *cur)
			}
		}
		body = nil
	}
	fenced := false
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
		}
		switch {
		case !fenced && strings.HasPrefix(t, "## "):
			flush()
			if len(a.Sections) >= genMaxSections {
				return nil, fmt.Errorf("it has more than %d sections", genMaxSections)
			}
			cur = &generation.Section{Heading: strings.TrimSpace(strings.TrimLeft(t, "# "))}
		case !fenced && cur == nil && strings.HasPrefix(t, "# ") && a.Title == "":
			a.Title = strings.TrimSpace(t[2:])
		case cur == nil:
			summary = append(summary, line)
		default:
			body = append(body, line)
		}
	}
	flush()
	a.Summary = strings.TrimSpace(strings.Join(summary, "\n"))
	if len(a.Sections) == 0 {
		return nil, errNoSections
	}
	if len([]rune(a.Title)) > genMaxTitleRunes {
		return nil, fmt.Errorf("its title is longer than %d characters", genMaxTitleRunes)
	}
	if len([]rune(a.Summary)) > genMaxSectionRunes {
		return nil, fmt.Errorf("its summary is longer than %d characters", genMaxSectionRunes)
	}
	for _, sec := range a.Sections {
		if len([]rune(sec.Markdown)) > genMaxSectionRunes || len([]rune(sec.Heading)) > genMaxTitleRunes {
			return nil, fmt.Errorf("a section is longer than %d characters", genMaxSectionRunes)
		}
	}
	return a, nil
}

// parseSection reads a rewritten section: one "## " section (its heading
// replaced by the one asked for) or, without a heading, the whole answer.
func parseSection(text, heading string) (generation.Section, error) {
	a, err := parseArticle(text)
	switch {
	case err == nil && len(a.Sections) > 1:
		return generation.Section{}, fmt.Errorf("one section was asked for and it has %d", len(a.Sections))
	case err == nil:
		return generation.Section{Heading: heading, Markdown: a.Sections[0].Markdown}, nil
	case errors.Is(err, errNoSections):
		md := strings.TrimSpace(text)
		if md == "" {
			return generation.Section{}, errors.New("it is empty")
		}
		if len([]rune(md)) > genMaxSectionRunes {
			return generation.Section{}, fmt.Errorf("it is longer than %d characters", genMaxSectionRunes)
		}
		return generation.Section{Heading: heading, Markdown: md}, nil
	}
	return generation.Section{}, err
}

// parseCards reads the JSON asked for (a code fence around it tolerated).
// Each card is passed on as written: the flashcards rules decide, and a
// card they refuse is listed by the job.
func parseCards(text string) ([]generation.Card, error) {
	start, end := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if start < 0 || end < start {
		return nil, errors.New("it holds no JSON object")
	}
	var reply struct {
		Cards []struct {
			Type  string `json:"type"`
			Front string `json:"front"`
			Back  string `json:"back"`
		} `json:"cards"`
	}
	if err := json.Unmarshal([]byte(text[start:end+1]), &reply); err != nil {
		return nil, fmt.Errorf("it is not the JSON asked for: %v", err)
	}
	if len(reply.Cards) == 0 {
		return nil, errors.New("it has no cards")
	}
	if len(reply.Cards) > genMaxCards {
		return nil, fmt.Errorf("it has %d cards, more than %d", len(reply.Cards), genMaxCards)
	}
	out := make([]generation.Card, len(reply.Cards))
	for i, c := range reply.Cards {
		out[i] = generation.Card{Type: strings.TrimSpace(c.Type), Front: c.Front, Back: c.Back}
	}
	return out, nil
}

var _ generation.Writer = (*Service)(nil)
