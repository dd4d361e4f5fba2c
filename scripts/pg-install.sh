#!/usr/bin/env bash
# Installs PostgreSQL 15 and builds pgvector from Debian's own source package
# when they are missing. Safe to run again: it does nothing it need not do.
set -euo pipefail

PGBIN=/usr/lib/postgresql/15/bin
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

have_vector() {
  [ -f /usr/share/postgresql/15/extension/vector.control ]
}

if [ -x "$PGBIN/postgres" ] && have_vector; then
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt_updated=""
apt_update() { [ -n "$apt_updated" ] || { $SUDO apt-get update -qq; apt_updated=1; }; }

if [ ! -x "$PGBIN/postgres" ] || [ ! -x "$PGBIN/pg_config" ] || [ ! -d /usr/include/postgresql/15/server ]; then
  echo "==> installing postgresql-15 and build dependencies"
  apt_update
  $SUDO apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev make gcc >/dev/null
fi

if ! have_vector; then
  echo "==> building pgvector from Debian's source package"
  src=/etc/apt/sources.list.d/rounds-trixie-src.sources
  if [ ! -f "$src" ]; then
    $SUDO tee "$src" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt_updated=""
  fi
  apt_update
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get source --download-only pgvector >/dev/null 2>&1 || apt-get source --download-only pgvector)
  tar -xf "$(ls "$work"/pgvector_*.orig.tar.* | head -n1)" -C "$work"
  dir=$(find "$work" -maxdepth 1 -type d -name 'pgvector*' | head -n1)
  make -s -C "$dir" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" >/dev/null
  $SUDO make -s -C "$dir" install PG_CONFIG="$PGBIN/pg_config" >/dev/null
fi
have_vector && echo "==> postgresql-15 with pgvector ready"
