#!/usr/bin/env bash
# Installs Debian's chromium for the browser test when it is missing (CI
# starts from a clean machine); playwright-core downloads no browser. Set
# CHROMIUM to use another binary. Safe to run again.
set -euo pipefail
bin=${CHROMIUM:-/usr/bin/chromium}
[ -x "$bin" ] && exit 0
if [ -n "${CHROMIUM:-}" ]; then
  echo "chromium: CHROMIUM=$CHROMIUM is not an executable" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "==> installing Debian's chromium for the browser test"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
[ -x "$bin" ] || { echo "chromium: still missing after apt-get install" >&2; exit 1; }
