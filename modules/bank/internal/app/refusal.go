package app

import (
	"strconv"
	"strings"

	"github.com/roundsedu/rounds/platform/apperr"
)

// QuestionRefusal is one reason the bank refused a question another module
// asked it to file: which question (its index in the request), which of
// its fields, and the rule that field broke.
type QuestionRefusal struct {
	Item  int    // index in the CreateQuestions request
	Field string // the question's field: "options", "options[1]", "question_category_id"
	Rule  string // what is wrong, in one line: "no such question category"
}

// RefusedQuestions is CreateQuestions' error when questions break the
// bank's rules; nothing was filed. Find it with errors.As. It wraps the
// bank's own 422 (fields named "questions[i].field"), so a caller that
// answers it as it is still can.
type RefusedQuestions struct {
	Refusals []QuestionRefusal
	err      *apperr.Error
}

func (e *RefusedQuestions) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	rules := make([]string, len(e.Refusals))
	for i, r := range e.Refusals {
		rules[i] = "question " + strconv.Itoa(r.Item) + " " + r.Field + ": " + r.Rule
	}
	return "bank refused questions: " + strings.Join(rules, "; ")
}

func (e *RefusedQuestions) Unwrap() error {
	if e.err == nil {
		return nil
	}
	return e.err
}

// refused types the bank's validation error for n questions: each field
// the bank named "questions[i].field" becomes a refusal of item i. Any
// other error, or a field of no question, is returned as it was.
func refused(err error, n int) error {
	ae, ok := apperr.As(err)
	if !ok || ae.Code != apperr.Invalid || len(ae.Fields) == 0 {
		return err
	}
	out := &RefusedQuestions{err: ae}
	for _, f := range ae.Fields {
		item, field, ok := questionField(f.Field, n)
		if !ok {
			return err
		}
		out.Refusals = append(out.Refusals, QuestionRefusal{Item: item, Field: field, Rule: f.Message})
	}
	return out
}

// questionField splits "questions[2].options" (the bank's naming of a
// field of the i-th question of a request) into 2 and "options".
func questionField(name string, n int) (item int, field string, ok bool) {
	rest, ok := strings.CutPrefix(name, "questions[")
	if !ok {
		return 0, "", false
	}
	idx, field, ok := strings.Cut(rest, "].")
	if !ok {
		return 0, "", false
	}
	item, err := strconv.Atoi(idx)
	if err != nil || item < 0 || item >= n || field == "" {
		return 0, "", false
	}
	return item, field, true
}
