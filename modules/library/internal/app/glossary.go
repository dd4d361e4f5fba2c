package app

import (
	"context"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Term is a glossary term as stored.
type Term = store.Term

// TermWrite is a term as a moderator writes it; on an edit nil fields stay
// (LinkSet with a nil ArticleID unlinks).
type TermWrite struct {
	Term, Definition *string
	LinkSet          bool
	ArticleID        *int64
	SectionID        *string
}

// Terms lists the glossary alphabetically (q: term or definition contains).
func (s *Service) Terms(ctx context.Context, q string, limit, offset int) ([]Term, int64, error) {
	return s.store.Terms(ctx, strings.TrimSpace(q), limit, offset)
}

// CreateTerm adds a term (moderators).
func (s *Service) CreateTerm(ctx context.Context, p auth.Principal, in TermWrite) (*Term, error) {
	t := &Term{CreatedBy: p.UserID}
	if err := s.applyTerm(ctx, t, in); err != nil {
		return nil, err
	}
	return t, s.saveTerm(ctx, func(ctx context.Context) error { return s.store.InsertTerm(ctx, t) })
}

// UpdateTerm edits a term (moderators).
func (s *Service) UpdateTerm(ctx context.Context, id int64, in TermWrite) (*Term, error) {
	t, err := s.store.Term(ctx, id)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("glossary term %d not found", id)
	}
	if err != nil {
		return nil, err
	}
	if err := s.applyTerm(ctx, t, in); err != nil {
		return nil, err
	}
	return t, s.saveTerm(ctx, func(ctx context.Context) error { return s.store.SaveTerm(ctx, t) })
}

func (s *Service) saveTerm(ctx context.Context, write func(ctx context.Context) error) error {
	err := s.db.Tx(ctx, write)
	if db.IsUniqueViolation(err) {
		return apperr.Conflictf("the glossary already has this term")
	}
	return err
}

// DeleteTerm removes a term (moderators).
func (s *Service) DeleteTerm(ctx context.Context, id int64) error {
	var found bool
	err := s.db.Tx(ctx, func(ctx context.Context) (err error) {
		found, err = s.store.DeleteTerm(ctx, id)
		return err
	})
	if err == nil && !found {
		return apperr.NotFoundf("glossary term %d not found", id)
	}
	return err
}

// applyTerm checks and copies what a moderator sent.
func (s *Service) applyTerm(ctx context.Context, t *Term, in TermWrite) error {
	if in.Term != nil {
		v := strings.Join(strings.Fields(*in.Term), " ")
		if v == "" {
			return apperr.Invalidf("term", "term must not be blank")
		}
		if err := checkText("term", v); err != nil {
			return err
		}
		t.Term = v
	}
	if in.Definition != nil {
		v := strings.TrimSpace(*in.Definition)
		if v == "" {
			return apperr.Invalidf("definition", "definition must not be blank")
		}
		if err := checkText("definition", v); err != nil {
			return err
		}
		t.Definition = v
	}
	if !in.LinkSet {
		return nil
	}
	t.ArticleID, t.SectionKey = in.ArticleID, in.SectionID
	if in.ArticleID == nil {
		if in.SectionID != nil {
			return apperr.Invalidf("section_id", "a section needs its article_id")
		}
		return nil
	}
	a, err := s.store.Article(ctx, *in.ArticleID, db.NoLock)
	if db.IsNotFound(err) || (err == nil && a.DeletedAt != nil) {
		return apperr.Invalidf("article_id", "article %d does not exist", *in.ArticleID)
	}
	if err != nil || in.SectionID == nil {
		return err
	}
	ok, err := s.store.SectionKeyExists(ctx, *in.ArticleID, *in.SectionID)
	if err == nil && !ok {
		err = apperr.Invalidf("section_id", "article %d has no section %q", *in.ArticleID, *in.SectionID)
	}
	return err
}

// Annotation is a glossary term found in a text: where (rune offsets, end
// exclusive), which term, and the article section that explains it when
// readers may open it.
type Annotation struct {
	Start, End  int
	Text        string
	Term        *Term
	ArticleSlug string
}

// Annotate finds the glossary's terms in text for hover definitions: whole
// words, any case, the longest term first where two overlap.
func (s *Service) Annotate(ctx context.Context, text string) ([]Annotation, error) {
	terms, err := s.store.AllTerms(ctx)
	if err != nil {
		return nil, err
	}
	found := annotate(text, terms)
	var ids []int64
	for _, a := range found {
		if a.Term.ArticleID != nil {
			ids = append(ids, *a.Term.ArticleID)
		}
	}
	slugs, err := s.store.LiveSlugs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range found {
		if id := found[i].Term.ArticleID; id != nil {
			found[i].ArticleSlug = slugs[*id]
		}
	}
	return found, nil
}

// annotate is the matching of Annotate, in order of appearance.
func annotate(text string, terms []Term) []Annotation {
	runes := []rune(text)
	lower := []rune(strings.ToLower(text))
	if len(lower) != len(runes) {
		lower = runes // a case change altered the length: match as written
	}
	sort.SliceStable(terms, func(i, j int) bool {
		return utf8.RuneCountInString(terms[i].Term) > utf8.RuneCountInString(terms[j].Term)
	})
	taken := make([]bool, len(runes))
	var out []Annotation
	for i := range terms {
		want := []rune(strings.ToLower(terms[i].Term))
		if len(want) == 0 {
			continue
		}
	scan:
		for at := 0; at+len(want) <= len(lower); at++ {
			for k, r := range want {
				if lower[at+k] != r {
					continue scan
				}
			}
			end := at + len(want)
			if (at > 0 && isWord(runes[at-1])) || (end < len(runes) && isWord(runes[end])) {
				continue
			}
			for k := at; k < end; k++ {
				if taken[k] {
					continue scan
				}
			}
			for k := at; k < end; k++ {
				taken[k] = true
			}
			out = append(out, Annotation{Start: at, End: end, Text: string(runes[at:end]), Term: &terms[i]})
			at = end - 1
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
