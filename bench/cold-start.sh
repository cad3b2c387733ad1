#!/usr/bin/env bash
# Cold start and idle memory of the embedded mode.
#   bench/cold-start.sh            clone this repository into a temporary folder and measure there
# Prints: npm ci time, first start (build + migrate + start) to healthy, restart to healthy, idle RSS.
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d)
port=${PORT:-3999}
trap 'kill $(cat "$work/pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

wait_healthy() {
  until curl -fs "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; do sleep 0.05; done
}

start_server() {
  (cd "$work/digest" && PORT=$port LOG_LEVEL=warn exec node scripts/start.mjs >"$work/server.log" 2>&1) &
  echo $! >"$work/pid"
}

stop_server() {
  kill -TERM "$(cat "$work/pid")"
  while kill -0 "$(cat "$work/pid")" 2>/dev/null; do sleep 0.05; done
}

git clone -q "$repo" "$work/digest"
t0=$(now)
(cd "$work/digest" && npm ci --no-audit --no-fund >/dev/null 2>&1)
t1=$(now)
start_server
wait_healthy
t2=$(now)
echo "npm ci:                          $(elapsed "$t0" "$t1") s"
echo "first start to healthy:          $(elapsed "$t1" "$t2") s   (builds web + server, creates and migrates the database)"
echo "clean clone to healthy:          $(elapsed "$t0" "$t2") s"
stop_server

t3=$(now)
start_server
wait_healthy
t4=$(now)
echo "restart to healthy:              $(elapsed "$t3" "$t4") s"
sleep "${IDLE_SECONDS:-30}"
rss=$(awk '/VmRSS/ {print $2}' "/proc/$(cat "$work/pid")/status")
echo "idle RSS after ${IDLE_SECONDS:-30} s:           $((rss / 1024)) MiB"
stop_server
