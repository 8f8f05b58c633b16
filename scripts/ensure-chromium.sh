#!/usr/bin/env bash
# The end-to-end journeys drive Debian's Chromium; fresh machines (CI) lack it, so install it once when missing.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "Chromium is missing at $CHROMIUM: installing Debian's chromium package…"
  if ! bash "$(dirname "$0")/apt-install.sh" chromium; then
    echo "error: $CHROMIUM is missing and could not be installed." >&2
    exit 1
  fi
  if [ ! -x "$CHROMIUM" ]; then
    echo "error: the chromium package installed, but $CHROMIUM is still missing." >&2
    exit 1
  fi
fi

echo "Chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
