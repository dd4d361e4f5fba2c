package attempts_test

import (
	"fmt"
	"strconv"
	"strings"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// q is a question to put in the bank.
type q map[string]any

func mcq(text, correct string, options ...string) q {
	return q{"question_text": text, "question_type": "mcq", "options": options, "correct_answer": correct,
		"explanation": "Because " + correct + "."}
}

func fillIn(text, correct string) q {
	return q{"question_text": text, "question_type": "fill_in", "correct_answer": correct,
		"explanation": "Accepted: " + correct + "."}
}

// createQuestion files a question through the bank's API and returns its id.
func createQuestion(body q) int64 {
	res := mod.Client(h).Post("/api/v1/questions/create", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// openQuestion files a question every learner reaches: one of a published
// quiz (the bank's reach policy).
func openQuestion(body q) int64 {
	id := createQuestion(body)
	createQuiz("Open to learners", quizOpts{}, id)
	return id
}

// quizOpts shape a quiz.
type quizOpts struct {
	mode      string // timed (default) or learning
	limit     int    // minutes; 0 = none
	unpublish bool
}

// createQuiz makes a quiz over the questions through the bank's API and
// publishes it (unless asked not to).
func createQuiz(title string, o quizOpts, ids ...int64) int64 {
	body := map[string]any{"title": title, "question_ids": ids}
	if o.mode != "" {
		body["mode"] = o.mode
	}
	if o.limit > 0 {
		body["time_limit_minutes"] = o.limit
	}
	res := mod.Client(h).Post("/api/v1/questions/from-bank", body)
	ExpectWithOffset(1, res).To(HaveStatus(201))
	id := int64(res.Map()["id"].(float64))
	if !o.unpublish {
		ExpectWithOffset(1, mod.Client(h).Patch(fmt.Sprintf("/api/v1/quizzes/%d/publish?published=true", id), nil)).
			To(HaveStatus(200))
	}
	return id
}

// cardioQuiz is a small quiz: an MCQ, a fill-in with alternatives and a
// second MCQ. It returns the quiz and question ids.
func cardioQuiz(o quizOpts) (int64, []int64) {
	ids := []int64{
		createQuestion(mcq("First-line drug for stable angina symptoms?", "Nitrate", "Nitrate", "Warfarin", "Insulin")),
		createQuestion(fillIn("Name the valve lesion with an opening snap.", "Mitral stenosis|MS")),
		createQuestion(mcq("Which ECG lead looks at the inferior wall?", "II", "I", "II", "V1")),
	}
	return createQuiz("Cardiology basics", o, ids...), ids
}

func learner() *User { return h.NewUser(auth.RoleUser) }

// attempt is the JSON of an attempt.
type attempt struct {
	ID             int64    `json:"id"`
	QuizID         int64    `json:"quiz_id"`
	QuizTitle      string   `json:"quiz_title"`
	Mode           string   `json:"mode"`
	Score          *int     `json:"score"`
	TotalQuestions int      `json:"total_questions"`
	Percentage     *float64 `json:"percentage"`
	StartedAt      string   `json:"started_at"`
	CompletedAt    *string  `json:"completed_at"`
	DeadlineAt     *string  `json:"deadline_at"`
	AutoSubmitted  bool     `json:"auto_submitted"`
	Resumed        bool     `json:"resumed"`
}

// answer is one question of an attempt detail.
type answer struct {
	Position      int      `json:"position"`
	QuestionID    int64    `json:"question_id"`
	Version       int      `json:"version"`
	QuestionText  string   `json:"question_text"`
	Options       []string `json:"options"`
	UserAnswer    *string  `json:"user_answer"`
	CorrectAnswer *string  `json:"correct_answer"`
	IsCorrect     *bool    `json:"is_correct"`
	Explanation   *string  `json:"explanation"`
	Flagged       bool     `json:"flagged"`
}

// detail is the JSON of an attempt detail.
type detail struct {
	attempt
	AnswersShown bool     `json:"answers_shown"`
	Answers      []answer `json:"answers"`
}

func start(u *User, quizID int64, query string) attempt {
	res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d%s", quizID, query), nil)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var a attempt
	res.JSON(&a)
	return a
}

func submit(u *User, attemptID int64, answers map[int64]string) detail {
	var body any
	if answers != nil {
		m := map[string]string{}
		for k, v := range answers {
			m[strconv.FormatInt(k, 10)] = v
		}
		body = map[string]any{"answers": m}
	}
	res := u.Client(h).Post(fmt.Sprintf("/api/v1/attempts/%d/submit", attemptID), body)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var d detail
	res.JSON(&d)
	return d
}

func getDetail(u *User, attemptID int64) detail {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/attempts/%d", attemptID))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var d detail
	res.JSON(&d)
	return d
}

// save is an autosave body.
func save(quizID, attemptID int64, answers map[int64]string, extra map[string]any) map[string]any {
	m := map[string]string{}
	for k, v := range answers {
		m[strconv.FormatInt(k, 10)] = v
	}
	body := map[string]any{"quiz_id": quizID, "attempt_id": attemptID, "answers": m}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

func progressPath(quizID int64) string {
	return fmt.Sprintf("/api/v1/attempts/progress?quiz_id=%d", quizID)
}

// bodyText is a response body without the trailing newline.
func bodyText(res *Response) string { return strings.TrimSpace(string(res.Body)) }
