package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/opt"
)

// QuizHistoryResponse is the caller's record on one quiz.
type QuizHistoryResponse struct {
	QuizID            int64             `json:"quiz_id"`
	QuizTitle         string            `json:"quiz_title" doc:"as of the latest attempt"`
	Attempts          int               `json:"attempts"`
	Completed         int               `json:"completed"`
	BestPercentage    *float64          `json:"best_percentage"`
	AveragePercentage *float64          `json:"average_percentage"`
	LastStartedAt     time.Time         `json:"last_started_at"`
	Recent            []AttemptResponse `json:"recent_attempts" doc:"the latest 10, newest first"`
}

type historyOut struct{ Body []QuizHistoryResponse }

func (h *handlers) history(ctx context.Context, in *PageQuery) (*historyOut, error) {
	hs, err := h.svc.History(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &historyOut{Body: toQuizHistoryResponses(hs)}, nil
}

// StreakResponse counts consecutive UTC days with a completed attempt.
type StreakResponse struct {
	CurrentDays int        `json:"current_days" doc:"ending today, or yesterday when nothing is done yet today"`
	LongestDays int        `json:"longest_days"`
	LastActive  *time.Time `json:"last_active" doc:"the last UTC day with a completed attempt"`
}

// CategoryResponse is how the learner does on one question category.
type CategoryResponse struct {
	CategoryID   *int64  `json:"category_id" doc:"null: unfiled, or no longer in the bank"`
	CategoryName *string `json:"category_name"`
	Answered     int     `json:"answered" doc:"questions sat in completed attempts (unanswered count as wrong)"`
	Correct      int     `json:"correct"`
	Percentage   float64 `json:"percentage"`
}

// DashboardResponse is the learner's dashboard.
type DashboardResponse struct {
	Quizzes           int                `json:"quizzes" doc:"quizzes you can sit"`
	Attempts          int                `json:"attempts"`
	CompletedAttempts int                `json:"completed_attempts"`
	InProgress        int                `json:"in_progress"`
	AverageScore      *float64           `json:"average_score" doc:"mean percentage of completed attempts"`
	BestScore         *float64           `json:"best_score"`
	QuestionsAnswered int                `json:"questions_answered"`
	CorrectAnswers    int                `json:"correct_answers"`
	Documents         *int               `json:"documents" doc:"moderators only; null for learners"`
	Streak            StreakResponse     `json:"streak"`
	Categories        []CategoryResponse `json:"categories" doc:"weakest first"`
	RecentAttempts    []AttemptResponse  `json:"recent_attempts"`
	RemindersDue      int                `json:"reminders_due"`
	RemindersDisabled bool               `json:"reminders_disabled"`
}

type dashboardOut struct{ Body DashboardResponse }

func (h *handlers) dashboard(ctx context.Context, _ *struct{}) (*dashboardOut, error) {
	d, err := h.svc.Dashboard(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	out := DashboardResponse{Quizzes: d.Quizzes, Attempts: d.Attempts, CompletedAttempts: d.Completed,
		InProgress: d.InProgress, AverageScore: d.AverageScore, BestScore: d.BestScore,
		QuestionsAnswered: d.QuestionsAnswered, CorrectAnswers: d.CorrectAnswers, Documents: d.Documents,
		Streak:         StreakResponse{CurrentDays: d.Streak.Current, LongestDays: d.Streak.Longest, LastActive: d.Streak.LastActive},
		Categories:     toCategoryResponses(d.Categories),
		RecentAttempts: toAttemptResponses(d.Recent), RemindersDue: d.RemindersDue,
		RemindersDisabled: d.RemindersDisabled}
	return &dashboardOut{Body: out}, nil
}

type remindersIn struct {
	PageQuery
	Due bool `query:"due" default:"false" doc:"only questions due for review now"`
}

// ReminderResponse is one question on the review schedule.
type ReminderResponse struct {
	QuestionID   int64     `json:"question_id"`
	QuizID       int64     `json:"quiz_id" doc:"of the attempt that last moved it"`
	AttemptID    int64     `json:"attempt_id"`
	QuestionText string    `json:"question_text" doc:"as last sat"`
	Box          int       `json:"box" doc:"Leitner box 1-4: due 1, 3, 7, 14 days after the attempt"`
	Misses       int       `json:"misses"`
	DueAt        time.Time `json:"due_at"`
	LastMissedAt time.Time `json:"last_missed_at"`
}

// RemindersResponse is a page of the review schedule.
type RemindersResponse struct {
	RemindersDisabled bool               `json:"reminders_disabled" doc:"when true nothing is scheduled and the list is empty"`
	Total             int                `json:"total"`
	Due               int                `json:"due"`
	Items             []ReminderResponse `json:"items"`
}

type remindersOut struct{ Body RemindersResponse }

func (h *handlers) reminders(ctx context.Context, in *remindersIn) (*remindersOut, error) {
	rs, err := h.svc.Reminders(ctx, auth.MustFrom(ctx), in.Due, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &remindersOut{Body: RemindersResponse{RemindersDisabled: rs.Disabled, Total: rs.Total, Due: rs.Due,
		Items: toReminderResponses(rs.Items)}}, nil
}

func toReminderResponse(r app.Reminder) ReminderResponse {
	return ReminderResponse{QuestionID: r.QuestionID, QuizID: r.QuizID, AttemptID: r.AttemptID,
		QuestionText: r.QuestionText, Box: r.Box, Misses: r.Misses, DueAt: r.DueAt, LastMissedAt: r.LastMissedAt}
}

// QuestionPath names a question.
type QuestionPath struct {
	QuestionID int64 `path:"question_id" minimum:"1"`
}

func (h *handlers) dismissReminder(ctx context.Context, in *QuestionPath) (*struct{}, error) {
	return nil, h.svc.DismissReminder(ctx, auth.MustFrom(ctx), in.QuestionID)
}

func toQuizHistoryResponses(hs []app.QuizHistory) []QuizHistoryResponse {
	out := make([]QuizHistoryResponse, len(hs))
	for i, q := range hs {
		out[i] = QuizHistoryResponse{QuizID: q.QuizID, QuizTitle: q.QuizTitle, Attempts: q.Attempts,
			Completed: q.Completed, BestPercentage: q.BestPercentage, AveragePercentage: q.AveragePercentage,
			LastStartedAt: q.LastStartedAt, Recent: toAttemptResponses(q.Recent)}
	}
	return out
}

func toCategoryResponses(cs []app.CategoryStat) []CategoryResponse {
	out := make([]CategoryResponse, len(cs))
	for i, c := range cs {
		out[i] = CategoryResponse{CategoryID: c.CategoryID, CategoryName: opt.NilIfZero(c.CategoryName),
			Answered: c.Seen, Correct: c.Correct, Percentage: c.Percentage}
	}
	return out
}

func toReminderResponses(rs []app.Reminder) []ReminderResponse {
	out := make([]ReminderResponse, len(rs))
	for i, r := range rs {
		out[i] = toReminderResponse(r)
	}
	return out
}
