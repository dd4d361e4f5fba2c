package app

import (
	"context"
	"strings"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/opt"
)

// Search modes of the bank listing.
const (
	ModeKeyword  = "keyword"
	ModeSemantic = "semantic"
	ModeHybrid   = "hybrid"
)

// semanticPoolMax caps the semantic matches the bank listing considers.
const semanticPoolMax = 500

// BankFilter is a bank listing request.
type BankFilter struct {
	Text          string
	Mode          string
	QuizID        *int64
	CategoryIDs   []int64 // category_id and category_ids together; each with its branch
	Uncategorized bool
	FavoritesOnly bool
	TagIDs        []int64
	Type          string   // any spelling ParseType reads; "" for every type
	Difficulties  []string // OR; each one of Difficulties (the route checks)
	Limit, Offset int
}

// BankItem is one listed question; the answer side is empty unless CanEdit.
// Kept apart from store.BankRow on purpose: the row always carries the
// answer side, and copying it only where CanEdit is what keeps it from
// reaching a learner's listing.
type BankItem struct {
	ID            int64
	QuizID        *int64
	QuizTitle     *string
	CategoryID    *int64
	CategoryName  *string
	Text          string
	Type          string
	Options       []string
	CorrectAnswer string
	Explanation   string
	ImagePath     string
	Difficulty    *string // nil until rated
	CanEdit       bool
}

// BankPage is one page and the total matching.
type BankPage struct {
	Total int64
	Items []BankItem
	Mode  string // the mode that ran: semantic and hybrid fall back to keyword
}

// Bank lists questions. Moderators list the whole bank. Everyone else lists
// only what reaches them: questions their grants cover and questions they
// favourited; the answer side is filled in only where they may edit.
func (s *Service) Bank(ctx context.Context, p auth.Principal, f BankFilter) (*BankPage, error) {
	q, err := s.resolve(ctx, p, f)
	if err != nil {
		return nil, err
	}
	rows, total, err := s.store.BankPage(ctx, q, f.Limit, f.Offset)
	if err != nil {
		return nil, err
	}
	page := &BankPage{Total: total, Items: make([]BankItem, 0, len(rows)), Mode: modeOf(q.Match)}
	for _, r := range rows {
		it := BankItem{ID: r.ID, QuizID: r.QuizID, QuizTitle: r.QuizTitle, CategoryID: r.QuestionCategoryID,
			CategoryName: r.QuestionCategoryName, Text: r.QuestionText, Type: r.QuestionType,
			Options: opt.NonNil(r.Options), ImagePath: r.ImagePath, Difficulty: r.Difficulty, CanEdit: r.CanEdit}
		if r.CanEdit {
			it.CorrectAnswer, it.Explanation = r.CorrectAnswer, r.Explanation
		}
		page.Items = append(page.Items, it)
	}
	return page, nil
}

// BankIDs lists every matching id (keyword text matching), newest first.
func (s *Service) BankIDs(ctx context.Context, p auth.Principal, f BankFilter) ([]int64, error) {
	f.Mode = ModeKeyword
	q, err := s.resolve(ctx, p, f)
	if err != nil {
		return nil, err
	}
	return s.store.BankIDs(ctx, q)
}

// DomainQuestions lists the ids of the live questions p reaches that are
// filed under the category branch of categoryID (when set) and carry every
// tag in tagIDs, newest first: a blueprint domain drawn "by category
// branch or tag".
func (s *Service) DomainQuestions(ctx context.Context, p auth.Principal, categoryID *int64, tagIDs []int64) ([]int64, error) {
	f := BankFilter{TagIDs: tagIDs}
	if categoryID != nil {
		f.CategoryIDs = []int64{*categoryID}
	}
	return s.BankIDs(ctx, p, f)
}

func modeOf(match string) string {
	if match == store.MatchNone {
		return ""
	}
	return match
}

// resolve turns a filter into a query: the caller's reach, category
// branches, tags by type, and the text matched by keyword or through the
// search module.
func (s *Service) resolve(ctx context.Context, p auth.Principal, f BankFilter) (*store.BankQuery, error) {
	var typ string
	if f.Type != "" {
		var ok bool
		if typ, ok = ParseType(f.Type); !ok {
			return nil, apperr.Invalidf("question_type", "%s", typeProblem)
		}
	}
	v, err := s.viewerOf(ctx, p)
	if err != nil {
		return nil, err
	}
	q := &store.BankQuery{UserID: p.UserID, QuizID: f.QuizID, Uncategorized: f.Uncategorized,
		FavoritesOnly: f.FavoritesOnly, Type: typ, Difficulties: f.Difficulties, EditAll: v.mod(), ShowAllQuizzes: v.mod()}
	var t *tree
	if len(f.CategoryIDs) > 0 || len(f.TagIDs) > 0 || len(v.branches) > 0 {
		if t, err = s.loadTree(ctx); err != nil {
			return nil, err
		}
	}
	if !v.mod() {
		q.Restricted = true
		q.ReachCategories = v.editableCategories(t)
		if q.ReachIDs, err = s.store.ReachExtras(ctx, p.UserID, v.quizGrants); err != nil {
			return nil, err
		}
		q.EditCategories, q.EditQuizzes = q.ReachCategories, v.quizGrants
	}
	if f.QuizID != nil && !v.mod() {
		// A quiz the caller may not open (unpublished, another learner's
		// saved test) filters like one that does not exist: its questions
		// are not told even where the caller reaches them.
		if _, err := s.OpenQuiz(ctx, p, *f.QuizID, false); apperr.Is(err, apperr.NotFound) {
			q.Never = true
		} else if err != nil {
			return nil, err
		}
	}
	if len(f.CategoryIDs) > 0 {
		q.HasCategories = true
		seen := map[int64]bool{}
		for _, id := range f.CategoryIDs {
			for _, c := range t.branch(id) {
				if !seen[c] {
					seen[c] = true
					q.Categories = append(q.Categories, c)
				}
			}
		}
	}
	if err := s.resolveTags(ctx, t, f.TagIDs, q); err != nil {
		return nil, err
	}
	s.resolveText(ctx, f, q)
	return q, nil
}

// resolveTags sorts the asked tags by how questions carry them: directly
// (subject, disease) or through their category (system). A retired keyword
// tag or an unknown id can never match, so the listing is empty.
func (s *Service) resolveTags(ctx context.Context, t *tree, ids []int64, q *store.BankQuery) error {
	if len(ids) == 0 {
		return nil
	}
	tags, err := s.store.TagsByID(ctx, ids)
	if err != nil {
		return err
	}
	known := map[int64]store.Tag{}
	for _, tg := range tags {
		known[tg.ID] = tg
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		tg, ok := known[id]
		switch {
		case !ok || tg.Type == TagKeyword:
			q.Never = true
		case tg.Type == TagSystem:
			q.SystemTags = append(q.SystemTags, t.carrying(id))
		default:
			q.DirectTags = append(q.DirectTags, id)
		}
	}
	return nil
}

// resolveText picks the matcher. Semantic and hybrid ask the search module
// for questions at least search.MinSimilarityQuestions close, reranked;
// without it (or when it fails) they run as keyword.
func (s *Service) resolveText(ctx context.Context, f BankFilter, q *store.BankQuery) {
	q.Text = strings.TrimSpace(f.Text)
	if q.Text == "" {
		q.Match = store.MatchNone
		return
	}
	q.Match = store.MatchKeyword
	if f.Mode == ModeKeyword || s.ports.Search == nil {
		return
	}
	hits, err := s.ports.Search.Semantic(ctx, search.KindQuestion, q.Text, search.MinSimilarityQuestions, semanticPoolMax)
	if err != nil {
		s.log.WarnContext(ctx, "semantic search failed; listing by keyword", "error", err)
		return
	}
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	// Question search is a reranked path (spec: Search behaviour): the
	// head of the semantic matches goes through the rerank model when one
	// is configured; otherwise the order stays as ranked.
	q.SemanticIDs = s.ports.Search.Rerank(ctx, search.KindQuestion, q.Text, ids)
	if f.Mode == ModeSemantic {
		q.Match = store.MatchSemantic
	} else {
		q.Match = store.MatchHybrid
	}
}
