// Package store is the bank's persistence: gorm rows of schema "bank" and
// the queries the service runs. Nothing here decides who may do what.
package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// Timestamps are the database's: the columns default to now() and writes
// say now() themselves, so the rows below tell gorm never to fill one from
// the application's clock (autoCreateTime/autoUpdateTime off) and to let
// the default apply and read it back (default:now()).

// Store reads and writes bank rows.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Strings is a JSON array of strings in a jsonb column; nil is stored as [].
type Strings = db.JSONList[string]

// Int64s is a JSON array of integers in a jsonb value.
type Int64s = db.JSONList[int64]

// Figure is an image hung on a question with the role it plays.
type Figure struct {
	Path    string `json:"path"`
	Role    string `json:"role"`
	Caption string `json:"caption,omitempty"`
}

// Figures is a JSON array of figures in a jsonb column.
type Figures = db.JSONList[Figure]

// Question is a row of bank.questions (without its search document).
type Question struct {
	ID                   int64 `gorm:"primaryKey"`
	QuestionType         string
	QuestionText         string
	Options              Strings
	CorrectAnswer        string
	Explanation          string
	OptionExplanations   Strings
	KeyPoints            Strings
	AttendingTip         string
	ExplanationImagePath string
	ImagePath            string
	Figures              Figures
	QuestionCategoryID   *int64
	CreatedBy            *int64
	Difficulty           *string // easy, medium or hard once rated (classify_question_difficulty); nil until then
	Version              int
	CreatedAt            time.Time `gorm:"default:now();autoCreateTime:false"`
	UpdatedAt            time.Time `gorm:"default:now();autoUpdateTime:false"`
	DeletedAt            *time.Time
}

// TableName places the row in the module's schema.
func (Question) TableName() string { return "bank.questions" }

// questionCols lists the columns of Question (never the search document).
const questionCols = `id, question_type, question_text, options, correct_answer, explanation,
	option_explanations, key_points, attending_tip, explanation_image_path, image_path, figures,
	question_category_id, created_by, difficulty, version, created_at, updated_at, deleted_at`

// filedCols selects a question (alias q) with its category's name (alias
// c) into QuestionWithFiling; rendered once, not on every query.
var filedCols = prefixed("q") + `, c.name AS question_category_name`

// prefixed returns questionCols qualified with a table alias.
func prefixed(alias string) string {
	cols := strings.Split(questionCols, ",")
	for i, c := range cols {
		cols[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// QuestionWithFiling is a question with its category name.
type QuestionWithFiling struct {
	Question
	QuestionCategoryName *string
}

// Version is a row of bank.question_versions.
type Version struct {
	ID         int64 `gorm:"primaryKey"`
	QuestionID int64
	Snapshot   []byte
	EditedBy   int64
	CreatedAt  time.Time `gorm:"default:now();autoCreateTime:false"`
}

// TableName places the row in the module's schema.
func (Version) TableName() string { return "bank.question_versions" }

// Quiz is a row of bank.quizzes.
type Quiz struct {
	ID               int64 `gorm:"primaryKey"`
	SectionID        *int64
	UserID           int64
	Title            string
	Mode             string
	TimeLimitMinutes *int
	IsPublished      bool
	CategoryID       *int64
	CreatedAt        time.Time `gorm:"default:now();autoCreateTime:false"`
	UpdatedAt        time.Time `gorm:"default:now();autoUpdateTime:false"`
	DeletedAt        *time.Time
}

// TableName places the row in the module's schema.
func (Quiz) TableName() string { return "bank.quizzes" }

// QuizSummary is a quiz with its live question count and category name.
type QuizSummary struct {
	Quiz
	QuestionsCount int
	CategoryName   *string
}

// Category is a row of bank.question_categories.
type Category struct {
	ID          int64 `gorm:"primaryKey"`
	Name        string
	Description *string
	ParentID    *int64
	SystemID    *int64
	CreatedAt   time.Time `gorm:"default:now();autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"default:now();autoUpdateTime:false"`
}

// TableName places the row in the module's schema.
func (Category) TableName() string { return "bank.question_categories" }

// QuizCategory is a row of bank.quiz_categories.
type QuizCategory struct {
	ID        int64 `gorm:"primaryKey"`
	Name      string
	CreatedAt time.Time `gorm:"default:now();autoCreateTime:false"`
}

// TableName places the row in the module's schema.
func (QuizCategory) TableName() string { return "bank.quiz_categories" }

// Tag is a row of bank.tags.
type Tag struct {
	ID        int64 `gorm:"primaryKey"`
	Type      string
	Name      string
	CreatedAt time.Time `gorm:"default:now();autoCreateTime:false"`
}

// TableName places the row in the module's schema.
func (Tag) TableName() string { return "bank.tags" }

// Favorite is a row of bank.favorites.
type Favorite struct {
	ID         int64 `gorm:"primaryKey"`
	UserID     int64
	QuestionID int64
	CreatedAt  time.Time `gorm:"default:now();autoCreateTime:false"`
}

// TableName places the row in the module's schema.
func (Favorite) TableName() string { return "bank.favorites" }

// row is the one row a write's RETURNING clause answers, read through
// gorm on the context's connection so its errors are translated like any
// other (a unique violation is db.IsUniqueViolation).
type row struct {
	conn  *gorm.DB
	query string
	args  []any
}

func (s *Store) row(ctx context.Context, query string, args ...any) row {
	return row{conn: s.db.Conn(ctx), query: query, args: args}
}

// Scan runs the statement and reads its row into dest, in column order;
// db.ErrNotFound when it returned none.
func (r row) Scan(dest ...any) error {
	tx := r.conn.Raw(r.query, r.args...)
	rows, err := tx.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return tx.AddError(err)
		}
		return db.ErrNotFound
	}
	if err := rows.Scan(dest...); err != nil {
		return tx.AddError(err)
	}
	return tx.AddError(rows.Close())
}
