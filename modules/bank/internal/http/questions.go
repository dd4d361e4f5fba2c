package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/opt"
)

// Gin needs one wildcard name per path position, so /questions/{id} also
// names the question {id} in /questions/{id}/category and
// /questions/detail/{id}/versions (the spec writes question_id there).

type questionIDInput struct {
	ID int64 `path:"id" minimum:"1"`
}

type questionOutput struct{ Body QuestionBody }

type createQuestionInput struct {
	Body struct {
		QuestionText         string       `json:"question_text" minLength:"1" maxLength:"10000"`
		QuestionType         string       `json:"question_type" maxLength:"20" doc:"mcq or fill_in (canonical, as answered); MCQ, fill-in and non-MCQ are accepted in any letter case"`
		Options              []string     `json:"options" required:"false" maxItems:"20"`
		CorrectAnswer        string       `json:"correct_answer" maxLength:"2000" doc:"for mcq one of the options; for fill_in, accepted answers separated by |"`
		Explanation          string       `json:"explanation" required:"false" maxLength:"20000"`
		OptionExplanations   []string     `json:"option_explanations" required:"false" maxItems:"20"`
		KeyPoints            []string     `json:"key_points" required:"false" maxItems:"50"`
		AttendingTip         string       `json:"attending_tip" required:"false" maxLength:"5000"`
		ExplanationImagePath *string      `json:"explanation_image_path" required:"false" nullable:"true" maxLength:"500"`
		ImagePath            *string      `json:"image_path" required:"false" nullable:"true" maxLength:"500"`
		Figures              []FigureBody `json:"figures" required:"false" maxItems:"20"`
		QuestionCategoryID   *int64       `json:"question_category_id" required:"false" nullable:"true"`
	}
}

type patchQuestionInput struct {
	ID   int64 `path:"id" minimum:"1"`
	Body struct {
		QuestionText         *string                  `json:"question_text,omitempty" required:"false" minLength:"1" maxLength:"10000"`
		QuestionType         *string                  `json:"question_type,omitempty" required:"false" maxLength:"20" doc:"mcq or fill_in (canonical, as answered); MCQ, fill-in and non-MCQ are accepted in any letter case"`
		Options              []string                 `json:"options,omitempty" required:"false" maxItems:"20"`
		CorrectAnswer        *string                  `json:"correct_answer,omitempty" required:"false" maxLength:"2000"`
		Explanation          *string                  `json:"explanation,omitempty" required:"false" maxLength:"20000"`
		OptionExplanations   []string                 `json:"option_explanations,omitempty" required:"false" maxItems:"20"`
		KeyPoints            []string                 `json:"key_points,omitempty" required:"false" maxItems:"50"`
		AttendingTip         *string                  `json:"attending_tip,omitempty" required:"false" maxLength:"5000"`
		ExplanationImagePath httpapi.Nullable[string] `json:"explanation_image_path,omitempty" required:"false" maxLength:"500"`
		ImagePath            httpapi.Nullable[string] `json:"image_path,omitempty" required:"false" maxLength:"500"`
		Figures              []FigureBody             `json:"figures,omitempty" required:"false" maxItems:"20"`
	}
}

type detailInput struct {
	ID        int64              `path:"id" minimum:"1"`
	AttemptID httpapi.OptionalID `query:"attempt_id" minimum:"1" doc:"ask for the answer side inside your own attempt"`
}

type versionsInput struct {
	ID     int64 `path:"id" minimum:"1"`
	Limit  int   `query:"limit" default:"50" minimum:"1" maximum:"200"`
	Offset int   `query:"offset" default:"0" minimum:"0"`
}

// VersionBody is one snapshot: the versioned fields as they were before an
// edit, who made that edit and when.
type VersionBody struct {
	ID         int64        `json:"id"`
	QuestionID int64        `json:"question_id"`
	EditedBy   int64        `json:"edited_by"`
	CreatedAt  time.Time    `json:"created_at"`
	Snapshot   SnapshotBody `json:"snapshot"`
}

// SnapshotBody is the versioned content of a question.
type SnapshotBody struct {
	QuestionText         string       `json:"question_text"`
	QuestionType         string       `json:"question_type"`
	Options              []string     `json:"options"`
	CorrectAnswer        string       `json:"correct_answer"`
	Explanation          string       `json:"explanation"`
	OptionExplanations   []string     `json:"option_explanations"`
	KeyPoints            []string     `json:"key_points"`
	AttendingTip         string       `json:"attending_tip"`
	ExplanationImagePath *string      `json:"explanation_image_path"`
	ImagePath            *string      `json:"image_path"`
	Figures              []FigureBody `json:"figures"`
}

type versionsOutput struct{ Body []VersionBody }

type restoreVersionInput struct {
	QuestionID int64 `path:"question_id" minimum:"1"`
	VersionID  int64 `path:"version_id" minimum:"1"`
}

type pageInput struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

type trashOutput struct {
	Body struct {
		Total     int64          `json:"total"`
		Questions []QuestionBody `json:"questions"`
	}
}

func figures(in []FigureBody) []app.Figure {
	out := make([]app.Figure, 0, len(in))
	for _, f := range in {
		out = append(out, app.Figure(f))
	}
	return out
}

func (h *handlers) createQuestion(ctx context.Context, in *createQuestionInput) (*questionOutput, error) {
	b := in.Body
	q, err := h.svc.CreateQuestion(ctx, auth.MustFrom(ctx), app.NewQuestion{CategoryID: b.QuestionCategoryID,
		Content: app.Content{Type: b.QuestionType, Text: b.QuestionText, Options: b.Options,
			CorrectAnswer: b.CorrectAnswer, Explanation: b.Explanation, OptionExplanations: b.OptionExplanations,
			KeyPoints: b.KeyPoints, AttendingTip: b.AttendingTip,
			ExplanationImagePath: opt.Deref(b.ExplanationImagePath), ImagePath: opt.Deref(b.ImagePath),
			Figures: figures(b.Figures)}})
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: toQuestionBody(q)}, nil
}

func (h *handlers) question(ctx context.Context, in *detailInput) (*questionOutput, error) {
	q, err := h.svc.Detail(ctx, auth.MustFrom(ctx), in.ID, in.AttemptID.Ptr())
	if err != nil {
		return nil, err
	}
	body := []QuestionBody{toQuestionBody(q)}
	if err := withReadMore(ctx, h.svc, body); err != nil {
		return nil, err
	}
	return &questionOutput{Body: body[0]}, nil
}

func (h *handlers) patchQuestion(ctx context.Context, in *patchQuestionInput) (*questionOutput, error) {
	q, err := h.svc.UpdateQuestion(ctx, auth.MustFrom(ctx), in.ID, toPatch(in))
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: toQuestionBody(q)}, nil
}

func (h *handlers) questionVersions(ctx context.Context, in *versionsInput) (*versionsOutput, error) {
	vs, err := h.svc.Versions(ctx, auth.MustFrom(ctx), in.ID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return &versionsOutput{Body: toVersionBodies(vs)}, nil
}

func (h *handlers) restoreVersion(ctx context.Context, in *restoreVersionInput) (*questionOutput, error) {
	q, err := h.svc.RestoreVersion(ctx, auth.MustFrom(ctx), in.QuestionID, in.VersionID)
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: toQuestionBody(q)}, nil
}

func (h *handlers) trashQuestion(ctx context.Context, in *questionIDInput) (*struct{}, error) {
	return nil, h.svc.TrashQuestion(ctx, auth.MustFrom(ctx), in.ID)
}

func (h *handlers) questionTrash(ctx context.Context, in *pageInput) (*trashOutput, error) {
	qs, total, err := h.svc.TrashPage(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	out := &trashOutput{}
	out.Body.Total, out.Body.Questions = total, toQuestionBodies(qs)
	return out, nil
}

func (h *handlers) restoreQuestion(ctx context.Context, in *questionIDInput) (*questionOutput, error) {
	q, err := h.svc.RestoreQuestion(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &questionOutput{Body: toQuestionBody(q)}, nil
}

func (h *handlers) purgeQuestion(ctx context.Context, in *questionIDInput) (*struct{}, error) {
	return nil, h.svc.PurgeQuestion(ctx, auth.MustFrom(ctx), in.ID)
}

func toPatch(in *patchQuestionInput) app.Patch {
	b := in.Body
	pt := app.Patch{Type: b.QuestionType, Text: b.QuestionText, CorrectAnswer: b.CorrectAnswer,
		Explanation: b.Explanation, AttendingTip: b.AttendingTip}
	if b.Options != nil {
		pt.Options = &b.Options
	}
	if b.OptionExplanations != nil {
		pt.OptionExplanations = &b.OptionExplanations
	}
	if b.KeyPoints != nil {
		pt.KeyPoints = &b.KeyPoints
	}
	if b.Figures != nil {
		f := figures(b.Figures)
		pt.Figures = &f
	}
	pt.ExplanationImagePath = clearable(b.ExplanationImagePath)
	pt.ImagePath = clearable(b.ImagePath)
	return pt
}

// clearable maps a nullable path: left out stays, null or "" clears.
func clearable(n httpapi.Nullable[string]) *string {
	if !n.Sent {
		return nil
	}
	if n.Null {
		empty := ""
		return &empty
	}
	return &n.Value
}

func toVersionBody(v app.Version) VersionBody {
	c := v.Content
	b := VersionBody{ID: v.ID, QuestionID: v.QuestionID, EditedBy: v.EditedBy,
		CreatedAt: v.CreatedAt,
		Snapshot: SnapshotBody{QuestionText: c.Text, QuestionType: c.Type, Options: opt.NonNil(c.Options),
			CorrectAnswer: c.CorrectAnswer, Explanation: c.Explanation,
			OptionExplanations: opt.NonNil(c.OptionExplanations), KeyPoints: opt.NonNil(c.KeyPoints),
			AttendingTip: c.AttendingTip, ExplanationImagePath: opt.NilIfZero(c.ExplanationImagePath),
			ImagePath: opt.NilIfZero(c.ImagePath), Figures: []FigureBody{}}}
	for _, f := range c.Figures {
		b.Snapshot.Figures = append(b.Snapshot.Figures, FigureBody(f))
	}
	return b
}

func toVersionBodies(vs []app.Version) []VersionBody {
	out := make([]VersionBody, len(vs))
	for i, v := range vs {
		out[i] = toVersionBody(v)
	}
	return out
}
