package http

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// quizBodiesKept bounds the cached question lists (a 50-question list is
// about 50 KB, with the answer side about twice that).
const quizBodiesKept = 512

type quizBodyKey struct {
	quiz    int64
	answers bool
}

type quizBody struct {
	version int64
	encoded []byte
	sum     uint64 // of encoded, for the ETag
}

// quizBodies caches GET /quizzes/{id}'s encoded question lists per quiz
// and answer side, each valid while the quiz's content version is the one
// it was built under. The version comes with the quiz row every request
// opens (app.OpenQuiz: in memory, forgotten when the bank's triggers say
// it changed), so an edit shows on every replica once its notification
// arrives.
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

// get opens the quiz for the caller and answers its detail as bytes: the
// quiz's fields encoded per request (from the opened row), then the
// question list from the cache when its version still holds. The bytes are
// those huma writes for the same QuizDetailBody (quizcache_test.go). The
// answer's ETag names those bytes (the head's and the list's sums), so a
// caller holding them gets 304 and nothing is written.
func (b *quizBodies) get(ctx context.Context, id int64, study bool, cond httpapi.Conditional) (*httpapi.Encoded, error) {
	z, err := b.svc.OpenQuiz(ctx, auth.MustFrom(ctx), id, study)
	if err != nil {
		return nil, err
	}
	list, err := b.list(ctx, z)
	if err != nil {
		return nil, err
	}
	head, err := detailHead(toQuizBody(&z.Quiz), z.AnswersShown)
	if err != nil {
		return nil, err
	}
	return cond.Validated(detailTag(head, list.sum), head, list.encoded, detailTail), nil
}

// list is the opened quiz's encoded question list.
func (b *quizBodies) list(ctx context.Context, z *app.OpenedQuiz) (quizBody, error) {
	key := quizBodyKey{quiz: z.ID, answers: z.AnswersShown}
	if hit, ok := b.cache.Get(key); ok && hit.version == z.Version {
		return hit, nil
	}
	qs, version, err := b.svc.OpenedQuestions(ctx, z)
	if err != nil {
		return quizBody{}, err
	}
	encoded, err := encodeJSON(toQuestionBodies(qs))
	if err != nil {
		return quizBody{}, err
	}
	// Kept under the version the list was read at: a row opened just
	// before an edit must not file the edited list under the old version.
	body := quizBody{version: version, encoded: encoded, sum: sum64(encoded)}
	b.cache.Add(key, body)
	return body, nil
}

// detailTag is the ETag of a detail made of head and a list summing to
// listSum (the tail never changes).
func detailTag(head []byte, listSum uint64) string {
	h := fnv.New64a()
	_, _ = h.Write(head)
	_, _ = h.Write(binary.BigEndian.AppendUint64(nil, listSum))
	return `"` + strconv.FormatUint(h.Sum64(), 16) + `"`
}

func sum64(b []byte) uint64 {
	h := fnv.New64a()
	_, _ = h.Write(b)
	return h.Sum64()
}

// detailTail closes a QuizDetailBody after its question list.
var detailTail = []byte("}\n")

// detailHead is a QuizDetailBody's encoding up to its question list: the
// embedded quiz's fields, answers_shown, then the "questions" key (the
// order encoding/json writes them in).
func detailHead(z QuizBody, answers bool) ([]byte, error) {
	head, err := encodeJSON(z)
	if err != nil {
		return nil, err
	}
	head = bytes.TrimSuffix(head, []byte("}"))
	if answers {
		return append(head, `,"answers_shown":true,"questions":`...), nil
	}
	return append(head, `,"answers_shown":false,"questions":`...), nil
}

// encodeJSON encodes v as huma's JSON format does (HTML left unescaped),
// without the trailing newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
