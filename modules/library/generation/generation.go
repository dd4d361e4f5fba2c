// Package generation is the contract between the library's generation
// jobs (generate_article_draft, its refine, generate_article_cards) and
// whatever writes with a model: the AI module. The library gathers the
// grounding and stores what comes back under its own rules; the writer
// only builds prompts, calls models and reads their answers. It is a leaf
// package so that both modules can import it.
package generation

import (
	"context"
	"errors"
)

// The errors a Writer answers when its task has no usable default model;
// the job fails with exactly this text.
var (
	ErrNoArticleModel   = errors.New("no article model configured")
	ErrNoFlashcardModel = errors.New("no flashcard model configured")
)

// Source is one piece of grounding the model is told to write from.
type Source struct {
	Kind  string // bank, article, references
	Title string
	Text  string
}

// Section is one section of an article as a model writes it.
type Section struct {
	Heading  string
	Markdown string
}

// Article is an article as a model writes it.
type Article struct {
	Title    string
	Summary  string
	Sections []Section
}

// Progress records a step the requester can poll; it returns an error once
// the job is cancelled, which the writer must return.
type Progress func(ctx context.Context, name, detail string) error

// DraftRequest asks for a new article.
type DraftRequest struct {
	Title        string
	Instructions string
	Sources      []Source
	Progress     Progress
}

// RefineRequest asks for a rewrite of an article, or of one of its
// sections when Section names it (its heading).
type RefineRequest struct {
	Article      Article
	Section      string // the heading of the section to rewrite; "" the whole article
	Instructions string
	Sources      []Source
	Progress     Progress
}

// Card is a flashcard as a model writes it (basic: question and answer;
// cloze: the passage in Front).
type Card struct {
	Type  string
	Front string
	Back  string
}

// CardsRequest asks for flashcards from an article.
type CardsRequest struct {
	Article      Article
	Instructions string
	Sources      []Source
	Progress     Progress
}

// Writer is the port the AI module fills. Each call makes its model calls
// outside any transaction and answers what the model wrote, bounded and
// parsed; a model that fails or answers something unusable is an error
// naming why, and no usable default model is ErrNoArticleModel or
// ErrNoFlashcardModel.
type Writer interface {
	DraftArticle(ctx context.Context, in DraftRequest) (*Article, error)
	// RefineArticle gives the sections written: the one asked for, or the
	// whole article's.
	RefineArticle(ctx context.Context, in RefineRequest) ([]Section, error)
	MakeCards(ctx context.Context, in CardsRequest) ([]Card, error)
}
