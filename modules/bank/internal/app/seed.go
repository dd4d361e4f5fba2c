package app

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/demo"
	"github.com/roundsedu/rounds/modules/bank/internal/store"
)

// seedLock serialises demo seeding across replicas starting together.
const seedLock = 7_470_204

// SeedDemo loads the demo bank when the bank is empty (no questions,
// quizzes or categories), all in one transaction; otherwise it does
// nothing. It reports whether it loaded anything.
func (s *Service) SeedDemo(ctx context.Context) (bool, error) {
	start := time.Now()
	var b *demo.Bank
	err := s.write(ctx, func(ctx context.Context) error {
		if err := s.store.Lock(ctx, seedLock); err != nil {
			return err
		}
		empty, err := s.store.Empty(ctx)
		if err != nil || !empty {
			return err
		}
		// Built only now: most starts find the bank loaded already.
		b = demo.Generate()
		categories, err := s.seedCategories(ctx, b.Categories)
		if err != nil {
			return err
		}
		ids, err := s.seedQuestions(ctx, b.Questions, categories)
		if err != nil {
			return err
		}
		return s.seedQuizzes(ctx, b, ids)
	})
	seeded := err == nil && b != nil
	if seeded {
		s.log.InfoContext(ctx, "demo bank loaded", "questions", len(b.Questions), "quizzes", len(b.Quizzes),
			"categories", len(b.Categories), "duration_ms", time.Since(start).Milliseconds())
	}
	return seeded, err
}

// seedCategories inserts the tree (parents come first in the list) and
// returns ids keyed by "parent/name".
func (s *Service) seedCategories(ctx context.Context, cats []demo.Category) (map[string]int64, error) {
	ids := map[string]int64{}
	for _, c := range cats {
		row := &store.Category{Name: c.Name, Description: &c.Description}
		if c.Parent != "" {
			parent := ids["/"+c.Parent]
			row.ParentID = &parent
		}
		if c.System != "" {
			sys, err := s.store.EnsureTag(ctx, TagSystem, c.System)
			if err != nil {
				return nil, err
			}
			row.SystemID = &sys
		}
		if err := s.store.InsertCategory(ctx, row); err != nil {
			return nil, err
		}
		ids[c.Parent+"/"+c.Name] = row.ID
	}
	return ids, nil
}

func (s *Service) seedQuestions(ctx context.Context, qs []demo.Question, categories map[string]int64) ([]int64, error) {
	in := make([]NewQuestion, len(qs))
	for i, q := range qs {
		cat := categories[q.System+"/"+q.Category]
		in[i] = NewQuestion{CategoryID: &cat, Content: Content{Type: q.Type, Text: q.Text, Options: q.Options,
			CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation, OptionExplanations: q.OptionExplanations,
			KeyPoints: q.KeyPoints, AttendingTip: q.AttendingTip}}
	}
	ids, err := s.createQuestions(ctx, 0, in, "demo")
	if err != nil {
		return nil, err
	}
	tags := map[string]int64{}
	tag := func(typ, name string) (int64, error) {
		if id, ok := tags[typ+"/"+name]; ok {
			return id, nil
		}
		id, err := s.store.EnsureTag(ctx, typ, name)
		tags[typ+"/"+name] = id
		return id, err
	}
	for i, q := range qs {
		subject, err := tag(TagSubject, q.Subject)
		if err != nil {
			return nil, err
		}
		disease, err := tag(TagDisease, q.Disease)
		if err != nil {
			return nil, err
		}
		if err := s.store.TagQuestion(ctx, ids[i], []int64{subject, disease}); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func (s *Service) seedQuizzes(ctx context.Context, b *demo.Bank, questionIDs []int64) error {
	cats := map[string]int64{}
	for _, name := range b.QuizCategories {
		c := &store.QuizCategory{Name: name}
		if err := s.store.InsertQuizCategory(ctx, c); err != nil {
			return err
		}
		cats[name] = c.ID
	}
	for _, z := range b.Quizzes {
		ids := make([]int64, len(z.Questions))
		for i, idx := range z.Questions {
			ids[i] = questionIDs[idx]
		}
		in := NewQuiz{Title: z.Title, Mode: z.Mode, TimeLimitMinutes: z.TimeLimitMinutes}
		if id, ok := cats[z.Category]; ok {
			in.CategoryID = &id
		}
		quiz, err := s.insertQuiz(ctx, 0, in, ids)
		if err != nil {
			return err
		}
		if z.Published {
			if err := s.store.SetQuizPublished(ctx, quiz.ID, true); err != nil {
				return err
			}
		}
	}
	return nil
}
