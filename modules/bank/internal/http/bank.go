package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/opt"
)

// BankFilterInput is the filters the listing and its ids share.
type BankFilterInput struct {
	Q             string             `query:"q" maxLength:"500" doc:"search text"`
	QuizID        httpapi.OptionalID `query:"quiz_id" doc:"questions of this quiz"`
	CategoryID    httpapi.OptionalID `query:"category_id" doc:"this category and everything below it"`
	CategoryIDs   []int64            `query:"category_ids" maxItems:"200" doc:"comma-separated; any of these categories (each with its branch)"`
	Uncategorized bool               `query:"uncategorized" default:"false" doc:"questions filed nowhere (OR with the categories)"`
	FavoritesOnly bool               `query:"favorites_only" default:"false"`
	TagIDs        []int64            `query:"tag_ids" maxItems:"50" doc:"comma-separated; every one of these tags"`
	QuestionType  string             `query:"question_type" maxLength:"20" doc:"only this type: mcq or fill_in (canonical, as answered); MCQ, fill-in and non-MCQ are accepted in any letter case"`
	Difficulty    []string           `query:"difficulty" maxItems:"3" enum:"easy,medium,hard" doc:"comma-separated; rated any of these levels (unrated questions never match)"`
}

func (in *BankFilterInput) filter() app.BankFilter {
	f := app.BankFilter{Text: in.Q, QuizID: in.QuizID.Ptr(), CategoryIDs: in.CategoryIDs,
		Uncategorized: in.Uncategorized, FavoritesOnly: in.FavoritesOnly, TagIDs: in.TagIDs,
		Type: in.QuestionType, Difficulties: in.Difficulty}
	if c := in.CategoryID.Ptr(); c != nil {
		f.CategoryIDs = append([]int64{*c}, f.CategoryIDs...)
	}
	return f
}

type bankInput struct {
	BankFilterInput
	SearchMode string `query:"search_mode" enum:"keyword,semantic,hybrid" default:"hybrid"`
	Limit      int    `query:"limit" default:"50" minimum:"1" maximum:"200"`
	Offset     int    `query:"offset" default:"0" minimum:"0"`
}

// BankQuestionBody is one listed question; correct_answer and explanation
// are null where the caller may not edit it.
type BankQuestionBody struct {
	ID                   int64    `json:"id"`
	QuizID               *int64   `json:"quiz_id"`
	QuizTitle            *string  `json:"quiz_title"`
	QuestionCategoryID   *int64   `json:"question_category_id"`
	QuestionCategoryName *string  `json:"question_category_name"`
	QuestionText         string   `json:"question_text"`
	QuestionType         string   `json:"question_type"`
	Options              []string `json:"options"`
	CorrectAnswer        *string  `json:"correct_answer"`
	Explanation          *string  `json:"explanation"`
	ImagePath            *string  `json:"image_path"`
	// No enum on a nullable level: huma would not list null in it.
	Difficulty *string `json:"difficulty" nullable:"true" doc:"easy, medium or hard; null until rated"`
	CanEdit    bool    `json:"can_edit"`
}

type bankOutput struct {
	Body struct {
		Total     int64              `json:"total"`
		Questions []BankQuestionBody `json:"questions"`
		// SearchMode is the matcher that ran (null without q): semantic and
		// hybrid fall back to keyword when search is unavailable.
		SearchMode *string `json:"search_mode"`
	}
}

type bankIDsOutput struct{ Body []int64 }

type fileInput struct {
	ID         int64              `path:"id" minimum:"1"`
	CategoryID httpapi.OptionalID `query:"category_id" doc:"absent: uncategorised"`
}

type fileOutput struct {
	Body struct {
		QuestionID         int64  `json:"question_id"`
		QuestionCategoryID *int64 `json:"question_category_id"`
	}
}

type bulkFileInput struct {
	Body struct {
		QuestionIDs []int64 `json:"question_ids" minItems:"1" maxItems:"1000"`
		CategoryID  *int64  `json:"category_id" required:"false" nullable:"true" doc:"null: uncategorised"`
	}
}

type bulkFileOutput struct {
	Body struct {
		Updated            int    `json:"updated" doc:"questions that moved"`
		QuestionCategoryID *int64 `json:"question_category_id"`
	}
}

type fromBankInput struct {
	Body struct {
		Title            string  `json:"title" minLength:"1" maxLength:"200"`
		QuestionIDs      []int64 `json:"question_ids" minItems:"1" maxItems:"500"`
		Mode             string  `json:"mode,omitempty" required:"false" enum:"timed,learning" default:"timed"`
		TimeLimitMinutes *int    `json:"time_limit_minutes" required:"false" nullable:"true" minimum:"1" maximum:"1440"`
		CategoryID       *int64  `json:"category_id" required:"false" nullable:"true" doc:"a quiz category"`
	}
}

type quizCreatedOutput struct{ Body QuizCreatedBody }

func (h *handlers) bank(ctx context.Context, in *bankInput) (*bankOutput, error) {
	f := in.filter()
	f.Mode, f.Limit, f.Offset = in.SearchMode, in.Limit, in.Offset
	page, err := h.svc.Bank(ctx, auth.MustFrom(ctx), f)
	if err != nil {
		return nil, err
	}
	out := &bankOutput{}
	out.Body.Total, out.Body.SearchMode = page.Total, opt.NilIfZero(page.Mode)
	out.Body.Questions = toBankQuestions(page.Items)
	return out, nil
}

func (h *handlers) bankIDs(ctx context.Context, in *BankFilterInput) (*bankIDsOutput, error) {
	ids, err := h.svc.BankIDs(ctx, auth.MustFrom(ctx), in.filter())
	if err != nil {
		return nil, err
	}
	return &bankIDsOutput{Body: ids}, nil
}

func (h *handlers) fileQuestion(ctx context.Context, in *fileInput) (*fileOutput, error) {
	cat := in.CategoryID.Ptr()
	if err := h.svc.FileQuestion(ctx, auth.MustFrom(ctx), in.ID, cat); err != nil {
		return nil, err
	}
	out := &fileOutput{}
	out.Body.QuestionID, out.Body.QuestionCategoryID = in.ID, cat
	return out, nil
}

func (h *handlers) fileQuestions(ctx context.Context, in *bulkFileInput) (*bulkFileOutput, error) {
	n, err := h.svc.FileQuestions(ctx, auth.MustFrom(ctx), in.Body.QuestionIDs, in.Body.CategoryID)
	if err != nil {
		return nil, err
	}
	out := &bulkFileOutput{}
	out.Body.Updated, out.Body.QuestionCategoryID = n, in.Body.CategoryID
	return out, nil
}

func (h *handlers) quizFromBank(ctx context.Context, in *fromBankInput) (*quizCreatedOutput, error) {
	b := in.Body
	z, err := h.svc.CreateQuiz(ctx, auth.MustFrom(ctx), app.NewQuiz{Title: b.Title, Mode: b.Mode,
		TimeLimitMinutes: b.TimeLimitMinutes, QuestionIDs: b.QuestionIDs, CategoryID: b.CategoryID})
	if err != nil {
		return nil, err
	}
	return &quizCreatedOutput{Body: toQuizCreated(z)}, nil
}

func toBankQuestions(items []app.BankItem) []BankQuestionBody {
	out := make([]BankQuestionBody, len(items))
	for i := range items {
		out[i] = toBankQuestion(&items[i])
	}
	return out
}

// toBankQuestion shows the answer side only to those who may edit it.
func toBankQuestion(it *app.BankItem) BankQuestionBody {
	b := BankQuestionBody{ID: it.ID, QuizID: it.QuizID, QuizTitle: it.QuizTitle,
		QuestionCategoryID: it.CategoryID, QuestionCategoryName: it.CategoryName,
		QuestionText: it.Text, QuestionType: it.Type, Options: opt.NonNil(it.Options),
		ImagePath: opt.NilIfZero(it.ImagePath), Difficulty: it.Difficulty, CanEdit: it.CanEdit}
	if it.CanEdit {
		b.CorrectAnswer, b.Explanation = ptr(it.CorrectAnswer), ptr(it.Explanation)
	}
	return b
}
