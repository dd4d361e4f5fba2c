package app

import "context"

// ArticleRef is an article a question's "read more" links to.
type ArticleRef struct {
	ID    int64
	Slug  string
	Title string
}

// Reading is what the library offers the bank: for each question, the
// published articles claiming its topic (questions without any absent).
type Reading interface {
	ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]ArticleRef, error)
}

// ReadMore gives the "read more" articles of each question; none without
// a library in the service.
func (s *Service) ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]ArticleRef, error) {
	if len(s.ports.Reading) == 0 || len(questionIDs) == 0 {
		return map[int64][]ArticleRef{}, nil
	}
	return s.ports.Reading[0].ReadMore(ctx, questionIDs)
}
