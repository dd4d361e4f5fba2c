package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/plans/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// ExamDomainItem is a blueprint domain of an exam.
type ExamDomainItem struct {
	BlueprintDomainItem
	ArticleIDs []int64 `json:"article_ids,omitempty" required:"false" maxItems:"20" doc:"articles a learner weak here should read"`
	DeckIDs    []int64 `json:"deck_ids,omitempty" required:"false" maxItems:"20" doc:"decks a learner weak here should study"`
}

// ExamResponse is an exam on the wire (its question ids are the paper;
// the answers stay with the bank).
type ExamResponse struct {
	ID               int64     `json:"id"`
	Title            string    `json:"title"`
	TimeLimitMinutes int       `json:"time_limit_minutes"`
	QuestionCount    int       `json:"question_count"`
	Domains          []string  `json:"domains"`
	IsPublished      int       `json:"is_published" enum:"0,1"`
	CreatedAt        time.Time `json:"created_at"`
}

func toExam(e *app.Exam) ExamResponse {
	out := ExamResponse{ID: e.ID, Title: e.Title, TimeLimitMinutes: e.TimeLimitMinutes, QuestionCount: len(e.QuestionIDs),
		IsPublished: e.IsPublished, CreatedAt: e.CreatedAt, Domains: make([]string, len(e.Domains))}
	for i, d := range e.Domains {
		out.Domains[i] = d.Name
	}
	return out
}

// ExamDomainScore is a learner's score in one domain.
type ExamDomainScore struct {
	Name       string  `json:"name"`
	Correct    int     `json:"correct"`
	Total      int     `json:"total"`
	Percentage float64 `json:"percentage"`
	ArticleIDs []int64 `json:"article_ids"`
	DeckIDs    []int64 `json:"deck_ids"`
}

// ExamReport is a learner's exam result.
type ExamReport struct {
	ExamID     int64             `json:"exam_id"`
	Score      int               `json:"score"`
	Total      int               `json:"total"`
	Percentage float64           `json:"percentage"`
	Percentile float64           `json:"percentile" doc:"share of sitters below you plus half of those tied (you included), in percent"`
	Sitters    int               `json:"sitters"`
	Domains    []ExamDomainScore `json:"domains"`
	Weakest    []ExamDomainScore `json:"weakest" doc:"the three lowest domains, lowest first, with their articles and decks"`
}

func toScores(ds []app.DomainScore) []ExamDomainScore {
	out := make([]ExamDomainScore, len(ds))
	for i, d := range ds {
		out[i] = ExamDomainScore{Name: d.Name, Correct: d.Correct, Total: d.Total, Percentage: d.Percentage,
			ArticleIDs: d.ArticleIDs, DeckIDs: d.DeckIDs}
	}
	return out
}

type examOut struct{ Body ExamResponse }

type examPath struct {
	ID int64 `path:"exam_id" minimum:"1"`
}

// CreateExamInput draws a new exam paper.
type CreateExamInput struct {
	Body struct {
		Title            string           `json:"title" maxLength:"1000"`
		Size             int              `json:"size" minimum:"1" maximum:"2000" doc:"questions on the paper"`
		TimeLimitMinutes int              `json:"time_limit_minutes" minimum:"1" maximum:"1440"`
		Publish          bool             `json:"publish,omitempty" required:"false" doc:"open it to learners at once"`
		Domains          []ExamDomainItem `json:"domains" minItems:"1" maxItems:"50"`
		Seed             *uint64          `json:"seed,omitempty" required:"false"`
	} `nameHint:"Post-examsRequest"`
}

// PublishExamInput opens or closes an exam.
type PublishExamInput struct {
	ID        int64 `path:"exam_id" minimum:"1"`
	Published bool  `query:"published" default:"true"`
}

type examStartedOut struct {
	Body struct {
		ExamID int64 `json:"exam_id"`
		QuizID int64 `json:"quiz_id"`
		Reused bool  `json:"reused"`
	} `nameHint:"Post-exams-by-exam-id-startResponse"`
}

type reportOut struct{ Body ExamReport }

func toExamDomains(ds []ExamDomainItem) []app.ExamDomainIn {
	var out []app.ExamDomainIn
	for _, d := range ds {
		out = append(out, app.ExamDomainIn{BlueprintDomain: d.domain(), ArticleIDs: d.ArticleIDs, DeckIDs: d.DeckIDs})
	}
	return out
}

func toReport(examID int64, rep *app.Report) ExamReport {
	return ExamReport{ExamID: examID, Score: rep.Score, Total: rep.Total,
		Percentage: rep.Percentage, Percentile: rep.Percentile, Sitters: rep.Sitters,
		Domains: toScores(rep.Domains), Weakest: toScores(rep.Weakest)}
}

func (h *handlers) createExam(ctx context.Context, in *CreateExamInput) (*examOut, error) {
	b := in.Body
	ne := app.NewExam{Title: b.Title, Size: b.Size, TimeLimitMinutes: b.TimeLimitMinutes, Publish: b.Publish, Seed: b.Seed,
		Domains: toExamDomains(b.Domains)}
	return examOf(h.svc.CreateExam(ctx, auth.MustFrom(ctx), ne))
}

func (h *handlers) listExams(ctx context.Context, in *httpapi.Page) (*httpapi.Listing[ExamResponse], error) {
	es, total, err := h.svc.Exams(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(es, total, toExam), nil
}

func (h *handlers) publishExam(ctx context.Context, in *PublishExamInput) (*examOut, error) {
	return examOf(h.svc.PublishExam(ctx, in.ID, in.Published))
}

func (h *handlers) getExam(ctx context.Context, in *examPath) (*examOut, error) {
	return examOf(h.svc.Exam(ctx, auth.MustFrom(ctx), in.ID))
}

func (h *handlers) startExam(ctx context.Context, in *examPath) (*examStartedOut, error) {
	st, err := h.svc.StartExam(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	out := &examStartedOut{}
	out.Body.ExamID, out.Body.QuizID, out.Body.Reused = in.ID, st.QuizID, st.Reused
	return out, nil
}

func (h *handlers) examReport(ctx context.Context, in *examPath) (*reportOut, error) {
	rep, err := h.svc.Report(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &reportOut{toReport(in.ID, rep)}, nil
}

// examOf answers a service call that returns an exam.
func examOf(e *app.Exam, err error) (*examOut, error) {
	if err != nil {
		return nil, err
	}
	return &examOut{toExam(e)}, nil
}
