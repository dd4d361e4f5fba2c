package store

import "context"

// StatusCount is how many rows hold one status.
type StatusCount struct {
	Status string
	N      int
}

// DocumentStatuses counts the documents by processing status.
func (s *Store) DocumentStatuses(ctx context.Context) ([]StatusCount, error) {
	var out []StatusCount
	err := s.db.Conn(ctx).Raw(`SELECT status, count(*) AS n FROM drafts.documents GROUP BY 1`).Scan(&out).Error
	return out, err
}

// DraftStatuses counts the drafts by review status.
func (s *Store) DraftStatuses(ctx context.Context) ([]StatusCount, error) {
	var out []StatusCount
	err := s.db.Conn(ctx).Raw(`SELECT status, count(*) AS n FROM drafts.drafts GROUP BY 1`).Scan(&out).Error
	return out, err
}
