package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// TrashQuestion moves a live question to the trash (moderators only). It
// leaves every quiz (trashed questions are skipped wherever quizzes are
// read) until it is restored or purged.
func (s *Service) TrashQuestion(ctx context.Context, p auth.Principal, id int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators delete questions")
	}
	return s.write(ctx, func(ctx context.Context) error {
		return s.trash(ctx, id)
	})
}

func (s *Service) trash(ctx context.Context, id int64) error {
	q, err := s.liveQuestion(ctx, id, true)
	if err != nil {
		return err
	}
	if err := s.store.SetDeleted(ctx, &q.Question, true); err != nil {
		return err
	}
	return s.publish(ctx, ChangeDeleted, &q.Question)
}

// trashedQuestion locks a question that must be in the trash: 404 when
// missing, 400 (refusal) when live.
func (s *Service) trashedQuestion(ctx context.Context, id int64, refusal string) (*store.QuestionWithFiling, error) {
	q, err := s.store.Question(ctx, id, true)
	if err != nil {
		return nil, notFoundOr(err, "question")
	}
	if q.DeletedAt == nil {
		return nil, apperr.BadRequestf("%s", refusal)
	}
	return q, nil
}

// RestoreQuestion brings a trashed question back (moderators only; 400 when
// it is not in the trash).
func (s *Service) RestoreQuestion(ctx context.Context, p auth.Principal, id int64) (*Question, error) {
	if !p.IsModerator() {
		return nil, apperr.Forbiddenf("only moderators restore questions")
	}
	var out *Question
	err := s.write(ctx, func(ctx context.Context) error {
		q, err := s.trashedQuestion(ctx, id, "the question is not in the trash")
		if err != nil {
			return err
		}
		if err := s.store.SetDeleted(ctx, &q.Question, false); err != nil {
			return err
		}
		if err := s.publish(ctx, ChangeRestored, &q.Question); err != nil {
			return err
		}
		out = toQuestion(q)
		out.CanEdit, out.AnswersShown = true, true
		return nil
	})
	return out, err
}

// PurgeQuestion removes a trashed question for good (moderators only; 400
// when it is not in the trash). Its id is never reissued.
func (s *Service) PurgeQuestion(ctx context.Context, p auth.Principal, id int64) error {
	if !p.IsModerator() {
		return apperr.Forbiddenf("only moderators delete questions permanently")
	}
	return s.write(ctx, func(ctx context.Context) error {
		q, err := s.trashedQuestion(ctx, id, "only a question in the trash can be deleted permanently: delete it first")
		if err != nil {
			return err
		}
		if err := s.store.PurgeQuestion(ctx, id); err != nil {
			return err
		}
		return s.publish(ctx, ChangePurged, &q.Question)
	})
}

// TrashPage lists trashed questions, most recently trashed first
// (moderators only).
func (s *Service) TrashPage(ctx context.Context, p auth.Principal, limit, offset int) ([]*Question, int64, error) {
	if !p.IsModerator() {
		return nil, 0, apperr.Forbiddenf("only moderators see the trash")
	}
	rows, total, err := s.store.TrashPage(ctx, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*Question, 0, len(rows))
	for i := range rows {
		q := toQuestion(&rows[i])
		q.CanEdit, q.AnswersShown = true, true
		out = append(out, q)
	}
	return out, total, nil
}
