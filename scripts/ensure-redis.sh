#!/usr/bin/env bash
# The shared-store tests start a real redis-server (Debian's package). Install it when missing and
# allowed (root with apt-get, as on CI); otherwise say how, and let those tests fail with the same hint.
set -u
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "hookgate: installing redis-server for the shared dedupe store tests (apt-get)…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null) \
    || echo "hookgate: could not install redis-server; the Redis tests will fail. Install it with: sudo apt-get install redis-server" >&2
else
  echo "hookgate: redis-server is not installed; the Redis tests will fail. Install it with: sudo apt-get install redis-server (or brew install redis)" >&2
fi
exit 0
