-- Partition attempts.answers by range of attempt_id (docs/operations.md,
-- "Capacity model", "Partitioning"). Run it as the role that owns the
-- tables (the one `rounds migrate` runs as), with psql, never inside a
-- transaction block (each step below is its own transaction):
--
--   psql -v ON_ERROR_STOP=1 -f scripts/partition-answers.sql "$DATABASE_URL"
--
-- The first run turns the table into a partitioned one without copying a
-- row: the existing table becomes the first partition, answers_0, holding
-- every attempt id below a bound a range ahead of the newest attempt. Its
-- bound is proven by a CHECK constraint validated while the service keeps
-- writing (SHARE UPDATE EXCLUSIVE), so the swap itself holds the table's
-- lock only for catalogue changes; its indexes and foreign keys are
-- attached to the new parent's, not rebuilt.
--
-- Every run (the first included) then creates the partitions for the next
-- attempt ids: run it daily (cron, pg_cron or a CronJob); it does nothing
-- when enough partitions exist. A partition is named after its lowest
-- attempt id (answers_5000000 holds 5,000,000 up to the next one).
--
-- Settings (PGOPTIONS='-c rounds.answers_partition_width=2000000'):
--   rounds.answers_partition_width   attempts per partition (1000000)
--   rounds.answers_partitions_ahead  empty partitions kept ahead (4)

-- Wait at most this long for a lock: behind a long transaction, give up
-- (and run again) rather than queue every request behind the script.
SET lock_timeout = '10s';
\timing on

\echo step 1: the bound of the existing rows
-- Step 1 (first run): prove which attempt ids the existing rows hold. The
-- bound leaves a whole partition's width of new attempts for the minutes
-- until step 3; new rows are checked against it at once.
DO $$
DECLARE
  width bigint := coalesce(nullif(current_setting('rounds.answers_partition_width', true), ''), '1000000')::bigint;
  newest bigint;
BEGIN
  IF width < 1 THEN
    RAISE EXCEPTION 'rounds.answers_partition_width must be positive, not %', width;
  END IF;
  IF (SELECT relkind FROM pg_class WHERE oid = 'attempts.answers'::regclass) <> 'r'
     OR EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'attempts.answers'::regclass
                AND conname = 'answers_partition_bound') THEN
    RETURN;
  END IF;
  SELECT greatest(coalesce(max(id), 0), pg_sequence_last_value(pg_get_serial_sequence('attempts.attempts', 'id')))
    INTO newest FROM attempts.attempts;
  EXECUTE format('ALTER TABLE attempts.answers ADD CONSTRAINT answers_partition_bound
                  CHECK (attempt_id IS NOT NULL AND attempt_id < %s) NOT VALID',
                 (coalesce(newest, 0) / width + 2) * width);
END $$;

\echo step 2: validate it
-- Step 2 (first run): validate it, reading the table while writes go on.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'attempts.answers'::regclass
             AND conname = 'answers_partition_bound' AND NOT convalidated) THEN
    ALTER TABLE attempts.answers VALIDATE CONSTRAINT answers_partition_bound;
  END IF;
END $$;

\echo step 3: the swap
-- Step 3 (first run): the swap, one transaction. The table and its
-- indexes take the first partition's name, a partitioned table with the
-- same columns, keys, indexes, foreign keys and grants takes the table's,
-- and the old table is attached as its first partition: Postgres reuses
-- each matching index and foreign key, and the validated CHECK spares it
-- the scan. An index Postgres cannot carry to a partitioned table (a
-- unique one without attempt_id) fails here and leaves everything as it was.
DO $$
DECLARE
  bound bigint;
  owner name;
  acl aclitem[];
  keys text[];
  indexes text[];
  ddl text;
  r record;
BEGIN
  IF (SELECT relkind FROM pg_class WHERE oid = 'attempts.answers'::regclass) <> 'r' THEN
    RETURN;
  END IF;
  LOCK TABLE attempts.answers IN ACCESS EXCLUSIVE MODE;
  SELECT (regexp_match(pg_get_constraintdef(oid), 'attempt_id < (\d+)'))[1]::bigint INTO bound
    FROM pg_constraint WHERE conrelid = 'attempts.answers'::regclass
     AND conname = 'answers_partition_bound' AND convalidated;
  IF bound IS NULL THEN
    RAISE EXCEPTION 'attempts.answers has no validated answers_partition_bound: run the whole script';
  END IF;
  SELECT relowner::regrole::name, relacl INTO owner, acl FROM pg_class WHERE oid = 'attempts.answers'::regclass;
  -- The table's own definitions, read before anything is renamed.
  SELECT coalesce(array_agg(format('ALTER TABLE attempts.answers ADD CONSTRAINT %I %s', conname, pg_get_constraintdef(oid))
                            ORDER BY contype DESC, conname), '{}')
    INTO keys FROM pg_constraint
   WHERE conrelid = 'attempts.answers'::regclass AND contype IN ('p', 'u', 'f');
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid) ORDER BY i.indexrelid), '{}')
    INTO indexes FROM pg_index i
   WHERE i.indrelid = 'attempts.answers'::regclass
     AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid);

  ALTER TABLE attempts.answers RENAME TO answers_0;
  FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = 'attempts.answers_0'::regclass LOOP
    EXECUTE format('ALTER INDEX attempts.%I RENAME TO %I', r.relname, regexp_replace(r.relname, '^answers_', 'answers_0_'));
  END LOOP;

  CREATE TABLE attempts.answers (LIKE attempts.answers_0 INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS)
    PARTITION BY RANGE (attempt_id);
  ALTER TABLE attempts.answers DROP CONSTRAINT answers_partition_bound;
  FOREACH ddl IN ARRAY keys || indexes LOOP
    EXECUTE ddl;
  END LOOP;
  EXECUTE format('ALTER TABLE attempts.answers OWNER TO %I', owner);
  FOR r IN SELECT (a).grantee, (a).privilege_type FROM (SELECT aclexplode(acl) AS a) x
            WHERE (a).grantee <> (SELECT oid FROM pg_roles WHERE rolname = owner) LOOP
    EXECUTE format('GRANT %s ON attempts.answers TO %s', r.privilege_type,
                   CASE WHEN r.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.grantee::regrole::name) END);
  END LOOP;
  COMMENT ON TABLE attempts.answers IS 'Partitioned by range of attempt_id: scripts/partition-answers.sql';

  EXECUTE format('ALTER TABLE attempts.answers ATTACH PARTITION attempts.answers_0 FOR VALUES FROM (MINVALUE) TO (%s)', bound);
  ALTER TABLE attempts.answers_0 DROP CONSTRAINT answers_partition_bound;
  -- Every index of the old table must now belong to one of the parent's:
  -- one left over would be a definition the parent did not take.
  IF EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = 'attempts.answers_0'::regclass
              AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)) THEN
    RAISE EXCEPTION 'an index of attempts.answers_0 has no counterpart on the partitioned table';
  END IF;
END $$;

\echo step 4: partitions ahead
-- Step 4 (every run): partitions ahead of the newest attempt, so a new
-- attempt's answers always have somewhere to go (there is no default
-- partition: rows in one would make each new partition scan it under lock).
DO $$
DECLARE
  width bigint := coalesce(nullif(current_setting('rounds.answers_partition_width', true), ''), '1000000')::bigint;
  ahead int := coalesce(nullif(current_setting('rounds.answers_partitions_ahead', true), ''), '4')::int;
  newest bigint;
  top bigint;
BEGIN
  SELECT greatest(coalesce(max(id), 0), pg_sequence_last_value(pg_get_serial_sequence('attempts.attempts', 'id')))
    INTO newest FROM attempts.attempts;
  newest := coalesce(newest, 0);
  SELECT max((regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \(''?(-?\d+)''?\)'))[1]::bigint) INTO top
    FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
   WHERE h.inhparent = 'attempts.answers'::regclass;
  IF top IS NULL THEN
    RAISE EXCEPTION 'attempts.answers has no partitions: run the whole script';
  END IF;
  WHILE top < newest + ahead * width LOOP
    EXECUTE format('CREATE TABLE attempts.%I PARTITION OF attempts.answers FOR VALUES FROM (%s) TO (%s)',
                   'answers_' || top, top, top + width);
    top := top + width;
  END LOOP;
END $$;

\echo statistics
-- The parent's statistics (its partitions keep their own).
ANALYZE attempts.answers;
