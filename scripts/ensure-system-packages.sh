#!/usr/bin/env bash
# The inspector's browser tests drive Debian's chromium through playwright-core (no browser download).
# Install chromium when missing and allowed (root with apt-get, as on CI); otherwise say how, and let
# those tests fail with the same hint. (redis-server has its own script, ensure-redis.sh.)
set -u
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || [ -n "${HOOKGATE_CHROMIUM:-}" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "hookgate: installing chromium for the inspector's browser tests (apt-get)…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "hookgate: could not install chromium; the inspector's browser tests will fail. Install it with: sudo apt-get install chromium" >&2
else
  echo "hookgate: chromium is not installed; the inspector's browser tests will fail. Install it with: sudo apt-get install chromium (or set HOOKGATE_CHROMIUM to a Chrome/Chromium binary)" >&2
fi
exit 0
