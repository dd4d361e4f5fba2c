package http

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// QuestionList is a quiz's questions on the wire: the array of
// QuestionBody, either built (items) or already encoded (a cached body).
type QuestionList struct {
	items   []QuestionBody
	encoded []byte
}

// Schema keeps the contract the plain array's.
func (QuestionList) Schema(r huma.Registry) *huma.Schema {
	return r.Schema(reflect.TypeFor[[]QuestionBody](), true, "")
}

// MarshalJSON writes the encoded bytes when there are some.
func (l QuestionList) MarshalJSON() ([]byte, error) {
	if l.encoded != nil {
		return l.encoded, nil
	}
	return json.Marshal(l.items)
}

// quizBodiesKept bounds the cached question lists (a 50-question list is
// about 50 KB, with the answer side about twice that).
const quizBodiesKept = 512

type quizBodyKey struct {
	quiz    int64
	answers bool
}

type quizBody struct {
	stamp   string
	encoded []byte
}

// quizBodies caches GET /quizzes/{id}'s encoded question lists per quiz
// and answer side, each valid while the quiz's stamp is the one it was
// built under. The stamp is read with the access check on every request,
// so an edit is seen at once on every replica (no event to wait for).
type quizBodies struct {
	svc   *app.Service
	cache *lru.Cache[quizBodyKey, quizBody]
}

func newQuizBodies(s *app.Service) *quizBodies {
	c, err := lru.New[quizBodyKey, quizBody](quizBodiesKept)
	if err != nil {
		panic(err) // only for a size below one
	}
	return &quizBodies{svc: s, cache: c}
}

// get opens the quiz for the caller and answers its detail, the question
// list from the cache when its stamp still holds.
func (b *quizBodies) get(ctx context.Context, id int64, study bool) (*QuizDetailBody, error) {
	z, err := b.svc.OpenQuiz(ctx, auth.MustFrom(ctx), id, study)
	if err != nil {
		return nil, err
	}
	out := &QuizDetailBody{QuizBody: toQuizBody(&z.Quiz), AnswersShown: z.AnswersShown}
	key := quizBodyKey{quiz: id, answers: z.AnswersShown}
	if hit, ok := b.cache.Get(key); ok && hit.stamp == z.Stamp {
		out.Questions.encoded = hit.encoded
		return out, nil
	}
	qs, err := b.svc.OpenedQuestions(ctx, z)
	if err != nil {
		return nil, err
	}
	encoded, err := json.Marshal(toQuestionBodies(qs))
	if err != nil {
		return nil, err
	}
	b.cache.Add(key, quizBody{stamp: z.Stamp, encoded: encoded})
	out.Questions.encoded = encoded
	return out, nil
}
