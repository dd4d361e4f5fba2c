package http

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/opt"
)

type quizIDInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
}

type quizListInput struct {
	Limit  int `query:"limit" default:"200" minimum:"1" maximum:"500"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

type quizzesOutput struct{ Body []QuizBody }

type quizOutput struct{ Body QuizBody }

type quizDetailOutput struct{ Body QuizDetailBody }

type getQuizInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
	Study  bool  `query:"study" default:"false" doc:"force the answer side in (a study session)"`
	httpapi.Conditional
}

type shuffleInput struct {
	QuizID         int64 `path:"quiz_id" minimum:"1"`
	ShuffleOptions bool  `query:"shuffle_options" default:"true"`
}

type renameQuizInput struct {
	QuizID int64 `path:"quiz_id" minimum:"1"`
	Body   struct {
		Title string `json:"title" minLength:"1" maxLength:"200"`
	}
}

type publishInput struct {
	QuizID    int64 `path:"quiz_id" minimum:"1"`
	Published bool  `query:"published" default:"true"`
}

type publishOutput struct {
	Body struct {
		QuizID      int64 `json:"quiz_id"`
		IsPublished int   `json:"is_published" enum:"0,1"`
	}
}

// QuizQuestionBody is a question as the quiz editor lists it.
type QuizQuestionBody struct {
	ID            int64    `json:"id"`
	QuestionText  string   `json:"question_text"`
	QuestionType  string   `json:"question_type"`
	Options       []string `json:"options"`
	CorrectAnswer string   `json:"correct_answer"`
	Explanation   string   `json:"explanation"`
}

type quizQuestionsOutput struct{ Body []QuizQuestionBody }

type quizQuestionInput struct {
	QuizID     int64 `path:"quiz_id" minimum:"1"`
	QuestionID int64 `path:"question_id" minimum:"1"`
}

type patchQuizQuestionInput struct {
	QuizID     int64 `path:"quiz_id" minimum:"1"`
	QuestionID int64 `path:"question_id" minimum:"1"`
	Body       struct {
		QuestionText  *string  `json:"question_text,omitempty" required:"false" minLength:"1" maxLength:"10000"`
		Options       []string `json:"options,omitempty" required:"false" maxItems:"20"`
		CorrectAnswer *string  `json:"correct_answer,omitempty" required:"false" maxLength:"2000"`
		Explanation   *string  `json:"explanation,omitempty" required:"false" maxLength:"20000"`
		QuestionType  *string  `json:"question_type,omitempty" required:"false" maxLength:"20" doc:"mcq or fill_in (canonical, as answered); MCQ, fill-in and non-MCQ are accepted in any letter case"`
	}
}

type quizSearchInput struct {
	Q    string `query:"q" required:"true" minLength:"2" maxLength:"200"`
	Mode string `query:"mode" enum:"title,questions,all" default:"all"`
}

// QuizHitBody is one quiz search result.
type QuizHitBody struct {
	QuizID            int64                 `json:"quiz_id"`
	QuizTitle         string                `json:"quiz_title"`
	MatchType         string                `json:"match_type" enum:"title,questions,both"`
	MatchingQuestions []MatchingQuestionOut `json:"matching_questions"`
	QuestionsCount    int                   `json:"questions_count"`
	Mode              string                `json:"mode"`
	IsPublished       int                   `json:"is_published" enum:"0,1"`
}

// MatchingQuestionOut is a question that matched (stem only).
type MatchingQuestionOut struct {
	ID           int64  `json:"id"`
	QuestionText string `json:"question_text"`
}

type quizSearchOutput struct{ Body []QuizHitBody }

func registerQuizzes(r *httpapi.Router, s *app.Service) {
	tags := []string{"quizzes"}
	bodies := newQuizBodies(s)
	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/quizzes/", Tags: tags,
		Summary: "Quizzes, newest first: moderators see every live quiz, others the published ones"},
		func(ctx context.Context, in *quizListInput) (*quizzesOutput, error) {
			zs, err := s.Quizzes(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
			if err != nil {
				return nil, err
			}
			return &quizzesOutput{Body: toQuizBodies(zs)}, nil
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/quizzes/search", Tags: tags,
		Summary: "Find quizzes by title and/or by their questions"},
		func(ctx context.Context, in *quizSearchInput) (*quizSearchOutput, error) {
			hits, err := s.SearchQuizzes(ctx, auth.MustFrom(ctx), in.Q, in.Mode)
			if err != nil {
				return nil, err
			}
			out := &quizSearchOutput{Body: make([]QuizHitBody, 0, len(hits))}
			for _, h := range hits {
				b := QuizHitBody{QuizID: h.Quiz.ID, QuizTitle: h.Quiz.Title, MatchType: h.MatchType,
					QuestionsCount: h.Quiz.QuestionsCount, Mode: h.Quiz.Mode, IsPublished: flag(h.Quiz.IsPublished),
					MatchingQuestions: make([]MatchingQuestionOut, 0, len(h.Matching))}
				for _, m := range h.Matching {
					b.MatchingQuestions = append(b.MatchingQuestions, MatchingQuestionOut{ID: m.ID, QuestionText: m.Text})
				}
				out.Body = append(out.Body, b)
			}
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodGet, Path: "/quizzes/trash", Tags: tags,
		Summary: "Trashed quizzes, most recently trashed first (moderators)"},
		func(ctx context.Context, in *quizListInput) (*quizzesOutput, error) {
			zs, err := s.QuizTrash(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
			if err != nil {
				return nil, err
			}
			return &quizzesOutput{Body: toQuizBodies(zs)}, nil
		})

	// The hot read: answered as bytes (the cached question list), declared
	// as QuizDetailBody like the shuffle and the review.
	httpapi.RegisterEncoded[getQuizInput, QuizDetailBody](r, auth.User, huma.Operation{Method: http.MethodGet,
		Path: "/quizzes/{quiz_id}", Tags: tags,
		Summary: "A quiz: timed hides answers, learning shows them, study=true forces them in"},
		func(ctx context.Context, in *getQuizInput) (*httpapi.Encoded, error) {
			return bodies.get(ctx, in.QuizID, in.Study, in.Conditional)
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/quizzes/{quiz_id}", Tags: tags,
		Summary: "Rename a quiz (moderators)"},
		func(ctx context.Context, in *renameQuizInput) (*quizOutput, error) {
			z, err := s.RenameQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.Body.Title)
			if err != nil {
				return nil, err
			}
			return &quizOutput{Body: toQuizBody(z)}, nil
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodPost, Path: "/quizzes/{quiz_id}/shuffle", Tags: tags,
		Summary: "The timed detail in a fresh random order; nothing is stored"},
		func(ctx context.Context, in *shuffleInput) (*quizDetailOutput, error) {
			d, err := s.ShuffleQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.ShuffleOptions)
			if err != nil {
				return nil, err
			}
			return &quizDetailOutput{Body: toQuizDetailBody(d)}, nil
		})

	httpapi.Register(r, auth.User, huma.Operation{Method: http.MethodGet, Path: "/quizzes/{quiz_id}/review", Tags: tags,
		Summary: "Every answer and explanation: moderators, or learners with a completed attempt",
		Errors:  []int{http.StatusForbidden}},
		func(ctx context.Context, in *quizIDInput) (*quizDetailOutput, error) {
			d, err := s.ReviewQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
			if err != nil {
				return nil, err
			}
			body := toQuizDetailBody(d)
			if err := withReadMore(ctx, s, body.Questions); err != nil {
				return nil, err
			}
			return &quizDetailOutput{Body: body}, nil
		})

	registerQuizQuestions(r, s, tags)
	registerQuizLifecycle(r, s, tags)
}

func registerQuizQuestions(r *httpapi.Router, s *app.Service, tags []string) {
	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodGet, Path: "/quizzes/{quiz_id}/questions", Tags: tags,
		Summary: "A quiz's questions with answers (moderators)"},
		func(ctx context.Context, in *quizIDInput) (*quizQuestionsOutput, error) {
			qs, err := s.QuizQuestions(ctx, auth.MustFrom(ctx), in.QuizID)
			if err != nil {
				return nil, err
			}
			out := &quizQuestionsOutput{Body: make([]QuizQuestionBody, 0, len(qs))}
			for _, q := range qs {
				out.Body = append(out.Body, QuizQuestionBody{ID: q.ID, QuestionText: q.Text, QuestionType: q.Type,
					Options: opt.NonNil(q.Options), CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation})
			}
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/quizzes/{quiz_id}/questions/{question_id}",
		Tags: tags, Summary: "Edit a quiz's question (moderators); shared by every quiz using it; 400 if the answer is not an option",
		Errors: []int{http.StatusBadRequest}},
		func(ctx context.Context, in *patchQuizQuestionInput) (*questionOutput, error) {
			b := in.Body
			pt := app.Patch{Type: b.QuestionType, Text: b.QuestionText, CorrectAnswer: b.CorrectAnswer,
				Explanation: b.Explanation}
			if b.Options != nil {
				pt.Options = &b.Options
			}
			q, err := s.UpdateQuizQuestion(ctx, auth.MustFrom(ctx), in.QuizID, in.QuestionID, pt)
			if err != nil {
				return nil, err
			}
			return &questionOutput{Body: toQuestionBody(q)}, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodDelete, Path: "/quizzes/{quiz_id}/questions/{question_id}",
		Tags: tags, DefaultStatus: http.StatusNoContent,
		Summary: "Take a question out of a quiz: only the link when shared, else the question goes to the trash (moderators)"},
		func(ctx context.Context, in *quizQuestionInput) (*struct{}, error) {
			return nil, s.RemoveQuizQuestion(ctx, auth.MustFrom(ctx), in.QuizID, in.QuestionID)
		})
}

func registerQuizLifecycle(r *httpapi.Router, s *app.Service, tags []string) {
	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/quizzes/{quiz_id}/publish", Tags: tags,
		Summary: "Publish or unpublish a quiz (moderators)"},
		func(ctx context.Context, in *publishInput) (*publishOutput, error) {
			z, err := s.PublishQuiz(ctx, auth.MustFrom(ctx), in.QuizID, in.Published)
			if err != nil {
				return nil, err
			}
			out := &publishOutput{}
			out.Body.QuizID, out.Body.IsPublished = z.ID, flag(z.IsPublished)
			return out, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodDelete, Path: "/quizzes/{quiz_id}", Tags: tags,
		DefaultStatus: http.StatusNoContent, Summary: "Move a quiz to the trash (moderators)"},
		func(ctx context.Context, in *quizIDInput) (*struct{}, error) {
			return nil, s.TrashQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodPatch, Path: "/quizzes/{quiz_id}/restore", Tags: tags,
		Summary: "Bring a quiz back from the trash (moderators)",
		Errors:  []int{http.StatusBadRequest}},
		func(ctx context.Context, in *quizIDInput) (*quizOutput, error) {
			z, err := s.RestoreQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
			if err != nil {
				return nil, err
			}
			return &quizOutput{Body: toQuizBody(z)}, nil
		})

	httpapi.Register(r, auth.Mod, huma.Operation{Method: http.MethodDelete, Path: "/quizzes/{quiz_id}/permanent", Tags: tags,
		DefaultStatus: http.StatusNoContent,
		Summary:       "Remove a trashed quiz for good; questions only it used stay in the bank (moderators)",
		Errors:        []int{http.StatusBadRequest}},
		func(ctx context.Context, in *quizIDInput) (*struct{}, error) {
			return nil, s.PurgeQuiz(ctx, auth.MustFrom(ctx), in.QuizID)
		})
}
