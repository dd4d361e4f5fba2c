package app

import (
	"encoding/json"
	"github.com/roundsedu/rounds/platform/opt"
)

// snapshot is the stored JSON of a version: the versioned fields under
// their API names, so a reader of the table sees what a client saw.
type snapshot struct {
	QuestionType         string           `json:"question_type"`
	QuestionText         string           `json:"question_text"`
	Options              []string         `json:"options"`
	CorrectAnswer        string           `json:"correct_answer"`
	Explanation          string           `json:"explanation"`
	OptionExplanations   []string         `json:"option_explanations"`
	KeyPoints            []string         `json:"key_points"`
	AttendingTip         string           `json:"attending_tip"`
	ExplanationImagePath string           `json:"explanation_image_path"`
	ImagePath            string           `json:"image_path"`
	Figures              []snapshotFigure `json:"figures"`
}

type snapshotFigure struct {
	Path    string `json:"path"`
	Role    string `json:"role"`
	Caption string `json:"caption,omitempty"`
}

func toSnapshot(c Content) snapshot {
	s := snapshot{QuestionType: c.Type, QuestionText: c.Text, Options: opt.NonNil(c.Options),
		CorrectAnswer: c.CorrectAnswer, Explanation: c.Explanation,
		OptionExplanations: opt.NonNil(c.OptionExplanations), KeyPoints: opt.NonNil(c.KeyPoints),
		AttendingTip: c.AttendingTip, ExplanationImagePath: c.ExplanationImagePath, ImagePath: c.ImagePath,
		Figures: []snapshotFigure{}}
	for _, f := range c.Figures {
		s.Figures = append(s.Figures, snapshotFigure(f))
	}
	return s
}

func fromSnapshot(data []byte) (Content, error) {
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return Content{}, err
	}
	c := Content{Type: s.QuestionType, Text: s.QuestionText, Options: opt.NonNil(s.Options),
		CorrectAnswer: s.CorrectAnswer, Explanation: s.Explanation,
		OptionExplanations: opt.NonNil(s.OptionExplanations), KeyPoints: opt.NonNil(s.KeyPoints),
		AttendingTip: s.AttendingTip, ExplanationImagePath: s.ExplanationImagePath, ImagePath: s.ImagePath,
		Figures: []Figure{}}
	for _, f := range s.Figures {
		c.Figures = append(c.Figures, Figure(f))
	}
	return c, nil
}
