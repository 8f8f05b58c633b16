#!/usr/bin/env bash
# The end-to-end journeys drive Debian's Chromium; fresh machines (CI) lack it, so install it once when missing.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "Chromium is missing at $CHROMIUM: installing Debian's chromium package…"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO="sudo -n"
    else
      echo "error: installing chromium needs root (run 'apt-get install -y chromium' as root, then npm test again)." >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $CHROMIUM is missing and apt-get is not available: install Chromium so that $CHROMIUM exists." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q >/tmp/obyect-apt-update.log 2>&1; then
    tail -20 /tmp/obyect-apt-update.log >&2
    echo "error: 'apt-get update' failed, so chromium could not be installed (log: /tmp/obyect-apt-update.log)." >&2
    exit 1
  fi
  if ! $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -q chromium >/tmp/obyect-apt-install.log 2>&1; then
    tail -20 /tmp/obyect-apt-install.log >&2
    echo "error: 'apt-get install -y chromium' failed (log: /tmp/obyect-apt-install.log)." >&2
    exit 1
  fi
  if [ ! -x "$CHROMIUM" ]; then
    echo "error: the chromium package installed, but $CHROMIUM is still missing." >&2
    exit 1
  fi
fi

echo "Chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
