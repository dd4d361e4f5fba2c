package drafts_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/auth"
)

func after(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }

// upload posts data as the multipart field "file" on the given harness.
func upload(hh *harness.Harness, u *harness.User, filename string, data []byte) *harness.Response {
	body, ct := Form("file", filename, data, nil)
	return u.Client(hh).With("Content-Type", ct).Post("/api/v1/documents/upload", body)
}

// uploadReady uploads the question paper and waits until it is processed.
func uploadReady(hh *harness.Harness, u *harness.User) int64 {
	res := upload(hh, u, "cardiology.pdf", pdffixtures.QuestionPaper())
	Expect(res).To(HaveStatus(201))
	id := int64(res.Map()["id"].(float64))
	Expect(waitDocument(hh, u, id)["status"]).To(Equal("ready"))
	return id
}

// waitDocument polls the status route until processing is over.
func waitDocument(hh *harness.Harness, u *harness.User, id int64) map[string]any {
	return waitDocumentFor(hh, u, id, 15*time.Second)
}

// waitDocumentFor is waitDocument with a bound of its own: OCR takes
// seconds a page, more on a shared machine (drafts.ocr_timeout is 60 s).
func waitDocumentFor(hh *harness.Harness, u *harness.User, id int64, bound time.Duration) map[string]any {
	var last map[string]any
	Eventually(func() string {
		res := u.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/status", id))
		Expect(res).To(HaveStatus(200))
		last = res.Map()
		return last["status"].(string)
	}, bound, 50*time.Millisecond).ShouldNot(Equal("processing"))
	return last
}

// section names a page range and returns its id.
func section(hh *harness.Harness, u *harness.User, docID int64, name string, start, end int) int64 {
	res := u.Client(hh).Post(fmt.Sprintf("/api/v1/documents/%d/sections", docID),
		map[string]any{"name": name, "start_page": start, "end_page": end})
	Expect(res).To(HaveStatus(201))
	return int64(res.Map()["id"].(float64))
}

// extract starts an extraction and returns the job id.
func extract(hh *harness.Harness, u *harness.User, body map[string]any) string {
	res := u.Client(hh).Post("/api/v1/drafts/extract", body)
	Expect(res).To(HaveStatus(202))
	m := res.Map()
	Expect(m["status"]).To(Equal("pending"))
	return m["job_id"].(string)
}

// waitJob polls the job until it is over.
func waitJob(hh *harness.Harness, u *harness.User, jobID string) map[string]any {
	return u.Client(hh).AwaitJob("/api/v1/quizzes/job/" + jobID)
}

// extractedBatch runs the built-in extractor over pages first..last of a
// fresh upload of the paper and returns the batch id.
func extractedBatch(u *harness.User, first, last int) int64 {
	doc := uploadReady(h, u)
	sec := section(h, u, doc, "Cardiology", first, last)
	job := waitJob(h, u, extract(h, u, map[string]any{"section_id": sec}))
	Expect(job["status"]).To(Equal("completed"), "job: %v", job)
	return int64(job["batch_id"].(float64))
}

// draftsOf lists a batch's drafts in order.
func draftsOf(u *harness.User, batchID int64, status string) []map[string]any {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=%s", batchID, status))
	Expect(res).To(HaveStatus(200))
	var out []map[string]any
	res.JSON(&out)
	return out
}

func ids(drafts []map[string]any) []int64 {
	out := make([]int64, len(drafts))
	for i, d := range drafts {
		out[i] = int64(d["id"].(float64))
	}
	return out
}

// newCategory creates a question category through the bank's API.
func newCategory(u *harness.User, name string) int64 {
	res := u.Client(h).Post("/api/v1/question-categories/", map[string]any{"name": name})
	Expect(res).To(HaveStatus(201))
	return res.ID()
}

// batchWithCategory is a fresh batch of the paper's seven questions filed
// into a new category.
func batchWithCategory(u *harness.User) (batchID, categoryID int64) {
	batchID = extractedBatch(u, 1, 3)
	categoryID = newCategory(u, fmt.Sprintf("Cardiology %d", batchID))
	Expect(u.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/batches/%d", batchID),
		map[string]any{"category_id": categoryID})).To(HaveStatus(200))
	return batchID, categoryID
}

// count runs a count query on the suite's database.
func count(hh *harness.Harness, query string, args ...any) int {
	var n int
	Expect(hh.App.DB.Conn(context.Background()).Raw(query, args...).Scan(&n).Error).To(Succeed())
	return n
}

func moderator(hh *harness.Harness) *harness.User { return hh.NewUser(auth.RoleModerator) }

func ctxb() context.Context { return context.Background() }
