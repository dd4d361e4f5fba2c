package app

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roundsedu/rounds/modules/attempts"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/library"
	"github.com/roundsedu/rounds/platform/auth"
)

// Attempts is what the tutor asks attempts (implemented by
// attempts.Module): the caller's own record, redacted by attempts' rule
// that a timed attempt keeps its answer side closed until submitted.
type Attempts interface {
	RecentAnswers(ctx context.Context, userID int64, ids []int64, limit int) ([]attempts.Answered, error)
	SittingTimed(ctx context.Context, userID, questionID int64) (bool, error)
	WeakestCategories(ctx context.Context, userID int64, n int) ([]attempts.CategoryScore, error)
}

// What the tutor is told of the learner, each part a handful of rows, and
// the whole block bounded in characters.
const (
	ownShown        = 3    // their latest answers to the question asked about
	categoryScan    = 50   // their latest answers read to find those in its category
	categoryShown   = 5    // of which this many are shown
	weakestShown    = 3    // weakest categories
	readingArticles = 2    // published articles claiming the question
	readingSections = 3    // opening sections of each
	readingChars    = 1500 // characters of each section
	stemChars       = 300
	answerChars     = 200
	learnerBriefCap = 8000 // characters of the whole learner and reading block
)

// learnerBrief is what the tutor knows of the caller beyond the question:
// their own answers to it and to others of its category, their weakest
// categories, and the library's reading on it.
type learnerBrief struct {
	sitting  bool // the question is in a timed attempt of theirs not yet submitted
	own      []attempts.Answered
	category []stemmed
	weakest  []attempts.CategoryScore
	reading  []library.ClaimedSection
}

// stemmed is an answer to another question with that question's stem.
type stemmed struct {
	attempts.Answered
	stem string
}

// learner gathers the caller's brief from the owning modules, a fixed
// number of reads whatever their history, none inside a transaction.
// Other questions appear only when the caller reaches them (the bank's
// reach policy), as the similar stems do.
func (s *Service) learner(ctx context.Context, p auth.Principal, q *bank.TutorQuestion) (*learnerBrief, error) {
	var l learnerBrief
	var err error
	if l.sitting, err = s.ports.Attempts.SittingTimed(ctx, p.UserID, q.ID); err != nil {
		return nil, err
	}
	if l.own, err = s.ports.Attempts.RecentAnswers(ctx, p.UserID, []int64{q.ID}, ownShown); err != nil {
		return nil, err
	}
	if q.CategoryID != nil {
		if l.category, err = s.inCategory(ctx, p, q); err != nil {
			return nil, err
		}
	}
	if l.weakest, err = s.ports.Attempts.WeakestCategories(ctx, p.UserID, weakestShown); err != nil {
		return nil, err
	}
	if l.reading, err = s.ports.Library.ClaimingSections(ctx, q.ID, readingArticles, readingSections, readingChars); err != nil {
		return nil, err
	}
	return &l, nil
}

// inCategory is the caller's latest answer to each of up to five other
// questions of q's category that they reach, among their latest answers.
func (s *Service) inCategory(ctx context.Context, p auth.Principal, q *bank.TutorQuestion) ([]stemmed, error) {
	recent, err := s.ports.Attempts.RecentAnswers(ctx, p.UserID, nil, categoryScan)
	if err != nil {
		return nil, err
	}
	latest := map[int64]attempts.Answered{}
	var ids []int64
	for _, a := range recent {
		if _, seen := latest[a.QuestionID]; !seen && a.QuestionID != q.ID {
			latest[a.QuestionID] = a
			ids = append(ids, a.QuestionID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	filings, err := s.ports.Bank.QuestionFilings(ctx, ids)
	if err != nil {
		return nil, err
	}
	var same []int64
	for _, id := range ids {
		if f := filings[id]; f.CategoryID != nil && *f.CategoryID == *q.CategoryID && len(same) < categoryShown {
			same = append(same, id)
		}
	}
	if len(same) == 0 {
		return nil, nil
	}
	stems, err := s.ports.Bank.QuestionStems(ctx, p, same)
	if err != nil {
		return nil, err
	}
	var out []stemmed
	for _, id := range same {
		if stem, ok := stems[id]; ok {
			out = append(out, stemmed{Answered: latest[id], stem: stem})
		}
	}
	return out, nil
}

// write adds the learner's block to the brief, stopping at the cap
// (the reading goes last, so it is what a long record shortens).
func (l *learnerBrief) write(b *strings.Builder) {
	var w cappedWriter
	if len(l.own) > 0 || len(l.category) > 0 || len(l.weakest) > 0 {
		w.line("\nThe learner's own record (tailor your help to it; never invent more):")
	}
	if len(l.own) > 0 {
		w.line("Their latest answers to this question, newest first:")
		for _, a := range l.own {
			w.line("- " + answered(a))
		}
	}
	if len(l.category) > 0 {
		w.line("Their latest answers to other questions of this category:")
		for _, a := range l.category {
			w.line(fmt.Sprintf("- %q: %s", cut(a.stem, stemChars), answered(a.Answered)))
		}
	}
	if len(l.weakest) > 0 {
		parts := make([]string, len(l.weakest))
		for i, c := range l.weakest {
			parts[i] = fmt.Sprintf("%s (%d of %d right, %.0f%%)", c.Name, c.Correct, c.Seen, c.Percentage)
		}
		w.line("Their weakest categories: " + strings.Join(parts, "; "))
	}
	if l.sitting {
		w.line("They are sitting a timed attempt that contains this question: do not say or hint whether any answer is right.")
	}
	if len(l.reading) > 0 {
		w.line("\nThe library's published articles on this question's topic (cite them by title where they help):")
		for _, r := range l.reading {
			w.line(fmt.Sprintf("### %s: %s\n%s", r.ArticleTitle, r.Heading, strings.TrimSpace(r.Text)))
		}
	}
	b.WriteString(w.String())
}

// answered says what the learner chose, whether it was right when they may
// be told, and the pace of that sitting.
func answered(a attempts.Answered) string {
	var b strings.Builder
	switch {
	case a.Running:
		fmt.Fprintf(&b, "in a %s attempt not yet submitted", modeName(a.Mode))
	default:
		fmt.Fprintf(&b, "%s, %s attempt", a.At.UTC().Format("2006-01-02"), modeName(a.Mode))
	}
	if strings.TrimSpace(a.Answer) == "" {
		b.WriteString(": left it blank")
	} else {
		fmt.Fprintf(&b, ": chose %q", cut(a.Answer, answerChars))
	}
	switch {
	case a.Correct == nil:
		b.WriteString(" (right or wrong: not shown to them yet)")
	case *a.Correct:
		b.WriteString(" — right")
	default:
		b.WriteString(" — wrong")
	}
	if a.Seconds != nil {
		fmt.Fprintf(&b, "; about %.0f s a question in that sitting", math.Round(*a.Seconds))
	}
	return b.String()
}

func modeName(mode string) string {
	if mode == bank.ModeLearning {
		return "study"
	}
	return mode
}

// cappedWriter keeps whole lines up to learnerBriefCap characters.
type cappedWriter struct {
	strings.Builder
	full bool
}

func (w *cappedWriter) line(s string) {
	if w.full || w.Len()+len(s)+1 > learnerBriefCap {
		w.full = true
		return
	}
	w.WriteString(s)
	w.WriteByte('\n')
}
