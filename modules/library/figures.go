package library

import (
	"context"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
)

// Figure is a stored file shown in a section of an article: Path is the
// storage key, Ord its place in the article's markdown.
type Figure = app.Figure

// Figures is what the media module asks the library: figures are library
// writes (the markdown image line, the link row, a revision, reindexing),
// run in the caller's transaction when it has one.
type Figures interface {
	// CheckFigure refuses, before anything is stored, what PlaceFigure would.
	CheckFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey string, replace bool) error
	// PlaceFigure writes the image line for path into the section.
	PlaceFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey, path, alt string, replace bool) error
	// UnlinkFigure removes path from one article p may edit, or from every
	// article when articleID is 0 (moderators), giving where it was.
	UnlinkFigure(ctx context.Context, p auth.Principal, path string, articleID int64) ([]Figure, error)
	// RestoreFigure appends the image line at the end of every section
	// named in places.
	RestoreFigure(ctx context.Context, by int64, places []Figure, path, alt string) error
	// Gallery lists an article's figures in markdown order for a reader.
	Gallery(ctx context.Context, p auth.Principal, articleID int64) ([]Figure, error)
	// ReadsFigure reports whether p may read an article showing path.
	ReadsFigure(ctx context.Context, p auth.Principal, path string) (bool, error)
}

var _ Figures = (*Module)(nil)

// FigureMarkdown is the image line the library writes for a figure.
func FigureMarkdown(path, alt string) string { return app.FigureMarkdown(path, alt) }

// CheckFigure implements Figures.
func (m *Module) CheckFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey string, replace bool) error {
	return m.svc.CheckFigure(ctx, p, articleID, sectionKey, replace)
}

// PlaceFigure implements Figures.
func (m *Module) PlaceFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey, path, alt string, replace bool) error {
	return m.svc.PlaceFigure(ctx, p, articleID, sectionKey, path, alt, replace)
}

// UnlinkFigure implements Figures.
func (m *Module) UnlinkFigure(ctx context.Context, p auth.Principal, path string, articleID int64) ([]Figure, error) {
	return m.svc.UnlinkFigure(ctx, p, path, articleID)
}

// RestoreFigure implements Figures.
func (m *Module) RestoreFigure(ctx context.Context, by int64, places []Figure, path, alt string) error {
	return m.svc.RestoreFigure(ctx, by, places, path, alt)
}

// Gallery implements Figures.
func (m *Module) Gallery(ctx context.Context, p auth.Principal, articleID int64) ([]Figure, error) {
	return m.svc.Gallery(ctx, p, articleID)
}

// ReadsFigure implements Figures.
func (m *Module) ReadsFigure(ctx context.Context, p auth.Principal, path string) (bool, error) {
	return m.svc.ReadsFigure(ctx, p, path)
}
