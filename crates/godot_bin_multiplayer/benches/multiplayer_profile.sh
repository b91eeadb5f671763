#!/usr/bin/env bash
# Where the servers' CPU goes per call, and what that leaves for Rust / Godot: for each
# server of the load run (`multiplayer_echo`, `multiplayer_bare`, and the engine's
# `server.gd` when GODOT4_BIN is set) and each cell (WebSocket and ENet, 100 and 1,000 bots),
# the load run's measured window (server on core 0, generator on core 1) under
# `perf record -e cpu-clock` (the kernel's share of the server's samples) and `perf stat` of
# its system calls. Needs `perf` (Debian: linux-perf) and a kernel that lets it read them.
#
#   GODOT4_BIN=/path/to/godot4 bash benches/multiplayer_profile.sh [SECONDS]
#
# One line per server and cell: µs of server CPU per call (from /proc, as the load run
# measures it), the kernel's share of the samples, that share in µs per call (the kernel's
# socket work: receive, send, poll and, on loopback, the delivery to the bot), the rest
# (user space) in µs per call, and system calls per call. Then, per cell, the ceiling:
# the engine's µs per call over the Rust server's kernel µs per call, the Rust / Godot
# ratio a server whose own code cost nothing would reach on the same system calls.
set -euo pipefail
secs=${1:-10}
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "perf not found (Debian: apt-get install linux-perf)" >&2; exit 1; }
cargo build --release -p godot_bin_multiplayer --example multiplayer_echo --example multiplayer_load
# The workspace keeps one target directory, at its root.
bin=${CARGO_TARGET_DIR:-../../target}/release/examples
# The bare transport runs on the crate's internals, which only `--cfg godot_bin_internals`
# exposes: built with its own flags, in a directory of its own so that the flags do not
# rebuild the rest.
bare_target=${CARGO_TARGET_DIR:-../../target}/bare
RUSTFLAGS="--cfg godot_bin_internals" CARGO_TARGET_DIR="$bare_target" \
  cargo build --release -p godot_bin_multiplayer --example multiplayer_bare
bare_bin=$bare_target/release/examples
proj=examples/multiplayer_echo/godot_client
clk=$(getconf CLK_TCK)
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
servers="rust bare"
[ -n "${GODOT4_BIN:-}" ] && servers="rust bare godot"
. benches/multiplayer_cell.sh
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# The perf windows sit inside the load's window: it opens 0.2 s after the generator says
# every bot connected, and lasts $secs.
rec=$((secs - 2))
calls="recvfrom sendto recvmsg sendmsg recvmmsg sendmmsg read write readv writev epoll_wait epoll_pwait poll ppoll"
events=raw_syscalls:sys_enter
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); perf window ${rec} s of a ${secs} s load window"
printf '%-6s %-5s %5s %9s %13s %9s %15s %13s %14s\n' server trans bots calls/s "µs CPU/call" kernel "kernel µs/call" "user µs/call" "syscalls/call"
for t in ws enet; do
  for bots in 100 1000; do
    for s in $servers; do
      start_server "$s" "$t"
      taskset -c 1 "$bin/multiplayer_load" $addr --bots "$bots" --secs "$secs" --threads 1 \
        --server-pid "$pid" --clk-tck "$clk" >"$work/load.out" 2>"$work/load.err" &
      gen=$!
      until grep -q 'bots connected in' "$work/load.err" 2>/dev/null; do
        kill -0 "$gen" 2>/dev/null || break
        sleep 0.1
      done
      sleep 0.5
      perf stat -x, -e "$events" -p "$pid" -o "$work/stat" -- sleep "$rec" &
      st=$!
      perf record -q -e cpu-clock -F 2000 -p "$pid" -o "$work/perf.data" -- sleep "$rec" 2>/dev/null
      wait "$st" "$gen" || true
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      pid=
      r=$(tail -n 1 "$work/load.out")
      get() { tr ' ' '\n' <<<"$r" | sed -n "s/^$1=//p"; }
      cs=$(get calls_s)
      cpcs=$(get calls_per_cpu_s)
      sys=$(awk -F, '$3 ~ /raw_syscalls:sys_enter/ { print $1 }' "$work/stat")
      kern=$(perf report -i "$work/perf.data" --sort dso -q 2>/dev/null |
        awk '/\[kernel/ { gsub("%", "", $1); k += $1 } END { print k + 0 }')
      echo "$s $t $bots $cs $cpcs $kern $sys" >>"$work/rows"
      awk -v s=$s -v t=$t -v b=$bots -v cs="$cs" -v c="$cpcs" -v k="$kern" -v n="$sys" -v w="$rec" 'BEGIN {
        us = (c > 0) ? 1e6 / c : 0
        per = (cs > 0) ? n / (cs * w) : 0
        printf "%-6s %-5s %5d %9.0f %13.1f %8.1f%% %15.1f %13.1f %14.2f\n", s, t, b, cs, us, k, us * k / 100, us * (100 - k) / 100, per
      }'
    done
  done
done
echo
awk '{ us = ($5 > 0) ? 1e6 / $5 : 0; key = $2 " " $3
       if ($1 == "rust") rk[key] = us * $6 / 100
       if ($1 == "godot") g[key] = us }
     END { for (k in rk) if (k in g && rk[k] > 0)
             printf "%s bots: engine µs per call / Rust kernel µs per call = %.2fx (the Rust / Godot ceiling with no user-space cost)\n", k, g[k] / rk[k] }' \
  "$work/rows" | sort
