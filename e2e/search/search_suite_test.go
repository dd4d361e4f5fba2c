// Package search_test drives the search module end to end: the real app on
// a real Postgres with pgvector, questions fed through the bank's event
// topic, and a stand-in model proxy (OpenAI embeddings and Cohere-style
// rerank wire protocols) for the remote embedder and the reranker.
package search_test

import (
	"context"
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/modules/search/standin"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/module"
)

func TestSearch(t *testing.T) { harness.RunSuite(t, "Search") }

var (
	// local runs the built-in embedder, with the stand-in as rerank endpoint.
	local *harness.Harness
	// remote embeds through the stand-in, retries every 300ms in small batches.
	remote *harness.Harness
	proxy  *standin.Server
)

// Both reach the stand-in through the AI module's gateway. remote embeds
// through it: an admin switches it the only way a model changes, by
// re-embedding (settings refuse it).
var _ = harness.Suite(&local, func() {
	Expect(remote.NewUser(auth.RoleAdmin).Client(remote).Post("/api/v1/admin/embedding/regenerate",
		map[string]any{"model": "standin-embedding"})).To(harness.HaveStatus(202))
	waitRegenerationIdle(remote)
}, harness.BeforeApps(func() {
	// Put first, so it is the one asked about the kinds it claims.
	app.Modules = append([]module.Constructor{func(context.Context, *module.Kit) (module.Module, error) {
		return seededKinds{}, nil
	}}, app.Modules...)
	proxy = standin.New(384)
	proxy.SetSlowDelay(3 * time.Second)
	DeferCleanup(proxy.Close)
}), harness.WithConfig(func(c *config.Config) {
	c.Set("ai.base_url", proxy.URL)
	c.Set("ai.rerank_timeout", 500*time.Millisecond)
}), harness.WithApp(&remote, harness.WithConfig(func(c *config.Config) {
	c.Set("ai.base_url", proxy.URL)
	c.Set("ai.api_key", "proxy-key")
	c.Set("ai.embedding_timeout", 2*time.Second)
	c.Set("ai.retries", 1)
	c.Set("search.embedding_batch", 2)
	c.Set("search.retry_interval", 300*time.Millisecond)
	c.Set("ai.rerank_timeout", 500*time.Millisecond)
})))

// seededKinds vouches (search.Reach) for the article, deck and media rows
// tests write straight into the index, no module feeding those kinds yet:
// anyone may find them, nobody may read hidden text.
type seededKinds struct{}

func (seededKinds) Name() string { return "search_e2e_seeded" }

func (seededKinds) Kinds() []search.Kind {
	return []search.Kind{search.KindArticle, search.KindDeck, search.KindMedia}
}

func (seededKinds) Reachable(_ context.Context, _ auth.Principal, _ search.Kind, ids []int64) (visible, editable map[int64]bool, err error) {
	visible = map[int64]bool{}
	for _, id := range ids {
		visible[id] = true
	}
	return visible, nil, nil
}

// nextID hands out question ids no other test uses.
var lastID atomic.Int64

func nextID() int64 { return 100_000 + lastID.Add(1) }

// publish tells search about a question the way the bank does: the bank's
// own translation (bank.IndexOf) on the index topic, inside a transaction.
func publish(h *harness.Harness, e bank.QuestionChanged) {
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	ctx := context.Background()
	Expect(h.App.DB.Tx(ctx, func(ctx context.Context) error {
		return events.Publish(ctx, h.App.Bus, search.TopicIndexChanged, bank.IndexOf(e))
	})).To(Succeed())
}

// question publishes a created question and returns its id.
func question(h *harness.Harness, text string, options ...string) int64 {
	id := nextID()
	publish(h, bank.QuestionChanged{ID: id, Change: bank.QuestionCreated, Live: true, Text: text,
		Options: options, Version: 1})
	return id
}

// version reads the version the index holds for a question (-1 if none):
// the tests' way to wait until an event was handled.
func version(h *harness.Harness, id int64) int64 {
	var v []int64
	Expect(h.App.DB.Conn(context.Background()).
		Raw(`SELECT version FROM search.documents WHERE kind = 'question' AND id = ?`, id).Scan(&v).Error).To(Succeed())
	if len(v) == 0 {
		return -1
	}
	return v[0]
}

// waitIndexed waits until the index holds version v of the question and
// its text has had its embedding attempt (embed_pending runs after the
// event's transaction).
func waitIndexed(h *harness.Harness, id, v int64) {
	GinkgoHelper()
	Eventually(func() int64 { return version(h, id) }, "10s", "20ms").Should(Equal(v))
	waitSettled(h, id)
}

// waitCreated waits until the index holds a question the bank wrote, with
// its embedding attempt made.
func waitCreated(h *harness.Harness, id int64) {
	GinkgoHelper()
	Eventually(func() int64 { return version(h, id) }, "10s", "20ms").Should(BeNumerically(">=", 1))
	waitSettled(h, id)
}

// waitSettled waits until the question has a vector for its current text,
// or a recorded failure to make one.
func waitSettled(h *harness.Harness, id int64) {
	GinkgoHelper()
	Eventually(func() bool {
		var done []bool
		Expect(h.App.DB.Conn(context.Background()).Raw(`SELECT purged OR embed_error IS NOT NULL
				OR embedded_hash IS NOT DISTINCT FROM content_hash
			FROM search.documents WHERE kind = 'question' AND id = ?`, id).Scan(&done).Error).To(Succeed())
		return len(done) == 1 && done[0]
	}, "10s", "20ms").Should(BeTrue())
}

// purged reports whether the index holds a tombstone for the question.
func purged(h *harness.Harness, id int64) bool {
	var p []bool
	Expect(h.App.DB.Conn(context.Background()).
		Raw(`SELECT purged FROM search.documents WHERE kind = 'question' AND id = ?`, id).Scan(&p).Error).To(Succeed())
	return len(p) == 1 && p[0]
}

type hit struct {
	ID         int64   `json:"id"`
	Score      float64 `json:"score"`
	Similarity float64 `json:"similarity"`
	Keyword    bool    `json:"keyword"`
	Title      string  `json:"title"`
	Snippet    string  `json:"snippet"`
}

type section struct {
	Kind     string `json:"kind"`
	Reranked bool   `json:"reranked"`
	Hits     []hit  `json:"hits"`
}

type globalResult struct {
	Query    string    `json:"query"`
	Semantic bool      `json:"semantic"`
	Results  []section `json:"results"`
}

// searchQuestions runs GET /search for questions and returns the section.
func searchQuestions(h *harness.Harness, u *harness.User, q string, perKind int) section {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/search?q=%s&kinds=question&per_kind=%d", url.QueryEscape(q), perKind))
	Expect(res).To(harness.HaveStatus(200))
	var out globalResult
	res.JSON(&out)
	Expect(out.Results).To(HaveLen(1))
	return out.Results[0]
}

func ids(s section) []int64 {
	out := make([]int64, len(s.Hits))
	for i, h := range s.Hits {
		out[i] = h.ID
	}
	return out
}

func newUser(h *harness.Harness, r auth.Role) *harness.User { return h.NewUser(r) }

// searcher is a moderator. The questions most tests publish straight on the
// event topic exist in no bank, and a moderator is the one caller whose
// reach the bank does not look up (the whole bank); reach_test.go covers
// everyone else with questions written through the bank.
func searcher(h *harness.Harness) *harness.User { return h.NewUser(auth.RoleModerator) }

// HaveStatusOK is HaveStatus(200).
func HaveStatusOK() OmegaMatcher { return harness.HaveStatus(200) }

// HaveStatus201 and HaveStatus204 name the other statuses the bank answers.
func HaveStatus201() OmegaMatcher { return harness.HaveStatus(201) }

// HaveStatus204 is HaveStatus(204).
func HaveStatus204() OmegaMatcher { return harness.HaveStatus(204) }

func itoa(id int64) string { return fmt.Sprint(id) }
