package library

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank"
)

// ReadMore implements bank.Reading: for each question, the published
// articles that claim its topic (the "read more" of a question's detail
// and quiz review); questions without any are absent.
func (m *Module) ReadMore(ctx context.Context, questionIDs []int64) (map[int64][]bank.ArticleRef, error) {
	in, err := m.svc.ReadMore(ctx, questionIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]bank.ArticleRef, len(in))
	for q, as := range in {
		for _, a := range as {
			out[q] = append(out[q], bank.ArticleRef{ID: a.ID, Slug: a.Slug, Title: a.Title})
		}
	}
	return out, nil
}

var _ bank.Reading = (*Module)(nil)
