package drafts_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/contract"
)

// corpusDir holds 120 PDFs from pdf.js's test suite (see its README):
// half ordinary documents in many encodings and fonts, half malformed or
// hostile on purpose. Relative to this package, as CI lays shared/ beside
// the checkout.
const corpusDir = "../../../shared/corpus/pdf"

// stuckAfter is how long a file may stay processing before the spec calls
// it stuck: far beyond what any file takes on a quiet machine (the slowest
// is reported, and docs/performance.md has the reading speeds), so a busy
// machine never fails the spec. What ends a slow file is the service's own
// per-step deadlines, which the reader's tests prove.
const stuckAfter = 10 * time.Minute

// Every file of the corpus goes through upload and processing as a
// moderator would send it: each ends ready, or refused or failed with a
// reason a person can read; no 5xx, nothing left
// processing, the worker never restarted; and at least 90% of the files
// that need no password become ready.
var _ = Describe("The pdf.js corpus", Ordered, func() {
	var hh *harness.Harness
	var files []string
	BeforeAll(func() {
		var err error
		files, err = filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
		Expect(err).NotTo(HaveOccurred())
		if len(files) == 0 {
			Skip("the corpus folder " + corpusDir + " is absent (shared/ is not laid beside this checkout): nothing to run")
		}
		// The suite's own harness has a 256 KiB upload limit; the corpus
		// runs under the default configuration.
		hh, err = harness.Start()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(hh.Stop()).To(Succeed()) })
	})

	It("ends every file ready, or refused or failed with a reason", func() {
		mod := moderator(hh)
		type outcome struct {
			name, status, reason string
			took                 time.Duration
		}
		var results []outcome
		needsPassword := 0
		for _, path := range files {
			name := filepath.Base(path)
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			start := time.Now()
			res := upload(hh, mod, name, data)
			Expect(res.Status).To(BeNumerically("<", 500), "%s: %s", name, res.Body)
			if res.Status != 201 {
				Expect(res).To(HaveError(400, "bad_request"), name)
				reason := message(res)
				if strings.Contains(reason, "needs a password") {
					needsPassword++
				}
				results = append(results, outcome{name, "refused", reason, time.Since(start)})
				continue
			}
			id := Body[contract.DocumentResponse](res).Id
			var st contract.StatusResponse
			Eventually(func() contract.StatusResponseStatus {
				r := mod.Client(hh).Get(fmt.Sprintf("/api/v1/documents/%d/status", id))
				Expect(r.Status).To(Equal(200), "%s: %s", name, r.Body)
				st = Body[contract.StatusResponse](r)
				return st.Status
			}, stuckAfter, 100*time.Millisecond).ShouldNot(Equal(contract.StatusResponseStatusProcessing), "%s is still processing", name)
			reason := ""
			if st.ErrorMessage != nil {
				reason = *st.ErrorMessage
			}
			if st.Status == contract.StatusResponseStatusFailed {
				Expect(reason).NotTo(BeEmpty(), name)
			}
			results = append(results, outcome{name, string(st.Status), reason, time.Since(start)})
		}

		counts := map[string]int{}
		reasons := map[string][]string{}
		for _, r := range results {
			counts[r.status]++
			if r.status != "ready" {
				reasons[r.status+": "+r.reason] = append(reasons[r.status+": "+r.reason], r.name)
			}
		}
		slowest := slices.MaxFunc(results, func(a, b outcome) int { return cmp.Compare(a.took, b.took) })
		AddReportEntry("corpus outcome", fmt.Sprintf("%d files: %d ready, %d refused, %d failed; slowest %s in %s",
			len(results), counts["ready"], counts["refused"], counts["failed"], slowest.name, slowest.took.Round(time.Millisecond)))
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			GinkgoWriter.Printf("%s\n    %s\n", k, strings.Join(reasons[k], ", "))
		}
		Expect(counts["ready"] + counts["refused"] + counts["failed"]).To(Equal(len(files)))
		Expect(float64(counts["ready"])).To(BeNumerically(">=", 0.9*float64(len(files)-needsPassword)),
			"ready %d of %d files that need no password", counts["ready"], len(files)-needsPassword)
		Expect(count(hh, `SELECT count(*) FROM drafts.documents WHERE status = 'processing'`)).To(BeZero())
		Expect(count(hh, `SELECT count(*) FROM river.river_job WHERE kind = 'process_pdf' AND attempt > 1`)).To(BeZero(),
			"a process_pdf job was taken up again: a worker stopped")
	})
})
