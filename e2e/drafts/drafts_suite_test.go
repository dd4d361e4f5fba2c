// Package drafts_test drives the drafts module through the HTTP API on the
// real app: PDF upload and processing, sections, extraction jobs with the
// built-in extractor, batches and the review of drafts into the bank.
package drafts_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/drafts/extraction"
	"github.com/roundsedu/rounds/platform/config"
)

func TestDrafts(t *testing.T) { harness.RunSuite(t, "Drafts") }

// uploadLimit is the suite's MAX_UPLOAD_SIZE: small, so the edge of the
// limit is tested with files of a few hundred KiB.
const uploadLimit = 256 << 10

var h *harness.Harness

// spoolRoot is the suite's drafts.spool_dir.
var spoolRoot = filepath.Join(os.TempDir(), fmt.Sprintf("rounds-e2e-spool-%d", os.Getpid()))

// spooled lists the temporary files this process holds.
func spooled() []string {
	entries, _ := os.ReadDir(filepath.Join(spoolRoot, strconv.Itoa(os.Getpid())))
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

var _ = harness.Suite(&h, func() { DeferCleanup(os.RemoveAll, spoolRoot) },
	harness.WithConfig(func(c *config.Config) {
		c.Set("drafts.max_upload_size", uploadLimit)
		c.Set("drafts.spool_dir", spoolRoot)
	}),
	harness.BeforeStart(func(a *app.App) { app.Lookup[*drafts.Module](a).SetModels(stubModels{}) }))

// stubModels stands in for the AI module's model extractors, the one
// external piece (a paid model) the pipeline talks to: "slow-model" reads
// until its job is cancelled, "broken-model" fails like an unreachable
// model, "text-model" cannot read page images. No default model is
// configured, so the built-in extractor serves requests that name none.
type stubModels struct{}

func (stubModels) Extractor(_ context.Context, model, mode string) (extraction.Extractor, error) {
	switch model {
	case "slow-model":
		return slowModel{}, nil
	case "broken-model":
		return brokenModel{}, nil
	case "text-model":
		if mode == extraction.ReadingVision {
			return nil, extraction.ErrUnsupportedMode
		}
		return brokenModel{}, nil
	}
	return nil, extraction.ErrNoModel
}

type slowModel struct{}

func (slowModel) Name() string { return "slow-model" }

// Extract reports progress until the job is cancelled (Progress fails or
// the context ends), recording that it saw the cancellation.
func (slowModel) Extract(ctx context.Context, in extraction.Input) ([]extraction.Question, error) {
	for {
		if err := in.Progress(ctx, "reading with slow-model", "still reading"); err != nil {
			slowStopped.record(in.FirstPage)
			return nil, err
		}
		select {
		case <-ctx.Done():
			slowStopped.record(in.FirstPage)
			return nil, ctx.Err()
		case <-after(200):
		}
	}
}

type brokenModel struct{}

func (brokenModel) Name() string { return "broken-model" }

func (brokenModel) Extract(context.Context, extraction.Input) ([]extraction.Question, error) {
	return nil, errors.New("the extraction model did not answer (upstream 502)")
}

// stopLog records which slow extractions noticed their cancellation.
type stopLog struct {
	mu    sync.Mutex
	pages map[int]int
}

var slowStopped = &stopLog{pages: map[int]int{}}

func (s *stopLog) record(page int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[page]++
}

func (s *stopLog) count(page int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pages[page]
}
