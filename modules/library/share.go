package library

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
)

// ShareKinds names what may be shared from the library (the share
// module's Target).
func (m *Module) ShareKinds() []string { return []string{"article"} }

// ShareTarget lets anyone who may read a published article share it.
func (m *Module) ShareTarget(ctx context.Context, p auth.Principal, _ string, id int64, withAnswers bool) (string, error) {
	return m.svc.ShareTitle(ctx, p, id, withAnswers)
}

// SharedArticle is an article as a share link's visitor reads it: the
// rendered sections. Figures in them are uploads, served only to
// signed-in callers, so a visitor sees their captions, not the pictures.
type SharedArticle struct {
	Title     string          `json:"title"`
	Summary   string          `json:"summary"`
	UpdatedAt time.Time       `json:"updated_at"`
	Sections  []SharedSection `json:"sections"`
}

// SharedSection is one section of a shared article.
type SharedSection struct {
	Key     string `json:"key"`
	Heading string `json:"heading"`
	HTML    string `json:"html"`
}

// SharedView is the article while it is still published (410 once not).
func (m *Module) SharedView(ctx context.Context, _ string, id int64, _ bool) (any, error) {
	a, secs, err := m.svc.Shared(ctx, id)
	if err != nil {
		return nil, err
	}
	out := SharedArticle{Title: a.Title, Summary: a.Summary, UpdatedAt: a.UpdatedAt, Sections: make([]SharedSection, len(secs))}
	for i, s := range secs {
		out.Sections[i] = SharedSection{Key: s.Key, Heading: s.Heading, HTML: s.HTML}
	}
	return out, nil
}
