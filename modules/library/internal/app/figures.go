package app

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/roundsedu/rounds/modules/library/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// figureLine is a figure in a section's markdown: a line holding only an
// image of a stored file, ![alt](/uploads/key).
var figureLine = regexp.MustCompile(`^!\[((?:[^\]\\\n]|\\.)*)\]\(/uploads/([A-Za-z0-9._/-]{1,300})\)[ \t]*$`)

// Figure is a stored file shown in a section.
type Figure = store.Figure

// FigureMarkdown is the markdown line showing path with alt text; the alt
// is kept on one line and its markdown characters escaped.
func FigureMarkdown(path, alt string) string {
	alt = strings.Join(strings.Fields(alt), " ")
	var b strings.Builder
	for _, r := range alt {
		if strings.ContainsRune(`\[]*_`+"`", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return "![" + b.String() + "](/uploads/" + path + ")"
}

// figuresIn lists the figure lines of a section's markdown in order (a file
// shown twice counts once).
func figuresIn(md string) []Figure {
	var out []Figure
	for _, line := range strings.Split(md, "\n") {
		m := figureLine.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil || slices.ContainsFunc(out, func(f Figure) bool { return f.Path == m[2] }) {
			continue
		}
		out = append(out, Figure{Path: m[2], Alt: strings.ReplaceAll(m[1], `\`, "")})
	}
	return out
}

// reconcileFigures rebuilds the article's figure rows from its markdown.
func (s *Service) reconcileFigures(ctx context.Context, articleID int64, secs []store.Section) error {
	var rows []Figure
	for _, sec := range secs {
		for _, f := range figuresIn(sec.Markdown) {
			f.ArticleID, f.SectionKey, f.Ord = articleID, sec.Key, len(rows)
			rows = append(rows, f)
		}
	}
	return s.store.ReplaceFigures(ctx, articleID, rows)
}

// editSection changes one section's markdown as a figure route does: the
// article as it was becomes a revision, then it is saved, rendered,
// reconciled and reindexed like any edit. Call inside a transaction with
// the article locked.
func (s *Service) editSections(ctx context.Context, a *store.Article, by int64, note string, edit func(secs []store.Section) (bool, error)) error {
	secs, err := s.store.Sections(ctx, a.ID)
	if err != nil {
		return err
	}
	next := slices.Clone(secs)
	changed, err := edit(next)
	if err != nil || !changed {
		return err
	}
	for _, sec := range next {
		if err := s.checkMarkdown("markdown", sec.Markdown); err != nil {
			return err
		}
	}
	if err := s.snapshot(ctx, a, secs, by, note); err != nil {
		return err
	}
	a.UpdatedBy = by
	if err := s.store.Save(ctx, a); err != nil {
		return err
	}
	return s.writeSections(ctx, &Article{Article: *a}, next)
}

func sectionIndex(secs []store.Section, key string) int {
	return slices.IndexFunc(secs, func(sec store.Section) bool { return sec.Key == key })
}

// CheckFigure tells, before a file is stored, whether p may place a figure
// on the section: 404/403/409 as an edit, 422 for an unknown section, 409
// when the section already holds a figure and replace is false.
func (s *Service) CheckFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey string, replace bool) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		a, _, err := s.editable(ctx, p, articleID)
		if err != nil {
			return err
		}
		secs, err := s.store.Sections(ctx, a.ID)
		if err != nil {
			return err
		}
		_, err = placeIn(secs, sectionKey, "", "", replace)
		return err
	})
}

// placeIn writes the figure line into the section: in place of the
// section's figure when replace is set, else at its end (409 when it
// already holds one). An empty path only checks.
func placeIn(secs []store.Section, sectionKey, path, alt string, replace bool) (bool, error) {
	i := sectionIndex(secs, sectionKey)
	if i < 0 {
		return false, apperr.Invalidf("section_id", "the article has no section %q", sectionKey)
	}
	held := figuresIn(secs[i].Markdown)
	if len(held) > 0 && !replace {
		return false, apperr.Conflictf("section %q already holds a figure; send replace=true to replace it", sectionKey)
	}
	if path == "" {
		return false, nil
	}
	line := FigureMarkdown(path, alt)
	if len(held) == 0 {
		secs[i].Markdown = appendLine(secs[i].Markdown, line)
		return true, nil
	}
	lines := strings.Split(secs[i].Markdown, "\n")
	out, placed := lines[:0], false
	for _, l := range lines {
		if figureLine.MatchString(strings.TrimRight(l, "\r")) {
			if placed {
				continue
			}
			l, placed = line, true
		}
		out = append(out, l)
	}
	secs[i].Markdown = strings.Join(out, "\n")
	return true, nil
}

func appendLine(md, line string) string {
	md = strings.TrimRight(md, "\n")
	if md == "" {
		return line
	}
	return md + "\n\n" + line
}

// PlaceFigure writes a figure line for path into the section, in the
// caller's transaction (the media module stores the asset in the same
// one).
func (s *Service) PlaceFigure(ctx context.Context, p auth.Principal, articleID int64, sectionKey, path, alt string, replace bool) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		a, _, err := s.editable(ctx, p, articleID)
		if err != nil {
			return err
		}
		return s.editSections(ctx, a, p.UserID, "figure added", func(secs []store.Section) (bool, error) {
			return placeIn(secs, sectionKey, path, alt, replace)
		})
	})
}

// removeLines drops every figure line showing path from the sections.
func removeLines(secs []store.Section, path string) bool {
	changed := false
	for i := range secs {
		lines := strings.Split(secs[i].Markdown, "\n")
		kept := lines[:0]
		for _, l := range lines {
			if m := figureLine.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil && m[2] == path {
				changed = true
				continue
			}
			kept = append(kept, l)
		}
		secs[i].Markdown = strings.TrimRight(strings.Join(kept, "\n"), "\n")
	}
	return changed
}

// UnlinkFigure removes path from one article the caller may edit, or, with
// articleID 0, from every article (moderators binning a file). It returns
// the sections it was in.
func (s *Service) UnlinkFigure(ctx context.Context, p auth.Principal, path string, articleID int64) ([]Figure, error) {
	var removed []Figure
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		figs, err := s.store.FiguresOf(ctx, path)
		if err != nil {
			return err
		}
		done := map[int64]bool{}
		for _, f := range figs {
			if articleID != 0 && f.ArticleID != articleID {
				continue
			}
			removed = append(removed, f)
			if done[f.ArticleID] {
				continue // the article's lines went with its first row
			}
			done[f.ArticleID] = true
			var a *store.Article
			if articleID == 0 && p.IsModerator() {
				a, err = s.locked(ctx, f.ArticleID)
			} else {
				a, _, err = s.editable(ctx, p, f.ArticleID)
			}
			if err != nil {
				return err
			}
			if err := s.editSections(ctx, a, p.UserID, "figure removed", func(secs []store.Section) (bool, error) {
				return removeLines(secs, path), nil
			}); err != nil {
				return err
			}
		}
		if articleID != 0 && len(removed) == 0 {
			return apperr.NotFoundf("the article does not show this file")
		}
		return nil
	})
	return removed, err
}

// RestoreFigure appends the figure line at the end of every section it was
// in (sections or articles gone since are skipped).
func (s *Service) RestoreFigure(ctx context.Context, by int64, places []Figure, path, alt string) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		byArticle := map[int64][]string{}
		var order []int64
		for _, f := range places {
			if _, ok := byArticle[f.ArticleID]; !ok {
				order = append(order, f.ArticleID)
			}
			byArticle[f.ArticleID] = append(byArticle[f.ArticleID], f.SectionKey)
		}
		for _, id := range order {
			a, err := s.locked(ctx, id)
			if apperr.Is(err, apperr.NotFound) {
				continue
			}
			if err != nil {
				return err
			}
			err = s.editSections(ctx, a, by, "figure restored", func(secs []store.Section) (bool, error) {
				changed := false
				for _, key := range byArticle[id] {
					if i := sectionIndex(secs, key); i >= 0 {
						secs[i].Markdown = appendLine(secs[i].Markdown, FigureMarkdown(path, alt))
						changed = true
					}
				}
				return changed, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Gallery lists an article's figures in the order of its markdown, for
// anyone who may read the article.
func (s *Service) Gallery(ctx context.Context, p auth.Principal, articleID int64) ([]Figure, error) {
	a, err := s.store.Article(ctx, articleID, db.NoLock)
	if _, _, err := s.readable(ctx, p, a, err); err != nil {
		return nil, err
	}
	return s.store.Figures(ctx, articleID)
}

// ReadsFigure reports whether p may read an article that shows path.
func (s *Service) ReadsFigure(ctx context.Context, p auth.Principal, path string) (bool, error) {
	figs, err := s.store.FiguresOf(ctx, path)
	if err != nil {
		return false, err
	}
	for _, f := range figs {
		a, err := s.store.Article(ctx, f.ArticleID, db.NoLock)
		if _, _, err := s.readable(ctx, p, a, err); err == nil {
			return true, nil
		} else if !apperr.Is(err, apperr.NotFound) {
			return false, err
		}
	}
	return false, nil
}
