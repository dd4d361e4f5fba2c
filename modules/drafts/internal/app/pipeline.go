package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/drafts/internal/store"
)

// StatusCount is how many documents or drafts are in one status.
type StatusCount = store.StatusCount

// Pipeline is where the site's PDFs and drafts stand: documents by
// processing status, drafts by review status, every status listed.
type Pipeline struct {
	Documents, Drafts []store.StatusCount
}

// DocumentStatuses and DraftStatuses are the statuses in pipeline order.
var (
	DocumentStatuses = []string{"processing", "ready", "failed"}
	DraftStatuses    = []string{"pending", "accepted", "rejected"}
)

// Pipeline counts the documents and drafts by status (two queries).
func (s *Service) Pipeline(ctx context.Context) (*Pipeline, error) {
	docs, err := s.store.DocumentStatuses(ctx)
	if err != nil {
		return nil, err
	}
	drafts, err := s.store.DraftStatuses(ctx)
	if err != nil {
		return nil, err
	}
	return &Pipeline{Documents: inOrder(DocumentStatuses, docs), Drafts: inOrder(DraftStatuses, drafts)}, nil
}

// inOrder lists every status in order with its count (0 when none).
func inOrder(statuses []string, counted []store.StatusCount) []store.StatusCount {
	n := make(map[string]int, len(counted))
	for _, c := range counted {
		n[c.Status] = c.N
	}
	out := make([]store.StatusCount, len(statuses))
	for i, st := range statuses {
		out[i] = store.StatusCount{Status: st, N: n[st]}
	}
	return out
}
