package store

import "context"

// ShowingImage is a live question showing a stored file, and whether it
// shows it on the stem side.
type ShowingImage struct {
	Question
	Stem bool
}

// maxShowing bounds how many questions one file check reads: a file on
// more stems than that is decided by the first rows.
const maxShowing = 50

// QuestionsShowing lists live questions whose stem image, explanation
// image or figures name the storage key, stem-side ones first.
func (s *Store) QuestionsShowing(ctx context.Context, key string) ([]ShowingImage, error) {
	var out []ShowingImage
	err := s.db.Conn(ctx).Raw(`SELECT * FROM (SELECT q.*,
			(q.image_path = @key OR q.figures @> jsonb_build_array(jsonb_build_object('path', CAST(@key AS text), 'role', 'stem'))) AS stem
		FROM bank.questions q
		WHERE q.deleted_at IS NULL AND (q.image_path = @key OR q.explanation_image_path = @key
			OR q.figures @> jsonb_build_array(jsonb_build_object('path', CAST(@key AS text))))) s
		ORDER BY stem DESC, id LIMIT @n`, map[string]any{"key": key, "n": maxShowing}).Scan(&out).Error
	return out, err
}
