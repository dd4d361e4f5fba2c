package drafts

import "context"

// Facade is what other modules may ask drafts.
type Facade interface {
	// CountDocuments counts every uploaded document (moderators' dashboards).
	CountDocuments(ctx context.Context) (int, error)
}
