#!/usr/bin/env bash
# The quick suite on a busy machine: two CPU-bound processes run beside it (started here, stopped by their
# PIDs), five runs in a row, stopping at the first red. A test that fails here waits on a wall-clock margin
# instead of an event: make it wait on the event (or use the emulator's ManualClock). Usage:
#   bash scripts/busy-check.sh [runs]     (default 5; builds the packages first, as `pnpm test` does)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"

bash scripts/ensure-redis.sh
bash scripts/ensure-system-packages.sh
npx -y pnpm@10 build

burners=()
stop_burners() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_burners EXIT
for _ in 1 2; do
  node -e 'for (;;);' &
  burners+=("$!")
done

for run in $(seq 1 "$runs"); do
  echo
  echo "== busy run $run of $runs, beside two CPU-bound processes (PIDs ${burners[*]}); load $(cut -d' ' -f1-3 /proc/loadavg)"
  node_modules/.bin/vitest run --project quick
done
echo
echo "busy check: $runs runs green beside two CPU-bound processes"
