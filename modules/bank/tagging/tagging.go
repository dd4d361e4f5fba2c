// Package tagging is the contract between the bank's tag classification
// (the classify_tags job behind POST /tags/classify) and a model that picks
// tags: the AI module's keyword task. The bank reads its questions and
// stores the picks under its own rules; the tagger only builds prompts,
// calls the model and reads its answer. It is a leaf package so that both
// modules can import it (the AI module already asks the bank for
// questions, so the bank cannot import the AI module).
package tagging

import "context"

// MaxPerQuestion bounds the tags a model may give one question: a question
// is about a few subjects and diseases, and an answer naming more is not
// choosing.
const MaxPerQuestion = 8

// Question is what the model reads of a live question.
type Question struct {
	ID            int64
	Text          string
	CorrectAnswer string
	Explanation   string
}

// Tag is one tag the model may pick (subject or disease).
type Tag struct {
	ID   int64
	Name string
}

// Picks is what a model chose: question id → tag ids, each one of the
// vocabulary given, at most MaxPerQuestion per question; Dropped counts the
// names it gave that were not in the vocabulary or over that bound.
type Picks struct {
	Tags    map[int64][]int64
	Dropped int
}

// Tagger is one model picking tags.
type Tagger interface {
	// Model names the model (its model_id), for the job's steps and result.
	Model() string
	// Tag asks which of vocabulary apply to each of qs, in as many calls
	// as the tagger needs, none inside a transaction. A failed call or an
	// answer that is not the JSON asked for is an error carrying the
	// upstream's message.
	Tag(ctx context.Context, qs []Question, vocabulary []Tag) (*Picks, error)
}

// Models is the port the AI module fills.
type Models interface {
	// KeywordTagger gives the keyword task's active default model as a
	// Tagger, or nil when there is none (the bank then tags by its rules).
	KeywordTagger(ctx context.Context) (Tagger, error)
}
