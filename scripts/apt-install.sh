#!/usr/bin/env bash
# Installs one of Debian's packages for the tests (Chromium, the rum extension): as root, or through sudo -n; waits
# for another apt-get of the same run (DPkg::Lock::Timeout). Usage: apt-install.sh <package>. Exits 1 with a sentence
# on stderr saying why it could not.
set -euo pipefail

PACKAGE="$1"
LOG="/tmp/obyect-apt-$PACKAGE.log"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "installing $PACKAGE needs root (run 'apt-get install -y $PACKAGE' as root, then npm test again)." >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "apt-get is not available to install $PACKAGE." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q >"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  echo "'apt-get update' failed, so $PACKAGE could not be installed (log: $LOG)." >&2
  exit 1
fi
if ! $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -q "$PACKAGE" >>"$LOG" 2>&1; then
  tail -20 "$LOG" >&2
  echo "'apt-get install -y $PACKAGE' failed (log: $LOG)." >&2
  exit 1
fi
