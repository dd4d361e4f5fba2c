package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

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

// RegisterExams adds the exam and exam-result operations.
func RegisterExams(r *httpapi.Router, svc *app.Service) {
	tags := []string{"exams"}
	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPost, Path: "/exams", Tags: tags, DefaultStatus: nethttp.StatusCreated,
		Summary: "Draw a timed exam paper to a blueprint (refused naming each short domain)",
	}, func(ctx context.Context, in *struct {
		Body struct {
			Title            string           `json:"title" maxLength:"1000"`
			Size             int              `json:"size" minimum:"1" maximum:"2000" doc:"questions on the paper"`
			TimeLimitMinutes int              `json:"time_limit_minutes" minimum:"1" maximum:"1440"`
			Publish          bool             `json:"publish,omitempty" required:"false" doc:"open it to learners at once"`
			Domains          []ExamDomainItem `json:"domains" minItems:"1" maxItems:"50"`
			Seed             *uint64          `json:"seed,omitempty" required:"false"`
		}
	}) (*examOut, error) {
		b := in.Body
		ne := app.NewExam{Title: b.Title, Size: b.Size, TimeLimitMinutes: b.TimeLimitMinutes, Publish: b.Publish, Seed: b.Seed}
		for _, d := range b.Domains {
			ne.Domains = append(ne.Domains, app.ExamDomainIn{BlueprintDomain: d.domain(), ArticleIDs: d.ArticleIDs, DeckIDs: d.DeckIDs})
		}
		e, err := svc.CreateExam(ctx, auth.MustFrom(ctx), ne)
		if err != nil {
			return nil, err
		}
		return &examOut{toExam(e)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/exams", Tags: tags,
		Summary: "Exams: published ones (moderators: all), newest first",
	}, func(ctx context.Context, in *struct{ httpapi.Page }) (*httpapi.Listing[ExamResponse], error) {
		es, total, err := svc.Exams(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
		if err != nil {
			return nil, err
		}
		return httpapi.ListOf(es, total, toExam), nil
	})

	httpapi.Register(r, auth.Mod, huma.Operation{
		Method: nethttp.MethodPatch, Path: "/exams/{exam_id}/publish", Tags: tags,
		Summary: "Open an exam to learners (published=true) or close it; results already recorded stay readable",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *struct {
		ID        int64 `path:"exam_id" minimum:"1"`
		Published bool  `query:"published" default:"true"`
	}) (*examOut, error) {
		e, err := svc.PublishExam(ctx, in.ID, in.Published)
		if err != nil {
			return nil, err
		}
		return &examOut{toExam(e)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/exams/{exam_id}", Tags: tags,
		Summary: "An exam (published, or any for moderators)", Errors: []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *examPath) (*examOut, error) {
		e, err := svc.Exam(ctx, auth.MustFrom(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &examOut{toExam(e)}, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodPost, Path: "/exams/{exam_id}/start", Tags: tags,
		Summary: "Build or reuse your timed saved test of the paper; sit it with POST /attempts/start?quiz_id=",
		Errors:  []int{nethttp.StatusNotFound, nethttp.StatusServiceUnavailable},
	}, func(ctx context.Context, in *examPath) (*struct {
		Body struct {
			ExamID int64 `json:"exam_id"`
			QuizID int64 `json:"quiz_id"`
			Reused bool  `json:"reused"`
		}
	}, error) {
		st, err := svc.StartExam(ctx, auth.MustFrom(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		out := &struct {
			Body struct {
				ExamID int64 `json:"exam_id"`
				QuizID int64 `json:"quiz_id"`
				Reused bool  `json:"reused"`
			}
		}{}
		out.Body.ExamID, out.Body.QuizID, out.Body.Reused = in.ID, st.QuizID, st.Reused
		return out, nil
	})

	httpapi.Register(r, auth.User, huma.Operation{
		Method: nethttp.MethodGet, Path: "/exam-results/{exam_id}", Tags: []string{"exam results"},
		Summary: "Your result: score per domain, percentile among all who sat the paper, weakest domains with their articles and decks",
		Errors:  []int{nethttp.StatusNotFound},
	}, func(ctx context.Context, in *examPath) (*struct{ Body ExamReport }, error) {
		rep, err := svc.Report(ctx, auth.MustFrom(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &struct{ Body ExamReport }{ExamReport{ExamID: in.ID, Score: rep.Score, Total: rep.Total,
			Percentage: rep.Percentage, Percentile: rep.Percentile, Sitters: rep.Sitters,
			Domains: toScores(rep.Domains), Weakest: toScores(rep.Weakest)}}, nil
	})
}
