package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/modules/drafts/extraction"
)

// Bounds on one model extraction: the text sent per call, the answer
// asked for, and what is kept of what comes back.
const (
	extractChunkRunes     = 12000
	extractMaxTokens      = 4000
	extractMaxReply       = 1 << 20
	extractMaxPerCall     = 200
	extractMaxOptions     = 10
	extractMaxTextRunes   = 10000
	extractMaxOptionRunes = 2000
)

// Extractor implements drafts' extraction.Models: the active extraction
// model named model (by model id or name; "" is the task's default) reading
// the text layer. Page images would need a PDF renderer the service does
// not have, so vision is refused.
func (s *Service) Extractor(ctx context.Context, model, readingMode string) (extraction.Extractor, error) {
	rows, err := s.store.Models(ctx, "extraction", true)
	if err != nil {
		return nil, err
	}
	var m *store.Model
	for i := range rows {
		if model == "" && rows[i].IsDefault || model != "" && (rows[i].ModelID == model || rows[i].Name == model) {
			m = &rows[i]
			break
		}
	}
	if m == nil {
		return nil, extraction.ErrNoModel
	}
	if readingMode != extraction.ReadingText {
		return nil, extraction.ErrUnsupportedMode
	}
	t, err := s.target(m)
	if err != nil {
		return nil, err
	}
	t.Timeout = s.cfg.ExtractionTimeout
	return &modelExtractor{s: s, target: t}, nil
}

type modelExtractor struct {
	s      *Service
	target gateway.Target
}

func (e *modelExtractor) Name() string { return e.target.Model }

const extractBrief = `You read pages of a medical exam paper and return every question on them as JSON, nothing else:
{"questions":[{"type":"mcq","text":"...","options":["..."],"correct_answer":"...","explanation":"...","page":3}]}
type is "mcq" (options listed, correct_answer is the text of the correct option when the paper shows it, else "")
or "fill_in" (no options; correct_answer the expected answer when shown). Copy the wording exactly; leave out
question numbers and option letters. explanation only when the paper gives one. page is the page the question starts on.
A question cut off at the end of the pages is left out.`

// Extract sends the section's text in chunks of whole pages and gathers
// the questions each answer lists. A call that fails fails the extraction
// with the gateway's message; usage is recorded per call, against nobody
// (user 0: the job is the service's).
func (e *modelExtractor) Extract(ctx context.Context, in extraction.Input) ([]extraction.Question, error) {
	var out []extraction.Question
	for _, chunk := range pageChunks(in.Pages, extractChunkRunes) {
		first, last := chunk[0].Number, chunk[len(chunk)-1].Number
		if err := in.Progress(ctx, "reading with "+e.target.Model, fmt.Sprintf("pages %d to %d", first, last)); err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, p := range chunk {
			fmt.Fprintf(&b, "--- page %d ---\n%s\n", p.Number, p.Text)
		}
		reply, err := e.s.gw.Chat(ctx, e.target, []gateway.Message{{Role: "system", Content: extractBrief},
			{Role: "user", Content: b.String()}}, extractMaxTokens)
		if err != nil {
			return nil, err
		}
		e.s.recordFor(ctx, 0, "extraction", e.target.Model, reply.PromptTokens, reply.CompletionTokens)
		qs, err := parseExtraction(reply.Text, first, last)
		if err != nil {
			return nil, fmt.Errorf("model %s, pages %d to %d: %w", e.target.Model, first, last, err)
		}
		out = append(out, qs...)
	}
	return out, nil
}

// pageChunks groups pages in order so that each group's text stays within
// limit runes; a page longer than that is cut and goes alone. Pages
// without text are left out.
func pageChunks(pages []extraction.Page, limit int) [][]extraction.Page {
	var out [][]extraction.Page
	var cur []extraction.Page
	size := 0
	for _, p := range pages {
		text := []rune(strings.TrimSpace(p.Text))
		if len(text) == 0 {
			continue
		}
		if len(text) > limit {
			text = text[:limit]
		}
		if size+len(text) > limit && len(cur) > 0 {
			out, cur, size = append(out, cur), nil, 0
		}
		cur = append(cur, extraction.Page{Number: p.Number, Text: string(text)})
		size += len(text)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

type extractedQuestion struct {
	Type          string   `json:"type"`
	Text          string   `json:"text"`
	Options       []string `json:"options"`
	CorrectAnswer string   `json:"correct_answer"`
	Explanation   string   `json:"explanation"`
	Page          int      `json:"page"`
}

// parseExtraction reads a model's answer: one JSON object (a code fence
// around it is tolerated). Entries that are not usable questions are
// dropped, not guessed at; an answer that is not the JSON asked for is an
// error naming what was wrong.
func parseExtraction(text string, first, last int) ([]extraction.Question, error) {
	var reply struct {
		Questions []extractedQuestion `json:"questions"`
	}
	if err := decodeReply(text, extractMaxReply, &reply); err != nil {
		return nil, err
	}
	if len(reply.Questions) > extractMaxPerCall {
		reply.Questions = reply.Questions[:extractMaxPerCall]
	}
	out := []extraction.Question{}
	for _, q := range reply.Questions {
		if got, ok := usable(q, first, last); ok {
			out = append(out, got)
		}
	}
	return out, nil
}

func usable(q extractedQuestion, first, last int) (extraction.Question, bool) {
	out := extraction.Question{Type: strings.TrimSpace(q.Type), Text: strings.TrimSpace(q.Text),
		CorrectAnswer: strings.TrimSpace(q.CorrectAnswer), Explanation: strings.TrimSpace(q.Explanation)}
	if out.Text == "" || len([]rune(out.Text)) > extractMaxTextRunes || len([]rune(out.Explanation)) > extractMaxTextRunes {
		return out, false
	}
	if q.Page >= first && q.Page <= last {
		out.Page = q.Page
	}
	switch out.Type {
	case extraction.TypeFillIn:
		return out, len(q.Options) == 0
	case extraction.TypeMCQ:
		if len(q.Options) < 2 || len(q.Options) > extractMaxOptions {
			return out, false
		}
		for _, o := range q.Options {
			o = strings.TrimSpace(o)
			if o == "" || len([]rune(o)) > extractMaxOptionRunes {
				return out, false
			}
			out.Options = append(out.Options, o)
		}
		return out, true
	}
	return out, false
}
