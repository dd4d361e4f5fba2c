package flashcards

import "github.com/roundsedu/rounds/modules/flashcards/internal/app"

// Articles is what the library implements so cards can link to its
// articles and sections; until it does, article links are refused.
type Articles = app.Articles

// Pictures is what media implements so cards can carry pictures; until it
// does, image cards and pictures are refused.
type Pictures = app.Pictures

// ExamDates is what plans implements so a learner's study-plan exam date
// aims their schedule in decks where they set none.
type ExamDates = app.ExamDates
