package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/flashcards"
	"github.com/roundsedu/rounds/modules/library/generation"
	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/text"
)

// Questions is the port to the bank's questions a generation grounds on,
// and its reach policy: a question's answer side goes into a prompt only
// for a requester who may edit that question.
type Questions interface {
	RatedQuestions(ctx context.Context, ids []int64, categoryID *int64, limit int) ([]bank.RatedQuestion, error)
	Reachable(ctx context.Context, p auth.Principal, kind search.Kind, ids []int64) (visible, editable map[int64]bool, err error)
}

// Decks is the port to flashcards, where generated cards are stored.
type Decks interface {
	ArticleCards(ctx context.Context, p auth.Principal, a flashcards.ArticleDeck, cards []flashcards.ImportedCard) (*flashcards.ArticleCards, error)
}

// Grounding bounds: how many bank questions and other articles a
// generation is given, and the longest card side kept.
const (
	groundQuestions = 20
	groundArticles  = 2
	maxCardRunes    = 2000
)

// DraftResult is a finished draft's job result.
type DraftResult struct {
	ArticleID int64  `json:"article_id"`
	Slug      string `json:"slug"`
	Sections  int    `json:"sections"`
}

// RefineResult is a finished refinement's job result: the sections
// rewritten (their ids); the article as it was is its newest revision.
type RefineResult struct {
	ArticleID int64    `json:"article_id"`
	Sections  []string `json:"sections"`
}

// RefusedCard is a generated card the flashcards rules refused.
type RefusedCard struct {
	Index  int    `json:"index"`
	Front  string `json:"front"`
	Reason string `json:"reason"`
}

// CardsResult is a finished card generation's job result.
type CardsResult struct {
	ArticleID   int64         `json:"article_id"`
	DeckID      int64         `json:"deck_id"`
	DeckCreated bool          `json:"deck_created"`
	Cards       int           `json:"cards"` // card rows stored (a cloze passage is a row per deletion)
	Refused     []RefusedCard `json:"refused"`
}

// jobRun is what a generation needs of its job's run: progress steps, and
// its result recorded in the transaction that stores what it made, so a
// run taken up again after its worker died stores nothing twice.
type jobRun interface {
	Step(ctx context.Context, name, detail string) error
	Done(ctx context.Context, result any) error
}

// RunDraft is the worker side of generate_article_draft, as the requester:
// it gathers the grounding, has the AI module's writer call the model (no
// transaction is open then), and stores what came back under the rules of
// a hand-made edit, in one transaction with the job's result. Steps are
// recorded as it goes.
func (s *Service) RunDraft(ctx context.Context, run *jobs.Run[GenerateDraft]) (any, error) {
	in := run.Args.GenerationRequest
	p := auth.Principal{UserID: in.RequestedBy, Role: in.Role}
	if in.Mode == "refine" {
		return s.runRefine(ctx, run, p, in)
	}
	return s.runDraft(ctx, run, p, in)
}

// RunCards is the worker side of generate_article_cards, as RunDraft.
func (s *Service) RunCards(ctx context.Context, run *jobs.Run[GenerateCards]) (any, error) {
	in := run.Args.GenerationRequest
	return s.runCards(ctx, run, auth.Principal{UserID: in.RequestedBy, Role: in.Role}, in)
}

func (s *Service) runDraft(ctx context.Context, run jobRun, p auth.Principal, in GenerationRequest) (any, error) {
	sources, err := s.grounding(ctx, run, in, in.CategoryID, 0)
	if err != nil {
		return nil, err
	}
	a, err := s.ports.Writer.DraftArticle(ctx, generation.DraftRequest{Title: in.Title, Instructions: in.Instructions,
		Sources: sources, Progress: run.Step})
	if err != nil {
		return nil, err
	}
	secs := make([]Section, len(a.Sections))
	for i, sec := range a.Sections {
		secs[i] = Section{Heading: sec.Heading, Markdown: sec.Markdown}
	}
	if err := run.Step(ctx, "parsed", fmt.Sprintf("%d sections", len(secs))); err != nil {
		return nil, err
	}
	var res *DraftResult
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		out, err := s.Create(ctx, p, Write{Title: in.Title, Summary: a.Summary, Sections: secs, CategoryID: in.CategoryID,
			Status: StatusDraft})
		if err != nil {
			return err
		}
		res = &DraftResult{ArticleID: out.ID, Slug: out.Slug, Sections: len(out.Sections)}
		return run.Done(ctx, res)
	})
	if err != nil {
		return nil, unusable("article", err)
	}
	if err := run.Step(ctx, "saved", fmt.Sprintf("draft article %d", res.ArticleID)); err != nil {
		return nil, err
	}
	return res, nil
}

// unusable names a model's output the library's rules refuse (nothing
// stored); other errors pass as they are.
func unusable(what string, err error) error {
	if ae, ok := apperr.As(err); ok && ae.Code == apperr.Invalid {
		return fmt.Errorf("the model's %s cannot be stored: %s; nothing was stored", what, ae.Message)
	}
	return err
}

// subject reads the article a refinement or cards are made from, as p may
// edit it, with its sections.
func (s *Service) subject(ctx context.Context, p auth.Principal, id int64) (*store.Article, []store.Section, error) {
	if err := s.mayEdit(ctx, p, id); err != nil {
		return nil, nil, err
	}
	a, err := s.store.Article(ctx, id, db.NoLock)
	if err != nil {
		return nil, nil, err
	}
	if a.DeletedAt != nil {
		return nil, nil, apperr.Conflictf("article %d is in the bin; restore it first", id)
	}
	secs, err := s.store.Sections(ctx, id)
	return a, secs, err
}

func asWritten(a *store.Article, secs []store.Section) generation.Article {
	out := generation.Article{Title: a.Title, Summary: a.Summary}
	for _, sec := range secs {
		out.Sections = append(out.Sections, generation.Section{Heading: sec.Heading, Markdown: sec.Markdown})
	}
	return out
}

func (s *Service) runRefine(ctx context.Context, run jobRun, p auth.Principal, in GenerationRequest) (any, error) {
	a, cur, err := s.subject(ctx, p, in.ArticleID)
	if err != nil {
		return nil, err
	}
	heading, at := "", -1
	if in.SectionID != "" {
		if at = sectionIndex(cur, in.SectionID); at < 0 {
			return nil, apperr.NotFoundf("article %d has no section %q", a.ID, in.SectionID)
		}
		heading = cur[at].Heading
	}
	sources, err := s.grounding(ctx, run, in, a.CategoryID, a.ID)
	if err != nil {
		return nil, err
	}
	if slices.Contains(in.Sources, "references") {
		sources = append(sources, references(a))
	}
	got, err := s.ports.Writer.RefineArticle(ctx, generation.RefineRequest{Article: asWritten(a, cur), Section: heading,
		Instructions: in.Instructions, Sources: sources, Progress: run.Step})
	if err != nil {
		return nil, err
	}
	next, changed := revised(cur, at, got)
	res := &RefineResult{ArticleID: a.ID, Sections: changed}
	note := "AI refinement of the whole article"
	if at >= 0 {
		note = "AI refinement of section " + in.SectionID
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		now, err := s.store.Article(ctx, a.ID, db.ForUpdate)
		if err != nil {
			return err
		}
		if now.Version != a.Version {
			return apperr.Conflictf("article %d changed while the model was writing; nothing was stored, ask again", a.ID)
		}
		if _, err = s.Update(ctx, p, a.ID, Patch{Sections: &next, Note: note}); err != nil {
			return err
		}
		return run.Done(ctx, res)
	})
	if err != nil {
		return nil, unusable("text", err)
	}
	if err := run.Step(ctx, "saved", fmt.Sprintf("article %d: %d sections rewritten; the article as it was is its newest revision",
		a.ID, len(changed))); err != nil {
		return nil, err
	}
	return res, nil
}

// revised is the article's sections after a refinement: the one at at
// replaced, or (at < 0) the model's whole list, where a section keeps the
// id of a current one with the same heading so links to it still resolve.
// It also gives the ids of the sections written ("" for a new one: its id
// is made on save from the heading).
func revised(cur []store.Section, at int, got []generation.Section) ([]Section, []string) {
	if at >= 0 {
		next := make([]Section, len(cur))
		for i, sec := range cur {
			next[i] = Section{ID: sec.Key, Heading: sec.Heading, Markdown: sec.Markdown}
		}
		next[at].Markdown = got[0].Markdown
		return next, []string{cur[at].Key}
	}
	used := map[string]bool{}
	next := make([]Section, len(got))
	changed := make([]string, len(got))
	for i, sec := range got {
		next[i] = Section{Heading: sec.Heading, Markdown: sec.Markdown}
		for _, c := range cur {
			if !used[c.Key] && strings.EqualFold(strings.TrimSpace(c.Heading), strings.TrimSpace(sec.Heading)) {
				next[i].ID, used[c.Key] = c.Key, true
				break
			}
		}
		changed[i] = next[i].ID
	}
	return next, changed
}

func (s *Service) runCards(ctx context.Context, run jobRun, p auth.Principal, in GenerationRequest) (any, error) {
	a, cur, err := s.subject(ctx, p, in.ArticleID)
	if err != nil {
		return nil, err
	}
	sources, err := s.grounding(ctx, run, in, a.CategoryID, a.ID)
	if err != nil {
		return nil, err
	}
	if slices.Contains(in.Sources, "references") {
		sources = append(sources, references(a))
	}
	cards, err := s.ports.Writer.MakeCards(ctx, generation.CardsRequest{Article: asWritten(a, cur),
		Instructions: in.Instructions, Sources: sources, Progress: run.Step})
	if err != nil {
		return nil, err
	}
	if err := run.Step(ctx, "parsed", fmt.Sprintf("%d cards", len(cards))); err != nil {
		return nil, err
	}
	out := &CardsResult{ArticleID: a.ID, Refused: []RefusedCard{}}
	var kept []flashcards.ImportedCard
	var keptAt []int // kept[i] is cards[keptAt[i]]
	for i, c := range cards {
		if len([]rune(c.Front)) > maxCardRunes || len([]rune(c.Back)) > maxCardRunes {
			out.Refused = append(out.Refused, RefusedCard{Index: i, Front: text.Clip(c.Front, 120),
				Reason: fmt.Sprintf("a side is longer than %d characters", maxCardRunes)})
			continue
		}
		kept = append(kept, flashcards.ImportedCard{Type: c.Type, Front: c.Front, Back: c.Back})
		keptAt = append(keptAt, i)
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		res, err := s.ports.Decks.ArticleCards(ctx, p, flashcards.ArticleDeck{ArticleID: a.ID, Title: a.Title,
			CategoryID: a.CategoryID}, kept)
		if err != nil {
			return err
		}
		for i, reason := range res.Refused {
			c := cards[keptAt[i]]
			out.Refused = append(out.Refused, RefusedCard{Index: keptAt[i], Front: text.Clip(c.Front, 120), Reason: reason})
		}
		slices.SortFunc(out.Refused, func(x, y RefusedCard) int { return x.Index - y.Index })
		out.DeckID, out.DeckCreated, out.Cards = res.DeckID, res.Created, res.Rows
		return run.Done(ctx, out)
	})
	if err != nil {
		return nil, err
	}
	if err := run.Step(ctx, "saved", fmt.Sprintf("deck %d: %d cards stored, %d refused", out.DeckID, out.Cards,
		len(out.Refused))); err != nil {
		return nil, err
	}
	return out, nil
}

// grounding gathers the sources asked for (by default the bank's
// questions): bank, of up to 20 live questions filed in category's branch
// those the requester may edit, with their answers (an article's editor
// holding no grant over its questions gets none: its answers are not
// theirs to read); article, for a draft up to two published articles
// the search finds for its title (a refinement and cards always have
// their own article). It records what it found as a step.
func (s *Service) grounding(ctx context.Context, run jobRun, in GenerationRequest, category *int64, self int64) ([]generation.Source, error) {
	asked := in.Sources
	if len(asked) == 0 {
		asked = []string{"bank"}
	}
	var out []generation.Source
	var found []string
	if slices.Contains(asked, "bank") {
		if category == nil {
			found = append(found, "no category, so no bank questions")
		} else {
			qs, err := s.editableQuestions(ctx, auth.Principal{UserID: in.RequestedBy, Role: in.Role}, category)
			if err != nil {
				return nil, err
			}
			for _, q := range qs {
				out = append(out, generation.Source{Kind: "bank", Title: fmt.Sprintf("question %d", q.ID), Text: questionText(q)})
			}
			found = append(found, fmt.Sprintf("%d bank questions", len(qs)))
		}
	}
	if self == 0 && slices.Contains(asked, "article") {
		arts, err := s.relatedArticles(ctx, in.Title)
		if err != nil {
			return nil, err
		}
		out = append(out, arts...)
		found = append(found, fmt.Sprintf("%d related articles", len(arts)))
	}
	if err := run.Step(ctx, "sources", strings.Join(found, ", ")); err != nil {
		return nil, err
	}
	return out, nil
}

// editableQuestions reads the grounding questions of category's branch and
// keeps those p may edit.
func (s *Service) editableQuestions(ctx context.Context, p auth.Principal, category *int64) ([]bank.RatedQuestion, error) {
	qs, err := s.ports.Questions.RatedQuestions(ctx, nil, category, groundQuestions)
	if err != nil || len(qs) == 0 {
		return qs, err
	}
	ids := make([]int64, len(qs))
	for i, q := range qs {
		ids[i] = q.ID
	}
	_, editable, err := s.ports.Questions.Reachable(ctx, p, search.KindQuestion, ids)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(qs, func(q bank.RatedQuestion) bool { return !editable[q.ID] }), nil
}

func questionText(q bank.RatedQuestion) string {
	var b strings.Builder
	b.WriteString(q.Text)
	for i, o := range q.Options {
		fmt.Fprintf(&b, "\n%c. %s", 'A'+i, o)
	}
	if q.CorrectAnswer != "" {
		fmt.Fprintf(&b, "\nAnswer: %s", q.CorrectAnswer)
	}
	if q.Explanation != "" {
		fmt.Fprintf(&b, "\nExplanation: %s", q.Explanation)
	}
	return b.String()
}

// relatedArticles gives the published articles the search ranks first for
// title, as plain text.
func (s *Service) relatedArticles(ctx context.Context, title string) ([]generation.Source, error) {
	ids, err := s.searchArticles(ctx, title)
	if err != nil {
		return nil, err
	}
	var out []generation.Source
	for _, id := range ids {
		if len(out) == groundArticles {
			break
		}
		a, err := s.store.Article(ctx, id, db.NoLock)
		if db.IsNotFound(err) || err == nil && !a.Live() {
			continue
		}
		if err != nil {
			return nil, err
		}
		secs, err := s.store.Sections(ctx, id)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, sec := range secs {
			fmt.Fprintf(&b, "%s\n%s\n", sec.Heading, plainText(sec.HTML))
		}
		out = append(out, generation.Source{Kind: "article", Title: a.Title, Text: b.String()})
	}
	return out, nil
}

func references(a *store.Article) generation.Source {
	var b strings.Builder
	for _, r := range a.References {
		fmt.Fprintf(&b, "- %s %s\n", r.Citation, r.URL)
	}
	return generation.Source{Kind: "references", Title: "the article's references", Text: b.String()}
}
