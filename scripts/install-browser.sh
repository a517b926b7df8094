#!/usr/bin/env bash
# Makes sure a Chromium the Temporal Web end-to-end test can drive (through playwright-core) is
# installed. Usage:
#
#   scripts/install-browser.sh
#
# Nothing happens when a browser is already there: DEERFLOW_CHROMIUM_PATH, or Debian's
# /usr/bin/chromium. Otherwise Debian's `chromium` package is installed with apt-get, as root or
# through passwordless sudo. Where neither works (another OS, no rights) it only warns and exits 0:
# the test then skips itself with a warning. Playwright's own browser download is never used: the
# distribution's package comes from the same mirrors as every other system package.
set -euo pipefail

log() { echo "install-browser: $*" >&2; }

find_browser() {
  local candidate
  for candidate in "${DEERFLOW_CHROMIUM_PATH:-}" /usr/bin/chromium; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

can_run_as_root() {
  [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
}

# sudo resets the environment, so the variable goes through `env`.
apt_get() {
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get "$@"
  else
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get "$@"
  fi
}

if browser="$(find_browser)"; then
  log "found $browser"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  log "warning: no Chromium found and no apt-get here; the Temporal Web e2e test will be skipped (set DEERFLOW_CHROMIUM_PATH to a Chromium or Chrome binary to run it)"
  exit 0
fi
if ! can_run_as_root; then
  log "warning: no Chromium found and no root rights to install Debian's chromium; the Temporal Web e2e test will be skipped"
  exit 0
fi
log "installing Debian's chromium package ..."
apt_get update >&2
apt_get install -y --no-install-recommends chromium >&2
browser="$(find_browser)" || { log "error: chromium installed but /usr/bin/chromium is missing"; exit 1; }
log "installed $browser ($("$browser" --version 2>/dev/null || echo 'version unknown'))"
