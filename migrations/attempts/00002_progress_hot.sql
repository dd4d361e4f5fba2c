-- +goose Up
-- Autosave rewrites a saved_progress row every few seconds. An update can
-- stay on its page without touching any index (a HOT update) only when no
-- indexed column changes and the page has room: so the volatile saved_at
-- and expires_at leave the indexes, and pages keep 30% free for the new
-- row versions. A learner has a handful of progress rows per quiz, so
-- "newest first" sorts them after the (user_id, quiz_id) lookup; the
-- expiry purge scans the table in the background, which is cheaper than
-- an index every save must maintain.
DROP INDEX attempts.saved_progress_user_quiz_idx;
DROP INDEX attempts.saved_progress_expires_idx;
CREATE INDEX saved_progress_user_quiz_idx ON attempts.saved_progress (user_id, quiz_id);
ALTER TABLE attempts.saved_progress SET (fillfactor = 70);

-- +goose Down
ALTER TABLE attempts.saved_progress RESET (fillfactor);
DROP INDEX attempts.saved_progress_user_quiz_idx;
CREATE INDEX saved_progress_user_quiz_idx ON attempts.saved_progress (user_id, quiz_id, saved_at DESC);
CREATE INDEX saved_progress_expires_idx ON attempts.saved_progress (expires_at);
