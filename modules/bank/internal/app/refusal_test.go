package app

import (
	"errors"
	"testing"

	"github.com/roundsedu/rounds/platform/apperr"
)

func TestRefusedTypesEachNamedField(t *testing.T) {
	bank := invalid([]apperr.Field{{Field: "questions[2].options[1]", Message: "an option is empty"},
		{Field: "questions[0].question_category_id", Message: "no such question category"}})
	err := refused(bank, 3)
	var r *RefusedQuestions
	if !errors.As(err, &r) {
		t.Fatalf("refused(%v) = %T, want *RefusedQuestions", bank, err)
	}
	want := []QuestionRefusal{{Item: 2, Field: "options[1]", Rule: "an option is empty"},
		{Item: 0, Field: "question_category_id", Rule: "no such question category"}}
	if len(r.Refusals) != len(want) || r.Refusals[0] != want[0] || r.Refusals[1] != want[1] {
		t.Fatalf("refusals = %+v, want %+v", r.Refusals, want)
	}
	if ae, ok := apperr.As(err); !ok || ae != bank {
		t.Fatalf("the bank's 422 is not wrapped: %v", err)
	}
}

func TestRefusedLeavesOtherErrorsAlone(t *testing.T) {
	for _, err := range []error{
		errors.New("connection lost"),
		apperr.Conflictf("busy"),
		invalid([]apperr.Field{{Field: "questions[3].text", Message: "past the request"}}),
		invalid([]apperr.Field{{Field: "questions[-1].text", Message: "negative"}}),
		invalid([]apperr.Field{{Field: "questions[1].", Message: "no field"}}),
		invalid([]apperr.Field{{Field: "title", Message: "not a question's"}}),
	} {
		if got := refused(err, 3); got != err {
			t.Errorf("refused(%v) = %v, want it unchanged", err, got)
		}
	}
}
