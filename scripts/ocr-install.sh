#!/usr/bin/env bash
# Installs what the PDF reader runs beside the service when it is missing:
# poppler-utils (pdftoppm renders a page for OCR; pdftotext is the tests'
# reference reader) and tesseract-ocr with its English data (OCR of scanned
# pages). Debian packages, as root or through sudo. Safe to run again: it
# does nothing when all of it is there.
set -euo pipefail

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

have_all() {
  command -v pdftoppm >/dev/null && command -v pdftotext >/dev/null && command -v tesseract >/dev/null &&
    tesseract --list-langs 2>/dev/null | grep -qx eng
}

have_all && exit 0
export DEBIAN_FRONTEND=noninteractive
echo "==> installing poppler-utils and tesseract-ocr (with English data)"
pkgs=(poppler-utils tesseract-ocr tesseract-ocr-eng)
$SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null 2>&1 ||
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null; }
have_all || { echo "ocr-install: pdftoppm, pdftotext or tesseract (eng) is still missing" >&2; exit 1; }
echo "==> poppler-utils and tesseract-ocr ready"
