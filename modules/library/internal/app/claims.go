package app

import (
	"context"
	"fmt"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
)

// TaskApplyTopicClaims is the scheduled job's name.
const TaskApplyTopicClaims = "apply_topic_claims"

// claimsBatch is how many questions the job checks with the bank at once.
const claimsBatch = 1000

// checkClaims validates the categories an article claims.
func (s *Service) checkClaims(ctx context.Context, ids []int64) error {
	if len(ids) > 100 {
		return apperr.Invalidf("claimed_category_ids", "an article claims at most 100 categories")
	}
	for i, id := range ids {
		if err := s.ports.Categories.CheckCategory(ctx, fmt.Sprintf("claimed_category_ids[%d]", i), id); err != nil {
			return err
		}
	}
	return nil
}

// OnQuestionChanged is the live sync from the bank: it records where the
// question is filed and applies the claims to its links (in the event's
// transaction; a redelivery changes nothing).
func (s *Service) OnQuestionChanged(ctx context.Context, id int64, categoryID *int64, live bool, version int) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		return s.store.UpsertFiling(ctx, id, categoryID, live, version)
	})
}

// ApplyTopicClaims catches what bypassed the live sync points: it checks
// every question the library knows with the bank (a bulk re-filing or
// restore done in SQL sends no event) and then applies every claim to
// every link (claims or articles written in bulk).
func (s *Service) ApplyTopicClaims(ctx context.Context) error {
	var corrected int64
	for after := int64(0); ; {
		ids, err := s.store.KnownQuestions(ctx, after, claimsBatch)
		if err != nil || len(ids) == 0 {
			if err != nil {
				return err
			}
			break
		}
		after = ids[len(ids)-1]
		filed, err := s.ports.Categories.QuestionFilings(ctx, ids) // outside any transaction
		if err != nil {
			return err
		}
		fs := make([]store.Filing, len(ids))
		for i, id := range ids {
			f, live := filed[id]
			fs[i] = store.Filing{QuestionID: id, CategoryID: f.CategoryID, Live: live}
		}
		err = s.db.Tx(ctx, func(ctx context.Context) error {
			n, err := s.store.CorrectFilings(ctx, fs)
			corrected += n
			return err
		})
		if err != nil {
			return err
		}
	}
	var added, removed int64
	err := s.db.Tx(ctx, func(ctx context.Context) (err error) {
		added, removed, err = s.store.RelinkAll(ctx)
		return err
	})
	if err == nil && corrected+added+removed > 0 {
		s.log.Info("apply_topic_claims caught changes", "filings_corrected", corrected, "links_added", added,
			"links_removed", removed)
	}
	return err
}

// ReadMore gives, for each question, the published articles claiming its
// topic (the "read more" of a question's review).
func (s *Service) ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]store.Article, error) {
	return s.store.ReadMore(ctx, questionIDs)
}

// ClaimingSections gives the opening sections of the published articles
// claiming a question's topic (the tutor's reading), bounded in articles,
// sections and characters.
func (s *Service) ClaimingSections(ctx context.Context, questionID int64, articles, perArticle, chars int) ([]store.ClaimedSection, error) {
	return s.store.ClaimingSections(ctx, questionID, articles, perArticle, chars)
}
