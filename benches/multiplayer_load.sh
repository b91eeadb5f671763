#!/usr/bin/env bash
# The load run: the Rust echo server (`examples/multiplayer_echo`) and the engine's own
# (the same node, `server.gd`, on headless Godot 4.4.1 from $GODOT4_BIN), each pinned to
# core 0, against 100 and 1,000 Rust bots on the other cores, over WebSocket and ENet.
#
#   GODOT4_BIN=/path/to/godot4 bash benches/multiplayer_load.sh [SECONDS]
#
# Per core: the generator reads the server's user + system CPU time from /proc/PID/stat at
# the start and the end of its measured window, so "calls per CPU-second" is the server's
# throughput per core even when the generator (not the server) is what limits calls/s.
# Ends with one Markdown table. Without GODOT4_BIN only the Rust rows are run.
set -euo pipefail
secs=${1:-10}
cd "$(dirname "$0")/.."
cargo build --release --features multiplayer --example multiplayer_echo --example multiplayer_load
bin=target/release/examples
proj=examples/multiplayer_echo/godot_client
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "needs at least 2 cores (server on core 0, bots on the rest)" >&2
  exit 1
fi
# Bots on every core but the server's, one runtime thread per core.
gen_cpus="1-$((cores - 1))"
threads=${LOAD_THREADS:-$((cores - 1))}
clk=$(getconf CLK_TCK)
# 1,000 bots are 1,000 sockets in the generator and in the server.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 4096 ]; then
  echo "open-file limit $(ulimit -n) is below 4096" >&2
  exit 1
fi
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "machine: $machine"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "generator: cores $gen_cpus, $threads thread(s); server: core 0; window ${secs} s"
servers="rust"
if [ -n "${GODOT4_BIN:-}" ]; then servers="rust godot"; else echo "GODOT4_BIN unset: Rust only"; fi

rows=()
pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

# Waits until something listens on TCP (ws) or UDP (enet) port $2, up to 10 s.
wait_port() {
  local flag=-lnt
  [ "$1" = enet ] && flag=-lnu
  for _ in $(seq 100); do
    if ss -H $flag "sport = :$2" 2>/dev/null | grep -q .; then return 0; fi
    sleep 0.1
  done
  echo "nothing listening on $1 port $2" >&2
  return 1
}

field() { # key record
  tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}

for t in ws enet; do
  for bots in 100 1000; do
    for s in $servers; do
      port=$((30700 + RANDOM % 2000))
      if [ "$s" = rust ]; then
        taskset -c 0 "$bin/multiplayer_echo" --$t $port >/dev/null &
      else
        taskset -c 0 "$GODOT4_BIN" --headless --path "$proj" -s server.gd -- $t $port >/dev/null 2>&1 &
      fi
      pid=$!
      wait_port $t $port
      if [ $t = ws ]; then addr="--ws ws://127.0.0.1:$port"; else addr="--enet 127.0.0.1:$port"; fi
      printf '%-6s %-5s ' "$s" "$t"
      out=$(taskset -c "$gen_cpus" "$bin/multiplayer_load" $addr --bots "$bots" --secs "$secs" \
        --threads "$threads" --server-pid "$pid" --clk-tck "$clk")
      head -n -1 <<<"$out" | paste -sd ' ' -
      rec=$(tail -n 1 <<<"$out")
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      pid=
      rows+=("$s $t $rec")
    done
  done
done

echo
echo "machine: $machine; load average after: $(cut -d' ' -f1-3 /proc/loadavg); window ${secs} s; generator $threads thread(s) on cores $gen_cpus, server on core 0"
echo
echo "| server | transport | bots | connected | server CPU | calls/s | calls per CPU-second | p50 ms | p99 ms |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|"
for r in "${rows[@]}"; do
  read -r s t rec <<<"$r"
  printf '| %s | %s | %s | %s | %s%% | %s | %s | %s | %s |\n' "$s" "$t" \
    "$(field bots "$rec")" "$(field connected "$rec")" "$(field server_util_pct "$rec")" \
    "$(field calls_s "$rec")" "$(field calls_per_cpu_s "$rec")" \
    "$(field p50_ms "$rec")" "$(field p99_ms "$rec")"
done
# Rust over Godot, per CPU-second, for each transport and bot count.
if [ "$servers" = "rust godot" ]; then
  echo
  for ((i = 0; i < ${#rows[@]}; i += 2)); do
    read -r _ t rr <<<"${rows[i]}"
    read -r _ _ gr <<<"${rows[i + 1]}"
    awk -v t="$t" -v b="$(field bots "$rr")" -v r="$(field calls_per_cpu_s "$rr")" \
      -v g="$(field calls_per_cpu_s "$gr")" \
      'BEGIN { if (g > 0) printf "%s, %s bots: Rust/Godot calls per CPU-second = %.2fx\n", t, b, r / g }'
  done
fi
