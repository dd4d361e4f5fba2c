#!/usr/bin/env bash
# A project-local Postgres cluster on its own port (ROUNDS_PG_PORT, 54329 by
# default), one per checkout, for machines without Docker.
# Usage: pg-local.sh start|stop|status|reset|where
# Starting installs PostgreSQL 15 and pgvector first when they are missing
# (scripts/pg-install.sh) and does nothing it need not do on a second run.
# When DATABASE_URL is set, that database wins and nothing is started.
#
# The cluster lives in .data/pg when the user running Postgres can reach the
# checkout. Postgres refuses to run as root, so as root it runs as the
# postgres user, which cannot enter a checkout under /root: then the cluster
# lives in ~postgres/rounds-dev/<checkout name>-<hash of its path>, still one
# per checkout. ROUNDS_PG_DIR, when set, takes the place of ~postgres/rounds-dev
# for any user (the postgres user must be able to enter it): the cluster then
# lives in $ROUNDS_PG_DIR/<checkout name>-<hash>. `where` prints the directory
# in use.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
PGBIN=/usr/lib/postgresql/15/bin
PGPORT=${ROUNDS_PG_PORT:-54329}

as_root() { [ "$(id -u)" -eq 0 ]; }

# Postgres refuses to run as root; as root we run it as the postgres user,
# from / because the working directory may be one it cannot enter.
as_pg() {
  if as_root; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# base prints the directory that holds this checkout's cluster (pg), its
# socket directory (pg-run) and its log (pg.log).
base() {
  local parent
  if [ -n "${ROUNDS_PG_DIR:-}" ]; then
    parent=$ROUNDS_PG_DIR
  elif ! as_root || ! getent passwd postgres >/dev/null || as_pg test -x "$ROOT"; then
    echo "$ROOT/.data"
    return
  else
    parent="$(getent passwd postgres | cut -d: -f6)/rounds-dev"
  fi
  echo "$parent/$(basename "$ROOT")-$(printf %s "$ROOT" | sha256sum | cut -c1-10)"
}

locate() {
  BASE=$(base)
  DATA="$BASE/pg"
  RUN="$BASE/pg-run"
  LOG="$BASE/pg.log"
}

running() { [ -f "$DATA/PG_VERSION" ] && as_pg "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

# The fourth line of postmaster.pid is the port the running cluster listens on.
running_port() { sed -n 4p "$DATA/postmaster.pid"; }

psql_admin() { "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

start() {
  if [ -n "${DATABASE_URL:-}" ]; then
    echo "==> DATABASE_URL is set: using that database, not the local cluster"
    return 0
  fi
  "$ROOT/scripts/pg-install.sh"
  locate
  mkdir -p "$ROOT/.data"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    echo "==> creating cluster in $DATA"
    # Outside the checkout, the parent must be enterable whatever the umask
    # (one that exists is left as it is: it may be ROUNDS_PG_DIR=/tmp).
    [ "$BASE" = "$ROOT/.data" ] || [ -d "$(dirname "$BASE")" ] || install -d -m 755 "$(dirname "$BASE")"
    mkdir -p "$DATA" "$RUN"
    chmod 755 "$BASE"
    if as_root; then
      chown postgres:postgres "$BASE" "$DATA" "$RUN"
      printf '%s\n' "$ROOT" >"$BASE/checkout"
    fi
    chmod 700 "$DATA"
    as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$RUN'
max_connections = 300
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  fi
  if running; then
    if [ "$(running_port)" != "$PGPORT" ]; then
      echo "pg-local: this checkout's cluster is running on port $(running_port), not $PGPORT;" \
        "stop it (go tool task db:stop) or set ROUNDS_PG_PORT=$(running_port)" >&2
      exit 1
    fi
  else
    # Another checkout's cluster on the same port would otherwise be used
    # (and filled) as if it were this one's.
    if "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT"; then
      echo "pg-local: port $PGPORT is taken by another server (another checkout's cluster?);" \
        "set ROUNDS_PG_PORT to a free port" >&2
      exit 1
    fi
    mkdir -p "$RUN"
    if as_root; then touch "$LOG"; chown postgres:postgres "$LOG" "$RUN"; fi
    # The port is given at every start, so ROUNDS_PG_PORT is not frozen at initdb.
    as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$LOG" -o "-p $PGPORT" -w -t 60 start >/dev/null
    echo "==> postgres running on 127.0.0.1:$PGPORT (cluster in $DATA)"
  fi
  psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname='rounds'" | grep -q 1 ||
    psql_admin -qc "CREATE ROLE rounds LOGIN SUPERUSER"
  psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname='rounds'" | grep -q 1 ||
    psql_admin -qc "CREATE DATABASE rounds OWNER rounds"
}

stop() {
  locate
  if running; then as_pg "$PGBIN/pg_ctl" -D "$DATA" -m fast stop >/dev/null; echo "==> stopped"; fi
}

# reset deletes the cluster wherever it lives, and the rest of .data (uploads).
reset() {
  stop
  rm -rf "$BASE" "$ROOT/.data"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  reset) reset ;;
  status)
    locate
    if running; then echo "running on 127.0.0.1:$(running_port) (cluster in $DATA)"; else echo "stopped"; exit 1; fi
    ;;
  where) base ;;
  *) echo "usage: $0 start|stop|status|reset|where" >&2; exit 2 ;;
esac
