package library

import (
	"context"
)

// ArticleRef names an article for a link from elsewhere.
type ArticleRef struct {
	ID    int64
	Slug  string
	Title string
}

// Facade is what other modules may ask the library.
type Facade interface {
	// ReadMore gives, for each question, the published articles that claim
	// its topic (the "read more" of a question's detail and quiz review);
	// questions without any are absent.
	ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]ArticleRef, error)
}

var _ Facade = (*Module)(nil)

// ReadMore implements Facade.
func (m *Module) ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]ArticleRef, error) {
	in, err := m.svc.ReadMore(ctx, questionIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]ArticleRef, len(in))
	for q, as := range in {
		for _, a := range as {
			out[q] = append(out[q], ArticleRef{ID: a.ID, Slug: a.Slug, Title: a.Title})
		}
	}
	return out, nil
}
