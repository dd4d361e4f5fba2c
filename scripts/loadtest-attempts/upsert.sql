-- pgbench baseline: the single-row upsert an autosave boils down to, on a
-- table shaped like attempts.saved_progress, with no HTTP, auth or checks.
\set aid random(1, 1000)
INSERT INTO loadbench.progress (attempt_id, user_id, quiz_id, answers, current_idx, mode, device, revision, saved_at, expires_at)
VALUES (:aid, :aid, 1, '{"101":"Bravo","102":"Bravo","103":"Alpha","104":"Bravo","105":"Delta","106":"Bravo","107":"Bravo","108":"Charlie","109":"Bravo","110":"Bravo","111":"Bravo","112":"Alpha","113":"Bravo","114":"Bravo","115":"Bravo","116":"Delta","117":"Bravo","118":"Bravo","119":"Bravo","120":"Bravo"}',
        :aid % 40, 'timed', 'device', :aid, now(), now() + interval '7 days')
ON CONFLICT (attempt_id) DO UPDATE SET answers = EXCLUDED.answers, current_idx = EXCLUDED.current_idx,
  revision = EXCLUDED.revision, saved_at = EXCLUDED.saved_at, expires_at = EXCLUDED.expires_at;
