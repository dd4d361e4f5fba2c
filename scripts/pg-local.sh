#!/usr/bin/env bash
# A project-local Postgres cluster under .data/pg on its own port, for
# machines without Docker. Usage: pg-local.sh start|stop|status
# Starting installs PostgreSQL 15 and pgvector first when they are missing
# (scripts/pg-install.sh) and does nothing it need not do on a second run.
# When DATABASE_URL is set, that database wins and nothing is started.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PGBIN=/usr/lib/postgresql/15/bin
PGPORT=${ROUNDS_PG_PORT:-54329}
DATA="$ROOT/.data/pg"
RUN="$ROOT/.data/pg-run"
LOG="$ROOT/.data/pg.log"

# Postgres refuses to run as root; as root we run it as the postgres user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() { as_pg "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

start() {
  if [ -n "${DATABASE_URL:-}" ]; then
    echo "==> DATABASE_URL is set: using that database, not the local cluster"
    return 0
  fi
  "$ROOT/scripts/pg-install.sh"
  mkdir -p "$ROOT/.data"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    echo "==> creating cluster in .data/pg (port $PGPORT)"
    mkdir -p "$DATA" "$RUN"
    [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$DATA" "$RUN"
    chmod 700 "$DATA"
    as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$DATA/postgresql.conf" <<CONF
port = $PGPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$RUN'
max_connections = 300
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  fi
  if ! running; then
    [ "$(id -u)" -ne 0 ] || { touch "$LOG"; chown postgres:postgres "$LOG"; mkdir -p "$RUN"; chown postgres:postgres "$RUN"; }
    as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start >/dev/null
    echo "==> postgres running on 127.0.0.1:$PGPORT"
  fi
  psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname='rounds'" | grep -q 1 ||
    psql_admin -qc "CREATE ROLE rounds LOGIN SUPERUSER"
  psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname='rounds'" | grep -q 1 ||
    psql_admin -qc "CREATE DATABASE rounds OWNER rounds"
}

psql_admin() { "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

case "${1:-}" in
  start) start ;;
  stop) if running; then as_pg "$PGBIN/pg_ctl" -D "$DATA" -m fast stop >/dev/null; echo "==> stopped"; fi ;;
  status) if running; then echo "running on 127.0.0.1:$PGPORT"; else echo "stopped"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
