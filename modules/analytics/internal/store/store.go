// Package store is the analytics module's persistence: the running sums of
// item analysis per question version and option, the score distribution
// per quiz, and the attempts already counted.
package store

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/platform/db"
)

// Store reads and writes the analytics schema.
type Store struct{ db *db.DB }

// New makes the store.
func New(d *db.DB) *Store { return &Store{db: d} }

// Counted is one response to add to the sums.
type Counted struct {
	QuestionID int64    `json:"question_id"`
	Version    int      `json:"version"`
	Options    []string `json:"options"`
	Answer     string   `json:"answer"` // "" when left blank
	Correct    bool     `json:"correct"`
	Rest       float64  `json:"rest"` // the rest-of-test score
}

// MarkCounted records that an attempt is being counted, reporting false
// when it already was (nothing must be added twice).
func (s *Store) MarkCounted(ctx context.Context, attemptID int64) (bool, error) {
	res := s.db.Conn(ctx).Exec(`INSERT INTO analytics.counted_attempts (attempt_id) VALUES (?)
		ON CONFLICT DO NOTHING`, attemptID)
	return res.RowsAffected == 1, res.Error
}

// AddSitting adds one sitting's responses and score to the sums, in three
// statements whatever the number of questions (the responses travel as
// one jsonb parameter).
func (s *Store) AddSitting(ctx context.Context, quizID int64, percent int, rs []Counted) error {
	conn := s.db.Conn(ctx)
	rows := db.JSONList[Counted](rs)
	if len(rs) > 0 {
		err := conn.Exec(`INSERT INTO analytics.item_stats AS s
			  (question_id, version, options, responses, correct, blank, sum_rest, sum_rest_sq, sum_rest_correct)
			SELECT t.question_id, t.version, t.options, 1, t.correct::int, (t.answer = '')::int, t.rest,
			  t.rest * t.rest, CASE WHEN t.correct THEN t.rest ELSE 0 END
			FROM jsonb_to_recordset(CAST(? AS jsonb)) AS t(question_id bigint, version int, options jsonb,
			  answer text, correct bool, rest float8)
			ON CONFLICT (question_id, version) DO UPDATE SET
			  responses = s.responses + 1, correct = s.correct + EXCLUDED.correct, blank = s.blank + EXCLUDED.blank,
			  sum_rest = s.sum_rest + EXCLUDED.sum_rest, sum_rest_sq = s.sum_rest_sq + EXCLUDED.sum_rest_sq,
			  sum_rest_correct = s.sum_rest_correct + EXCLUDED.sum_rest_correct, updated_at = now()`, rows).Error
		if err != nil {
			return err
		}
		err = conn.Exec(`INSERT INTO analytics.option_stats AS s (question_id, version, option, chosen, sum_rest)
			SELECT t.question_id, t.version, t.answer, 1, t.rest
			FROM jsonb_to_recordset(CAST(? AS jsonb)) AS t(question_id bigint, version int, answer text, rest float8)
			WHERE t.answer <> ''
			ON CONFLICT (question_id, version, option) DO UPDATE SET
			  chosen = s.chosen + 1, sum_rest = s.sum_rest + EXCLUDED.sum_rest`, rows).Error
		if err != nil {
			return err
		}
	}
	return conn.Exec(`INSERT INTO analytics.quiz_scores AS s (quiz_id, percent, sittings) VALUES (?, ?, 1)
		ON CONFLICT (quiz_id, percent) DO UPDATE SET sittings = s.sittings + 1`, quizID, percent).Error
}

// ItemStats is a row of analytics.item_stats.
type ItemStats struct {
	QuestionID     int64
	Version        int
	Options        db.JSONList[string] `gorm:"type:jsonb"`
	Responses      int64
	Correct        int64
	Blank          int64
	SumRest        float64
	SumRestSq      float64
	SumRestCorrect float64
	UpdatedAt      time.Time
}

// OptionStats is a row of analytics.option_stats.
type OptionStats struct {
	QuestionID int64
	Version    int
	Option     string
	Chosen     int64
	SumRest    float64
}

// The reads below are the moderators' statistics: a read replica may
// answer them (db.Replica).

// Items loads the sums of the given questions, every version, newest
// version first.
func (s *Store) Items(ctx context.Context, questionIDs []int64) ([]ItemStats, []OptionStats, error) {
	var items []ItemStats
	err := s.db.Replica(ctx).Raw(`SELECT * FROM analytics.item_stats WHERE question_id = ANY(CAST(? AS bigint[]))
		ORDER BY question_id, version DESC`, db.IDArray(questionIDs)).Scan(&items).Error
	if err != nil {
		return nil, nil, err
	}
	var opts []OptionStats
	err = s.db.Replica(ctx).Raw(`SELECT * FROM analytics.option_stats WHERE question_id = ANY(CAST(? AS bigint[]))
		ORDER BY question_id, version DESC, chosen DESC, option`, db.IDArray(questionIDs)).Scan(&opts).Error
	return items, opts, err
}

// Flagged lists the item versions with at least minResponses responses
// that match the flag's rule, most answered first, and how many match.
func (s *Store) Flagged(ctx context.Context, rule string, minResponses, limit, offset int) ([]ItemStats, int64, error) {
	// r is the point-biserial correlation from the sums (null without spread).
	const withR = `WITH s AS (SELECT *, correct::float8 / responses AS facility,
		  (responses * sum_rest_correct - sum_rest * correct) / NULLIF(sqrt(
		    greatest(responses * sum_rest_sq - sum_rest * sum_rest, 0) *
		    greatest(responses * correct - correct::float8 * correct, 0)), 0) AS r
		FROM analytics.item_stats WHERE responses >= @min)`
	args := map[string]any{"min": minResponses, "limit": limit, "offset": offset}
	var total int64
	if err := s.db.Replica(ctx).Raw(withR+` SELECT count(*) FROM s WHERE `+rule, args).Scan(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []ItemStats
	err := s.db.Replica(ctx).Raw(withR+` SELECT question_id, version, options, responses, correct, blank, sum_rest, sum_rest_sq,
		  sum_rest_correct, updated_at FROM s WHERE `+rule+`
		ORDER BY responses DESC, question_id, version DESC LIMIT @limit OFFSET @offset`, args).Scan(&out).Error
	return out, total, err
}

// Distribution is a quiz's sittings per whole percent.
func (s *Store) Distribution(ctx context.Context, quizID int64) (map[int]int64, error) {
	var rows []struct {
		Percent  int
		Sittings int64
	}
	err := s.db.Replica(ctx).Raw(`SELECT percent, sittings FROM analytics.quiz_scores WHERE quiz_id = ?`, quizID).
		Scan(&rows).Error
	out := make(map[int]int64, len(rows))
	for _, r := range rows {
		out[r.Percent] = r.Sittings
	}
	return out, err
}

// LatestItems gives the newest version of each question with at least
// minResponses responses, most answered first, at most limit of them.
func (s *Store) LatestItems(ctx context.Context, minResponses, limit int) ([]ItemStats, error) {
	var out []ItemStats
	err := s.db.Replica(ctx).Raw(`SELECT * FROM (
		  SELECT DISTINCT ON (question_id) * FROM analytics.item_stats
		  ORDER BY question_id, version DESC) latest
		WHERE responses >= ? ORDER BY responses DESC, question_id LIMIT ?`, minResponses, limit).Scan(&out).Error
	return out, err
}
