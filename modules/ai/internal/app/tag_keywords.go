package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/ai/internal/gateway"
	"github.com/roundsedu/rounds/modules/ai/internal/store"
	"github.com/roundsedu/rounds/modules/bank/tagging"
)

// Bounds of tag classification: questions per model call and the answer
// read.
const (
	tagBatch    = 20
	tagMaxReply = 64 << 10
)

// KeywordTagger implements tagging.Models: the keyword task's active
// default model, nil with none.
func (s *Service) KeywordTagger(ctx context.Context) (tagging.Tagger, error) {
	m, err := s.taskDefault(ctx, "keyword")
	if err != nil || m == nil {
		return nil, err
	}
	t, err := s.target(m)
	if err != nil {
		return nil, err
	}
	return &keywordTagger{s: s, m: m, t: t}, nil
}

var _ tagging.Models = (*Service)(nil)

type keywordTagger struct {
	s *Service
	m *store.Model
	t gateway.Target
}

func (k *keywordTagger) Model() string { return k.m.ModelID }

const tagBrief = `You tag medical exam questions with the subjects and diseases they are about.
Pick only from the list of tags given, spelled exactly as listed; never invent a tag. Give a question no tag when
none fits, and at most %d tags. Answer with one JSON object and nothing else:
{"questions":[{"id":123,"tags":["Cardiology","Mitral stenosis"]}]}`

// Tag asks the model in batches of 20 and keeps, per question, the names
// it gave that are in the vocabulary (case and spacing ignored), up to
// tagging.MaxPerQuestion; the rest are counted as dropped.
func (k *keywordTagger) Tag(ctx context.Context, qs []tagging.Question, vocabulary []tagging.Tag) (*tagging.Picks, error) {
	byName := map[string][]int64{}
	var list strings.Builder
	for _, t := range vocabulary {
		byName[foldName(t.Name)] = append(byName[foldName(t.Name)], t.ID)
		fmt.Fprintf(&list, "- %s\n", cut(t.Name, 200))
	}
	brief := fmt.Sprintf(tagBrief, tagging.MaxPerQuestion)
	out := &tagging.Picks{Tags: map[int64][]int64{}}
	for start := 0; start < len(qs); start += tagBatch {
		batch := qs[start:min(start+tagBatch, len(qs))]
		var ask strings.Builder
		ask.WriteString("Tags:\n" + list.String())
		for _, q := range batch {
			fmt.Fprintf(&ask, "--- question %d ---\n%s\nAnswer: %s\nExplanation: %s\n", q.ID, cut(q.Text, 3000),
				cut(q.CorrectAnswer, 300), cut(q.Explanation, 1500))
		}
		reply, err := k.s.gw.Chat(ctx, k.t, []gateway.Message{{Role: "system", Content: brief},
			{Role: "user", Content: ask.String()}}, 2000)
		if err != nil {
			return nil, err
		}
		k.s.recordFor(ctx, 0, "keyword", k.m.ModelID, reply.PromptTokens, reply.CompletionTokens)
		if err := parseTags(reply.Text, batch, byName, out); err != nil {
			return nil, fmt.Errorf("model %s, questions %d to %d: %w", k.m.ModelID, batch[0].ID, batch[len(batch)-1].ID, err)
		}
	}
	return out, nil
}

// parseTags reads the JSON asked for into out, bounded and typed (a tag
// that is not a string, an id that is not a number: the answer is
// refused). Entries for questions not in the batch are ignored.
func parseTags(text string, batch []tagging.Question, byName map[string][]int64, out *tagging.Picks) error {
	var reply struct {
		Questions []struct {
			ID   int64    `json:"id"`
			Tags []string `json:"tags"`
		} `json:"questions"`
	}
	if err := decodeReply(text, tagMaxReply, &reply); err != nil {
		return err
	}
	asked := map[int64]bool{}
	for _, q := range batch {
		asked[q.ID] = true
	}
	for _, e := range reply.Questions {
		if !asked[e.ID] {
			continue
		}
		for _, name := range e.Tags {
			ids, ok := byName[foldName(name)]
			switch {
			case !ok:
				out.Dropped++
			case len(out.Tags[e.ID])+len(ids) > tagging.MaxPerQuestion:
				out.Dropped += len(ids)
			default:
				for _, id := range ids {
					if !slices.Contains(out.Tags[e.ID], id) {
						out.Tags[e.ID] = append(out.Tags[e.ID], id)
					}
				}
			}
		}
	}
	return nil
}

// foldName is how a model's tag name is matched: case and spacing ignored.
func foldName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

var errNoJSON = errors.New("the answer holds no JSON object")

// decodeReply reads the one JSON object a model was asked for (a code
// fence or a line around it tolerated) into v, refusing an answer over max
// bytes.
func decodeReply(text string, max int, v any) error {
	if len(text) > max {
		return fmt.Errorf("the answer is %d bytes, more than %d", len(text), max)
	}
	start, end := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if start < 0 || end < start {
		return errNoJSON
	}
	if err := json.Unmarshal([]byte(text[start:end+1]), v); err != nil {
		return fmt.Errorf("the answer is not the JSON asked for: %v", err)
	}
	return nil
}
