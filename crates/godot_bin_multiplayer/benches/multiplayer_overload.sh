#!/usr/bin/env bash
# The overload run: does the Rust server come back after its core was taken from it?
# `examples/multiplayer_echo` on WebSocket and ENet, pinned to core 0, against
# `examples/multiplayer_soak` (1,000 bots, both transports) on core 1 for SECS (default
# 150); from HOG_FROM to HOG_TO seconds (default 30 to 70) a busy loop at a higher
# priority shares core 0, leaving the server about a third of it. Every 10 s: the server's
# resident memory, CPU ticks, descriptors and peer count; then the generator's counters and
# the state 40 s after the bots stopped. Needs 2 cores and python3.
#
#   bash benches/multiplayer_overload.sh
#
# A server that comes back serves its ~1,000 peers again, with about 500 descriptors (one
# a WebSocket bot), within 20 s of HOG_TO. benches/RESULTS.md (issue 26) has the runs.
set -euo pipefail
secs=${SECS:-150}
from=${HOG_FROM:-30}
to=${HOG_TO:-70}
cd "$(dirname "$0")/.."
[ "$(nproc)" -ge 2 ] || { echo "needs 2 cores"; exit 1; }
cargo build --release -p godot_bin_multiplayer --example multiplayer_echo --example multiplayer_soak
# The workspace keeps one target directory, at its root.
bin=${CARGO_TARGET_DIR:-../../target}/release/examples
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
. benches/multiplayer_server.sh
pid= gen= hog=
cleanup() {
  for p in $hog $gen $pid; do kill "$p" 2>/dev/null || true; done
  rm -rf "$log"
}
trap cleanup EXIT
start_echo 5
taskset -c 1 "$bin/multiplayer_soak" --ws "ws://127.0.0.1:$ws" --enet "127.0.0.1:$enet" \
  --bots 1000 --secs "$secs" >"$log/soak.out" 2>&1 &
gen=$!
echo "overload: 1000 bots, ${secs} s, busy loop on the server's core from ${from} s to ${to} s"
state() {
  echo "rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")kB cpu_ticks=$(awk '{print $14+$15}' "/proc/$pid/stat") fds=$(ls "/proc/$pid/fd" | wc -l) $({ grep '^status' "$log/server.out" || true; } | tail -n 1 | sed 's/^status //')"
}
t0=$(date +%s)
while kill -0 "$gen" 2>/dev/null; do
  sleep 10
  t=$(($(date +%s) - t0))
  if [ "$t" -ge "$from" ] && [ "$t" -lt "$to" ] && [ -z "$hog" ]; then
    taskset -c 0 nice -n -3 python3 -c 'while True: pass' &
    hog=$!
  fi
  if [ "$t" -ge "$to" ] && [ -n "$hog" ]; then
    kill "$hog"
    hog=
  fi
  echo "t=$t $(state)${hog:+ (busy loop on)}"
done
gen=
echo "generator: $(tail -n 1 "$log/soak.out")"
sleep 40
echo "40 s after the bots: $(state)"
echo "server panics: $(grep -c panicked "$log/server.err" || true)"
