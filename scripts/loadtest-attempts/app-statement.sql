-- pgbench: the app's own one-statement autosave (store.SaveIfFits) on the
-- attempts the first load run made (attempt ids 1-200 of quiz 1, whose
-- questions are ids 1-40; run.sh hands every stored row to device
-- 'pgbench' first). It isolates the database's share of an autosave from
-- the HTTP, auth and JSON work around it.
\set aid random(1, 200)
WITH a AS (
  SELECT id FROM attempts.attempts
  WHERE id = :aid AND user_id = (SELECT user_id FROM attempts.attempts WHERE id = :aid) AND quiz_id = 1
    AND completed_at IS NULL AND (deadline_at IS NULL OR deadline_at >= now() - make_interval(secs => 10))
  FOR KEY SHARE
), fits AS (
  SELECT id FROM a WHERE (SELECT count(*) FROM attempts.answers
    WHERE attempt_id = a.id AND question_id = ANY('{1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20}'::bigint[])) = 20
), up AS (
  INSERT INTO attempts.saved_progress AS sp
    (user_id, quiz_id, attempt_id, answers, current_idx, mode, voice, time_left, started_at, total_time,
     device, revision, saved_at, expires_at)
  SELECT (SELECT user_id FROM attempts.attempts WHERE id = :aid), 1, fits.id,
    '{"1":"Bravo","2":"Bravo","3":"Alpha","4":"Bravo","5":"Delta","6":"Bravo","7":"Bravo","8":"Charlie","9":"Bravo","10":"Bravo","11":"Bravo","12":"Alpha","13":"Bravo","14":"Bravo","15":"Bravo","16":"Delta","17":"Bravo","18":"Bravo","19":"Bravo","20":"Bravo"}',
    5, 'timed', NULL, 3000, NULL, NULL, 'pgbench', NULL, now(), now() + make_interval(secs => 604800)
  FROM fits
  ON CONFLICT (attempt_id) DO UPDATE SET
    answers = EXCLUDED.answers, current_idx = EXCLUDED.current_idx, mode = EXCLUDED.mode, voice = EXCLUDED.voice,
    time_left = EXCLUDED.time_left, started_at = EXCLUDED.started_at, total_time = EXCLUDED.total_time,
    device = EXCLUDED.device, revision = EXCLUDED.revision, saved_at = EXCLUDED.saved_at, expires_at = EXCLUDED.expires_at
  WHERE (sp.expires_at <= now()
     OR (sp.device = EXCLUDED.device AND (EXCLUDED.revision IS NULL OR sp.revision IS NULL OR EXCLUDED.revision >= sp.revision))
     OR (sp.device <> EXCLUDED.device AND (sp.device = '' OR sp.saved_at <= now() - make_interval(secs => 30))))
  RETURNING saved_at, expires_at
)
SELECT up.saved_at, up.expires_at FROM (SELECT 1) AS one LEFT JOIN up ON true;
