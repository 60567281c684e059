#!/usr/bin/env bash
# Debian's chromium for the browser tests (never a browser a test tool downloads): installed when
# it is missing and we may (root, with apt-get); otherwise one line says how, and make stops.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests (once, a minute or two)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1
  [ -x /usr/bin/chromium ] || { echo "Installing chromium failed: run 'apt-get install chromium chromium-driver' to see why." >&2; exit 1; }
  exit 0
fi
echo "The browser tests need Debian's chromium: run 'sudo apt-get install chromium chromium-driver', then make test again." >&2
exit 1
