package http

import (
	"time"

	"github.com/roundsedu/rounds/modules/attempts/internal/app"
	"github.com/roundsedu/rounds/platform/opt"
)

// AttemptResponse is an attempt on the wire (the spec's AttemptResponse and
// a few fields a client needs to run it). score and percentage are null
// until the attempt is completed.
type AttemptResponse struct {
	ID               int64      `json:"id"`
	QuizID           int64      `json:"quiz_id"`
	QuizTitle        string     `json:"quiz_title" doc:"the title when the attempt started"`
	Mode             string     `json:"mode" enum:"timed,learning"`
	Score            *int       `json:"score"`
	TotalQuestions   int        `json:"total_questions"`
	Percentage       *float64   `json:"percentage"`
	StartedAt        time.Time  `json:"started_at"`
	CompletedAt      *time.Time `json:"completed_at"`
	TimeLimitSeconds *int       `json:"time_limit_seconds" doc:"timed attempts of a quiz with a time limit"`
	DeadlineAt       *time.Time `json:"deadline_at" doc:"when a timed attempt's time runs out"`
	AutoSubmitted    bool       `json:"auto_submitted" doc:"submitted for the learner when time ran out"`
}

func toAttemptResponse(a *app.Attempt) AttemptResponse {
	return AttemptResponse{ID: a.ID, QuizID: a.QuizID, QuizTitle: a.QuizTitle, Mode: a.Mode, Score: a.Score,
		TotalQuestions: a.TotalQuestions, Percentage: a.Percentage, StartedAt: a.StartedAt,
		CompletedAt: a.CompletedAt, TimeLimitSeconds: a.TimeLimitSeconds, DeadlineAt: a.DeadlineAt,
		AutoSubmitted: a.AutoSubmitted}
}

func toAttemptResponses(as []app.Attempt) []AttemptResponse {
	out := make([]AttemptResponse, len(as))
	for i := range as {
		out[i] = toAttemptResponse(&as[i])
	}
	return out
}

// AnswerResponse is one question of an attempt as it was sat, with the
// learner's answer. The answer side (correct_answer, is_correct,
// explanation and its companions) is null until the attempt opens it: at
// once in learning mode, after submission in timed mode.
type AnswerResponse struct {
	Position             int      `json:"position"`
	QuestionID           int64    `json:"question_id"`
	Version              int      `json:"version" doc:"the question's version when sat"`
	QuestionText         string   `json:"question_text"`
	QuestionType         string   `json:"question_type" enum:"mcq,fill_in"`
	Options              []string `json:"options"`
	ImagePath            *string  `json:"image_path"`
	UserAnswer           *string  `json:"user_answer"`
	Flagged              bool     `json:"flagged" doc:"you flagged it while sitting (sent with the submission)"`
	CorrectAnswer        *string  `json:"correct_answer"`
	IsCorrect            *bool    `json:"is_correct"`
	Explanation          *string  `json:"explanation"`
	OptionExplanations   []string `json:"option_explanations"`
	KeyPoints            []string `json:"key_points"`
	AttendingTip         *string  `json:"attending_tip"`
	ExplanationImagePath *string  `json:"explanation_image_path"`
}

// AttemptDetail is an attempt with every question as sat.
type AttemptDetail struct {
	AttemptResponse
	AnswersShown bool             `json:"answers_shown" doc:"false while a timed attempt is running: the answer side is null"`
	Answers      []AnswerResponse `json:"answers"`
}

func toAttemptDetail(d *app.Detail) AttemptDetail {
	out := AttemptDetail{AttemptResponse: toAttemptResponse(&d.Attempt), AnswersShown: d.AnswersOpen(),
		Answers: make([]AnswerResponse, len(d.Answers))}
	for i, a := range d.Answers {
		q := a.SatQuestion
		r := AnswerResponse{Position: a.Position, QuestionID: q.QuestionID, Version: q.Version,
			QuestionText: q.QuestionText, QuestionType: q.QuestionType, Options: opt.NonNil(q.Options), ImagePath: opt.NilIfZero(q.ImagePath),
			UserAnswer: a.UserAnswer, Flagged: a.Flagged}
		if out.AnswersShown {
			r.CorrectAnswer, r.Explanation, r.AttendingTip = &q.CorrectAnswer, &q.Explanation, &q.AttendingTip
			r.OptionExplanations, r.KeyPoints = opt.NonNil(q.OptionExplanations), opt.NonNil(q.KeyPoints)
			r.ExplanationImagePath = opt.NilIfZero(q.ExplanationImagePath)
			if d.Completed() {
				r.IsCorrect = a.IsCorrect
				if r.IsCorrect == nil {
					no := false
					r.IsCorrect = &no
				}
			}
		}
		out.Answers[i] = r
	}
	return out
}
