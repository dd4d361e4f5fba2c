package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/roundsedu/rounds/platform/module"
)

// AttemptExport is one sitting with its questions as sat and the answers
// given (answers is a JSON array built by the query, one attempt's worth).
type AttemptExport struct {
	ID             int64           `json:"id"`
	QuizID         int64           `json:"quiz_id"`
	QuizTitle      string          `json:"quiz_title"`
	Mode           string          `json:"mode"`
	TotalQuestions int             `json:"total_questions"`
	Score          *int            `json:"score"`
	Percentage     *float64        `json:"percentage"`
	StartedAt      time.Time       `json:"started_at"`
	DeadlineAt     *time.Time      `json:"deadline_at"`
	CompletedAt    *time.Time      `json:"completed_at"`
	AutoSubmitted  bool            `json:"auto_submitted"`
	Answers        json.RawMessage `json:"answers"`
}

// ProgressExport is an autosave of an unfinished attempt.
type ProgressExport struct {
	AttemptID  int64           `json:"attempt_id"`
	QuizID     int64           `json:"quiz_id"`
	Answers    json.RawMessage `json:"answers"`
	Flagged    json.RawMessage `json:"flagged"`
	CurrentIdx int             `json:"current_idx"`
	Mode       *string         `json:"mode"`
	TimeLeft   *float64        `json:"time_left"`
	Device     string          `json:"device"`
	SavedAt    time.Time       `json:"saved_at"`
	ExpiresAt  time.Time       `json:"expires_at"`
}

// ReminderExport is a missed question due for review.
type ReminderExport struct {
	QuestionID   int64     `json:"question_id"`
	Box          int       `json:"box"`
	Misses       int       `json:"misses"`
	DueAt        time.Time `json:"due_at"`
	LastMissedAt time.Time `json:"last_missed_at"`
}

// FolderExport is a folder of collections.
type FolderExport struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
}

// CollectionExport is a named list of questions.
type CollectionExport struct {
	ID          int64           `json:"id"`
	FolderID    *int64          `json:"folder_id"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	CreatedAt   time.Time       `json:"created_at"`
	QuestionIDs json.RawMessage `json:"question_ids"`
}

// NoteExport is a private note on a question.
type NoteExport struct {
	QuestionID int64     `json:"question_id"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// answersOpen is Attempt.AnswersOpen in SQL over attempts a: a study
// attempt shows its answer side at once, a timed one after submission.
const answersOpen = `(a.mode = 'learning' OR a.completed_at IS NOT NULL)`

// ExportPersonalData writes the user's attempts (answers included),
// saved progress, reminder schedule, folders, collections and notes. An
// attempt's questions carry what GET /attempts/{id} shows of them: the
// correct answer only once the attempt opens it (a running timed attempt's
// stays null, or the export would be its answer key), whether an answer
// was right only once the attempt is completed (unanswered is wrong).
func (s *Store) ExportPersonalData(ctx context.Context, userID int64, x *module.Export) error {
	conn := s.db.Conn(ctx)
	if err := module.Rows[AttemptExport](x, "attempts", conn.Raw(`
				SELECT a.id, a.quiz_id, a.quiz_title, a.mode, a.total_questions, a.score, a.percentage,
				       a.started_at, a.deadline_at, a.completed_at, a.auto_submitted,
				       (SELECT coalesce(json_agg(json_build_object(
				                 'position', an.position, 'question_id', an.question_id,
				                 'version', q.version, 'question_type', q.question_type,
				                 'question_text', q.question_text, 'options', q.options,
				                 'correct_answer', CASE WHEN `+answersOpen+` THEN q.correct_answer END,
				                 'user_answer', an.user_answer,
				                 'is_correct', CASE WHEN a.completed_at IS NOT NULL THEN coalesce(an.is_correct, false) END)
				                 ORDER BY an.position), '[]')
				          FROM attempts.answers an JOIN attempts.sat_questions q ON q.id = an.sat_question_id
				         WHERE an.attempt_id = a.id) AS answers
				  FROM attempts.attempts a WHERE a.user_id = ? ORDER BY a.started_at, a.id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[ProgressExport](x, "saved_progress", conn.Raw(`
				SELECT attempt_id, quiz_id, answers, coalesce(flagged, '[]') AS flagged, current_idx, mode, time_left,
				       device, saved_at, expires_at
				  FROM attempts.saved_progress WHERE user_id = ? ORDER BY saved_at, attempt_id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[ReminderExport](x, "reminders", conn.Raw(`
				SELECT question_id, box, misses, due_at, last_missed_at
				  FROM attempts.review_schedule WHERE user_id = ? ORDER BY due_at, question_id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[FolderExport](x, "folders", conn.Raw(`
				SELECT id, name, created_at FROM attempts.folders WHERE user_id = ? ORDER BY id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[CollectionExport](x, "collections", conn.Raw(`
				SELECT c.id, c.folder_id, c.name, c.description, c.created_at,
				       (SELECT coalesce(json_agg(cq.question_id ORDER BY cq.added_at, cq.question_id), '[]')
				          FROM attempts.collection_questions cq WHERE cq.collection_id = c.id) AS question_ids
				  FROM attempts.collections c WHERE c.user_id = ? ORDER BY c.id`, userID)); err != nil {
		return err
	}
	if err := module.Rows[NoteExport](x, "notes", conn.Raw(`
				SELECT question_id, body, created_at, updated_at
				  FROM attempts.notes WHERE user_id = ? ORDER BY id`, userID)); err != nil {
		return err
	}
	return nil
}
