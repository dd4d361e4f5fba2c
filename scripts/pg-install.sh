#!/usr/bin/env bash
# Installs PostgreSQL 15 and builds pgvector from Debian's own source package
# when they are missing. Safe to run again: it does nothing it need not do.
#
#   pg-install.sh                 install what is missing
#   pg-install.sh --print-source  print the deb-src entry pgvector would come from
#   PGVECTOR_DESTDIR=DIR pg-install.sh
#                                 build pgvector even if it is installed, and
#                                 stage it under DIR instead of installing it
#
# pgvector's source comes from the machine's own Debian mirror: the URI of
# its first enabled `deb` entry for this release with component main, read
# from the sources APT uses (one-line .list and deb822 .sources files). The
# deb-src entry, package lists and download live in a private APT
# configuration inside a temporary directory that is removed on every exit
# path: nothing is written under /etc/apt, and only that mirror is asked.
set -euo pipefail

PGBIN=/usr/lib/postgresql/15/bin
# Debian's pgvector source package is taken from trixie: it builds against 15.
SRC_SUITE=trixie
# Earlier versions of this script left this entry behind.
LEGACY_SRC=/etc/apt/sources.list.d/rounds-trixie-src.sources
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

work=""
cleanup() { [ -z "$work" ] || rm -rf "$work"; }
# bash runs the EXIT trap on errors, on exit and when a signal ends it.
trap cleanup EXIT

have_vector() { [ -f /usr/share/postgresql/15/extension/vector.control ]; }

# debian_mirror prints "URI SIGNED-BY" (SIGNED-BY only when it is a key file)
# for the first enabled `deb` entry whose suite is this release's codename
# and whose components include main, in the order APT reads its sources.
debian_mirror() {
  local suite SOURCELIST SOURCEPARTS f found=""
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [ -z "$suite" ]; then
    echo "pg-install: /etc/os-release names no VERSION_CODENAME" >&2
    return 1
  fi
  eval "$(apt-config shell SOURCELIST Dir::Etc::sourcelist/f SOURCEPARTS Dir::Etc::sourceparts/d)"
  for f in "$SOURCELIST" "$SOURCEPARTS"*; do
    [ -f "$f" ] || continue
    case "$f" in
      *.list) found=$(one_line_entries "$suite" <"$f") ;;
      *.sources) found=$(deb822_entries "$suite" <"$f") ;;
      *) continue ;;
    esac
    if [ -n "$found" ]; then
      echo "$found" | head -n1
      return 0
    fi
  done
  echo "pg-install: no enabled 'deb' source for suite $suite with component main in $SOURCELIST or $SOURCEPARTS" >&2
  return 1
}

# one_line_entries reads `deb [options] URI SUITE COMPONENT...` lines.
one_line_entries() {
  awk -v suite="$1" '
    { sub(/#.*/, "") }
    {
      opts = ""; line = $0
      if (match(line, /\[[^]]*\]/)) {
        opts = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, 1, RSTART - 1) " " substr(line, RSTART + RLENGTH)
      }
      n = split(line, f)
      if (n < 4 || f[1] != "deb" || f[3] != suite) next
      main = 0
      for (i = 4; i <= n; i++) if (f[i] == "main") main = 1
      if (!main) next
      key = ""
      m = split(opts, o)
      for (i = 1; i <= m; i++) if (o[i] ~ /^signed-by=\//) key = substr(o[i], 11)
      print f[2], key
    }'
}

# deb822_entries reads stanzas of `Key: value` fields separated by blank lines.
deb822_entries() {
  awk -v suite="$1" '
    function has(list, word) { return index(" " list " ", " " word " ") > 0 }
    function flush() {
      if (has(v["types"], "deb") && has(v["suites"], suite) && has(v["components"], "main") &&
          !has("no false off without disable 0", tolower(v["enabled"])) && v["uris"] != "") {
        split(v["uris"], u)
        print u[1], (v["signed-by"] ~ /^\/[^ ]*$/ ? v["signed-by"] : "")
      }
      delete v; last = ""
    }
    /^#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (last != "") { s = $0; gsub(/[ \t]+/, " ", s); v[last] = v[last] s }; next }
    {
      i = index($0, ":"); if (i == 0) next
      last = tolower(substr($0, 1, i - 1)); s = substr($0, i + 1)
      gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
      v[last] = s
    }
    END { flush() }'
}

# deb_src_entry prints the one-line deb-src entry for pgvector's source.
deb_src_entry() {
  local uri key
  read -r uri key < <(debian_mirror) || return 1
  echo "deb-src ${key:+[signed-by=$key] }$uri $SRC_SUITE main"
}

build_pgvector() {
  local entry apt dir
  entry=$(deb_src_entry)
  echo "==> building pgvector from Debian's source package ($entry)"
  work=$(mktemp -d)
  mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  echo "$entry" >"$work/sources.list"
  apt=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/sources.list.d"
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
  if [ "$(id -u)" -eq 0 ] && getent passwd _apt >/dev/null; then
    # As root APT downloads as _apt; let it write where the files land.
    chmod 755 "$work" "$work/lists"
    chown _apt "$work/lists/partial" "$work/src"
  fi
  apt-get "${apt[@]}" update -qq
  (cd "$work/src" && apt-get "${apt[@]}" source --download-only -qq pgvector)
  tar -xf "$(ls "$work"/src/pgvector_*.orig.tar.* | head -n1)" -C "$work"
  dir=$(find "$work" -maxdepth 1 -type d -name 'pgvector*' | head -n1)
  make -s -C "$dir" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" >/dev/null
  if [ -n "${PGVECTOR_DESTDIR:-}" ]; then
    make -s -C "$dir" install PG_CONFIG="$PGBIN/pg_config" DESTDIR="$PGVECTOR_DESTDIR" >/dev/null
    echo "==> pgvector staged under $PGVECTOR_DESTDIR"
  else
    $SUDO make -s -C "$dir" install PG_CONFIG="$PGBIN/pg_config" >/dev/null
  fi
}

if [ "${1:-}" = "--print-source" ]; then
  deb_src_entry
  exit
fi

if [ -f "$LEGACY_SRC" ]; then
  echo "==> removing $LEGACY_SRC (left behind by an earlier version of this script)"
  $SUDO rm -f "$LEGACY_SRC"
fi

if [ -z "${PGVECTOR_DESTDIR:-}" ] && [ -x "$PGBIN/postgres" ] && have_vector; then
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if [ ! -x "$PGBIN/postgres" ] || [ ! -x "$PGBIN/pg_config" ] || [ ! -d /usr/include/postgresql/15/server ]; then
  echo "==> installing postgresql-15 and build dependencies"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev make gcc >/dev/null
fi

if [ -n "${PGVECTOR_DESTDIR:-}" ] || ! have_vector; then
  build_pgvector
fi
if [ -z "${PGVECTOR_DESTDIR:-}" ]; then
  have_vector || { echo "pg-install: pgvector is still missing after the build" >&2; exit 1; }
  echo "==> postgresql-15 with pgvector ready"
fi
