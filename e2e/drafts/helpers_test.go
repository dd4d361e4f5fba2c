package drafts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
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
	id := Body[contract.DocumentResponse](res).Id
	Expect(waitDocument(hh, u, id).Status).To(Equal(contract.StatusResponseStatusReady))
	return id
}

// documentStatus reads a document's short status.
func documentStatus(hh *harness.Harness, u *harness.User, id int64) contract.StatusResponse {
	res := u.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/status", id))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.StatusResponse](res)
}

// waitDocument polls the status route until processing is over.
func waitDocument(hh *harness.Harness, u *harness.User, id int64) contract.StatusResponse {
	return waitDocumentFor(hh, u, id, 15*time.Second)
}

// waitDocumentFor is waitDocument with a bound of its own: OCR takes
// seconds a page, more on a shared machine (drafts.ocr_timeout is 60 s).
func waitDocumentFor(hh *harness.Harness, u *harness.User, id int64, bound time.Duration) contract.StatusResponse {
	var last contract.StatusResponse
	Eventually(func() contract.StatusResponseStatus {
		last = documentStatus(hh, u, id)
		return last.Status
	}, bound, 50*time.Millisecond).ShouldNot(Equal(contract.StatusResponseStatusProcessing))
	return last
}

// stepsOf is a document's processing steps.
func stepsOf(hh *harness.Harness, u *harness.User, doc int64) []contract.StepResponse {
	res := u.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/processing-steps", doc))
	ExpectWithOffset(1, res).To(HaveStatus(200))
	steps := Body[contract.StepsResponse](res).Steps
	ExpectWithOffset(1, steps).NotTo(BeNil(), "steps")
	return *steps
}

// stepNames names a document's processing steps in order.
func stepNames(hh *harness.Harness, u *harness.User, doc int64) []string {
	return names(stepsOf(hh, u, doc))
}

// names are the names of steps (a document's or a job's) in order.
func names(steps []contract.StepResponse) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Name)
	}
	return out
}

// section names a page range and returns its id.
func section(hh *harness.Harness, u *harness.User, docID int64, name string, start, end int) int64 {
	res := u.Client(hh).Post(fmt.Sprintf("/api/v1/documents/%d/sections", docID),
		contract.CreateSectionInBody{Name: name, StartPage: int64(start), EndPage: int64(end)})
	Expect(res).To(HaveStatus(201))
	return Body[contract.SectionResponse](res).Id
}

// extract starts an extraction and returns the job id.
func extract(hh *harness.Harness, u *harness.User, body contract.ExtractInBody) string {
	res := u.Client(hh).Post("/api/v1/drafts/extract", body)
	Expect(res).To(HaveStatus(202))
	return started(res)
}

// started reads the answer to an extraction's start: pending, and its id.
func started(res *harness.Response) string {
	job := Exact[contract.JobStarted](res)
	ExpectWithOffset(1, job.Status).To(Equal(contract.JobStartedStatusPending))
	ExpectWithOffset(1, job.JobId).NotTo(BeEmpty())
	return job.JobId
}

// jobOf reads an extraction job once.
func jobOf(hh *harness.Harness, u *harness.User, jobID string) contract.JobResponse {
	res := u.Client(hh).Get("/api/v1/quizzes/job/" + jobID)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[contract.JobResponse](res)
}

// waitJob polls the job until it is over.
func waitJob(hh *harness.Harness, u *harness.User, jobID string) contract.JobResponse {
	return AwaitJobAs[contract.JobResponse](u.Client(hh), "/api/v1/quizzes/job/"+jobID)
}

// batchOfJob is the batch a completed job stored.
func batchOfJob(job contract.JobResponse) int64 {
	ExpectWithOffset(1, job.Status).To(Equal(contract.JobResponseStatusCompleted), "job: %s", asJSON(job))
	ExpectWithOffset(1, job.BatchId).NotTo(BeNil(), "job: %s", asJSON(job))
	return *job.BatchId
}

// extractedBatch runs the built-in extractor over pages first..last of a
// fresh upload of the paper and returns the batch id.
func extractedBatch(u *harness.User, first, last int) int64 {
	doc := uploadReady(h, u)
	sec := section(h, u, doc, "Cardiology", first, last)
	return batchOfJob(waitJob(h, u, extract(h, u, contract.ExtractInBody{SectionId: sec})))
}

// draftsOf lists a batch's drafts in order.
func draftsOf(u *harness.User, batchID int64, status string) []contract.DraftResponse {
	res := u.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d/drafts?status=%s", batchID, status))
	Expect(res).To(HaveStatus(200))
	return Body[[]contract.DraftResponse](res)
}

// ids are the ids of a listing's items, in order.
func ids[T any](list []T, id func(T) int64) []int64 {
	out := make([]int64, len(list))
	for i, x := range list {
		out[i] = id(x)
	}
	return out
}

func draftID(d contract.DraftResponse) int64       { return d.Id }
func documentID(d contract.DocumentResponse) int64 { return d.Id }
func batchID(b contract.BatchResponse) int64       { return b.Id }

// newCategory creates a question category through the bank's API.
func newCategory(u *harness.User, name string) int64 {
	res := u.Client(h).Post("/api/v1/question-categories/", contract.CreateQuestionCategoryInputBody{Name: name})
	Expect(res).To(HaveStatus(201))
	return res.ID()
}

// fileBatch sets a batch's Files-into-topic category.
func fileBatch(u *harness.User, batchID, categoryID int64) *harness.Response {
	return u.Client(h).Patch(fmt.Sprintf("/api/v1/drafts/batches/%d", batchID), contract.PatchBatchInBody{CategoryId: categoryID})
}

// batchWithCategory is a fresh batch of the paper's seven questions filed
// into a new category.
func batchWithCategory(u *harness.User) (batchID, categoryID int64) {
	batchID = extractedBatch(u, 1, 3)
	categoryID = newCategory(u, fmt.Sprintf("Cardiology %d", batchID))
	res := fileBatch(u, batchID, categoryID)
	Expect(res).To(HaveStatus(200))
	Expect(Body[contract.BatchResponse](res).CategoryId).To(HaveValue(Equal(categoryID)))
	return batchID, categoryID
}

// ok reads a 200 answer into T, a contract type.
func ok[T any](res *harness.Response) T {
	ExpectWithOffset(1, res).To(HaveStatus(200))
	return Body[T](res)
}

// message is an error envelope's message.
func message(r *harness.Response) string { return Body[contract.Envelope](r).Error.Message }

// asJSON shows a decoded body in a failure message as the server sent it.
func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// count runs a count query on the suite's database.
func count(hh *harness.Harness, query string, args ...any) int {
	var n int
	Expect(hh.App.DB.Conn(context.Background()).Raw(query, args...).Scan(&n).Error).To(Succeed())
	return n
}

func moderator(hh *harness.Harness) *harness.User { return hh.NewUser(auth.RoleModerator) }

func ctxb() context.Context { return context.Background() }

// ptr is a pointer to v, for a request body's optional fields.
func ptr[T any](v T) *T { return &v }
