#!/usr/bin/env bash
# Measures autosave end to end: builds the server, runs it on loopback
# against a scratch database on the local cluster, drives 200 and 1,000
# learners (every 3 s, then back to back for the ceiling), runs pgbench on a
# single-row upsert in the same database, then stops the server and drops
# the database. Usage: scripts/loadtest-attempts/run.sh (from anywhere).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/loadtest-attempts"
PGBIN=/usr/lib/postgresql/15/bin
DB=rounds_load_attempts
ADMIN="postgres://rounds@127.0.0.1:54329/postgres?sslmode=disable"
URL="postgres://rounds@127.0.0.1:54329/$DB?sslmode=disable"
ADDR=127.0.0.1:18080
SECRET=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
WORK=$(mktemp -d)
SERVER_PID=""

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

psql "$ADMIN" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
cat >"$WORK/overlay.yaml" <<YAML
http:
  addr: "$ADDR"
metrics:
  enabled: false
log:
  level: warn
database:
  url: "$URL"
  migrate_on_start: true
auth:
  token_secret: "$SECRET"
storage:
  url: "file://$WORK/uploads"
YAML

(cd "$ROOT" && go build -o "$WORK/rounds" ./app/cmd/rounds && go build -o "$WORK/load" ./scripts/loadtest-attempts)
"$WORK/rounds" all --config "$WORK/overlay.yaml" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  curl -fsS "http://$ADDR/api/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://$ADDR/api/health" >/dev/null

load() { "$WORK/load" -base "http://$ADDR" -db "$URL" -secret "$SECRET" "$@"; }
echo "== autosave every 3 s"
load -learners 200 -interval 3s -duration 30s -warmup 5s
load -learners 1000 -interval 3s -duration 30s -warmup 5s
echo "== back to back (ceiling)"
load -learners 200 -interval 0 -duration 20s -warmup 3s
load -learners 1000 -interval 0 -duration 20s -warmup 3s

echo "== pgbench: single-row upsert, same database"
psql "$URL" -q <<SQL
CREATE SCHEMA loadbench;
CREATE TABLE loadbench.progress (LIKE attempts.saved_progress INCLUDING DEFAULTS INCLUDING INDEXES);
SQL
for c in 20 64; do
  "$PGBIN/pgbench" -n -M prepared -c "$c" -j 2 -T 20 -f "$HERE/upsert.sql" "$URL" 2>&1 |
    grep -E "number of clients|tps =|latency average" | sed "s/^/[c=$c] /"
done
"$PGBIN/pgbench" -n -M prepared -c 20 -j 2 -T 20 -f "$HERE/upsert.sql" "$URL" --log --log-prefix="$WORK/pgb" >/dev/null 2>&1
cat "$WORK"/pgb.* | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {printf "[c=20] pgbench upsert p99 = %.2f ms\n", a[int(NR*0.99)]/1000}'

echo "== pgbench: the app's own autosave statement, same database"
psql "$URL" -qc "UPDATE attempts.saved_progress SET device = 'pgbench', revision = NULL WHERE quiz_id = 1"
"$PGBIN/pgbench" -n -M prepared -c 20 -j 2 -T 20 -f "$HERE/app-statement.sql" "$URL" 2>&1 |
  grep -E "tps =|latency average" | sed "s/^/[c=20 app statement] /"
psql "$URL" -tAc "SELECT 'rows saved by pgbench: ' || count(*) FROM attempts.saved_progress WHERE device = 'pgbench' AND saved_at > now() - interval '1 minute'"
