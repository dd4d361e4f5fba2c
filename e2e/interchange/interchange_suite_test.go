// Package interchange_test drives question files end to end: Moodle XML
// into drafts and out of quizzes, round trips, and hostile files.
package interchange_test

import (
	"context"
	"fmt"
	"testing"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

func TestInterchange(t *testing.T) { RunSuite(t, "Interchange") }

// Small limits so the suite can reach them with small files.
const (
	maxImportBytes   = 64 << 10
	maxQuestions     = 40
	maxPackageBytes  = 1 << 20
	maxUnpackedBytes = 512 << 10
	maxMediaMapBytes = 4 << 10
	maxMediaFile     = 256 << 10
)

var (
	h   *Harness
	mod *User
)

var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) }, WithConfig(func(c *config.Config) {
	c.Set("interchange.max_import_bytes", maxImportBytes)
	c.Set("interchange.max_questions", maxQuestions)
	c.Set("interchange.max_package_bytes", maxPackageBytes)
	c.Set("interchange.max_unpacked_bytes", maxUnpackedBytes)
	c.Set("interchange.max_media_map_bytes", maxMediaMapBytes)
	c.Set("interchange.max_media_file_bytes", maxMediaFile)
}))

// count runs a count query on the suite's database.
func count(query string, args ...any) int {
	var n int
	Expect(h.App.DB.Conn(context.Background()).Raw(query, args...).Scan(&n).Error).To(Succeed())
	return n
}

func newCategory(name string) int64 {
	res := mod.Client(h).Post("/api/v1/question-categories/", map[string]any{"name": name})
	Expect(res).To(HaveStatus(201))
	return res.ID()
}

// importFile posts a question file in the given format.
func importFile(u *User, format, query string, body string) *Response {
	return u.Client(h).With("Content-Type", "application/octet-stream").
		Post(fmt.Sprintf("/api/v1/drafts/import/%s?%s", format, query), body)
}

// draftsOf lists a batch's drafts in order.
func draftsOf(batchID int64) []map[string]any {
	res := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=all&limit=200", batchID))
	Expect(res).To(HaveStatus(200))
	var out []map[string]any
	res.JSON(&out)
	return out
}

// content is what a draft holds of its question (what a round trip keeps).
func content(ds []map[string]any) []map[string]any {
	out := make([]map[string]any, len(ds))
	for i, d := range ds {
		out[i] = map[string]any{"question_type": d["question_type"], "question_text": d["question_text"],
			"options": d["options"], "correct_answer": d["correct_answer"], "explanation": d["explanation"]}
	}
	return out
}

// stored is the number of batches, drafts and bank questions, to show a
// refused file stored nothing.
func stored() [3]int {
	return [3]int{count("SELECT count(*) FROM drafts.batches"), count("SELECT count(*) FROM drafts.drafts"),
		count("SELECT count(*) FROM bank.questions")}
}
