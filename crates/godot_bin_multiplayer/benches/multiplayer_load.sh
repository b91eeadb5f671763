#!/usr/bin/env bash
# The load run: the Rust echo server (`examples/multiplayer_echo`), the bare transport
# (`examples/multiplayer_bare`: the same packets echoed on the same transport libraries,
# no session) and the engine's own server (the same node, `server.gd`, on headless Godot
# 4.4.1 from $GODOT4_BIN), each pinned to core 0, against 100 and 1,000 Rust bots on the
# other cores, over WebSocket and ENet; every cell RUNS times (default 3).
#
#   GODOT4_BIN=/path/to/godot4 bash benches/multiplayer_load.sh [SECONDS]
#
# The Rust and bare servers gather for WINDOW_US µs (default 200) after a turn that left
# nothing to do (`HostBuilder::batch_window`); WINDOW_US=0 runs them without.
#
# SHARE=1 lets the generator use the server's core too: every server runs first on core 0
# (SCHED_FIFO, so a bot thread there only gets the time the server leaves idle), and the
# generator runs one thread per core on all of them. On 2 cores the generator costs about
# what a server does per call, so pinned apart neither side fills its core; this keeps the
# generator from being the ceiling as far as two cores allow (needs the right to set
# SCHED_FIFO: root or CAP_SYS_NICE).
#
# Per core: the generator reads the server's user + system CPU time from /proc/PID/stat at
# the start and the end of its measured window, so "calls per CPU-second" is the server's
# throughput per core even when the generator (not the server) is what limits calls/s; it
# reads its own CPU time too, and the table says which side limited calls/s. Ends with one
# Markdown table (medians, the spread over the runs in brackets) and three ratios per
# transport and bot count: SceneMultiplayer / bare transport CPU per call, Rust / Godot
# calls per CPU-second, and bare transport / Godot calls per CPU-second (how far the
# transport itself would let a server go). Without GODOT4_BIN the engine rows are left out.
# Everything listens on 127.0.0.1 only.
#
# The window opens once every bot has connected and has been told of every other
# (SETTLE=on, the default: a server with `server_relay` announces each peer to every other
# as it joins, n(n-1) notices, part of connecting; a server that announces nothing waits
# 0.5 s of quiet), or as soon as every bot has connected (SETTLE=off, the runs before
# issue 50 #3: over ENet at 1,000 bots the last of the 999,000 notices then arrive in the
# window's first second).
set -euo pipefail
secs=${1:-10}
runs=${RUNS:-3}
cd "$(dirname "$0")/.."
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
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "needs at least 2 cores (server on core 0, bots on the rest)" >&2
  exit 1
fi
# Bots on every core but the server's, one runtime thread per core; with SHARE=1 on every
# core, the server first on its own.
share=${SHARE:-0}
gen_cpus="1-$((cores - 1))"
threads=${LOAD_THREADS:-$((cores - 1))}
if [ "$share" = 1 ]; then
  if ! chrt -f 10 true 2>/dev/null; then
    echo "SHARE=1 needs the right to set SCHED_FIFO (root or CAP_SYS_NICE)" >&2
    exit 1
  fi
  gen_cpus="0-$((cores - 1))"
  threads=${LOAD_THREADS:-$cores}
fi
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
echo "generator: cores $gen_cpus, $threads thread(s); server: core 0$([ "$share" = 1 ] && echo ' (first: SCHED_FIFO)'); window ${secs} s; $runs run(s); batch window ${WINDOW_US:-200} µs; settle ${SETTLE:-on}"
servers="rust bare"
if [ -n "${GODOT4_BIN:-}" ]; then servers="rust bare godot"; else echo "GODOT4_BIN unset: no engine rows"; fi

records=$(mktemp)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -f "$records"
}
trap cleanup EXIT

. benches/multiplayer_cell.sh

for run in $(seq "$runs"); do
  for t in ws enet; do
    for bots in 100 1000; do
      for s in $servers; do
        start_server "$s" "$t"
        printf 'run %s %-6s %-5s ' "$run" "$s" "$t"
        out=$(taskset -c "$gen_cpus" "$bin/multiplayer_load" $addr --bots "$bots" --secs "$secs" \
          --threads "$threads" --server-pid "$pid" --clk-tck "$clk" --settle "${SETTLE:-on}")
        head -n -1 <<<"$out" | paste -sd ' ' -
        echo "run=$run server=$s transport=$t threads=$threads cores=$cores share=$share $(tail -n 1 <<<"$out")" >>"$records"
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        pid=
      done
    done
  done
done

echo
echo "machine: $machine; load average after: $(cut -d' ' -f1-3 /proc/loadavg); window ${secs} s; generator $threads thread(s) on cores $gen_cpus, server on core 0$([ "$share" = 1 ] && echo ' first'); $runs run(s)"
echo
python3 - "$records" <<'EOF'
import statistics, sys
rows = [dict(kv.split("=", 1) for kv in line.split()) for line in open(sys.argv[1]) if line.strip()]
cells = {}
for r in rows:
    cells.setdefault((r["transport"], int(r["bots"]), r["server"]), []).append(r)
order = {"rust": 0, "bare": 1, "godot": 2}
def nums(rs, k):
    return [float(r.get(k, 0)) for r in rs]
def spread(xs, fmt):
    m = statistics.median(xs)
    if len(xs) < 2:
        return fmt.format(m)
    return f"{fmt.format(m)} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"
def limit(rs):
    # What limited calls/s: a saturated server, a saturated generator, or neither (the
    # round trip: each bot waits for its answer, and the server answers once per frame).
    # With SHARE=1 the generator has whatever the server leaves of all the cores, so when
    # the two together fill them (90% or more), the machine is the limit.
    su = statistics.median(nums(rs, "server_util_pct"))
    gu = statistics.median(nums(rs, "gen_util_pct"))
    if su >= 90:
        return "server"
    if rs[0].get("share") == "1":
        used = su + gu * float(rs[0]["threads"])
        return "both cores" if used >= 90 * float(rs[0]["cores"]) else "round trip"
    if gu >= 90:
        return "generator"
    return "round trip"
print("| server | transport | bots | connected | server CPU | generator CPU | limited by | calls/s | calls per CPU-second | µs CPU per call | p50 ms | p99 ms |")
print("|---|---|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|")
for (t, b, s) in sorted(cells, key=lambda k: (k[0] != "ws", k[1], order[k[2]])):
    rs = cells[(t, b, s)]
    cpcs = nums(rs, "calls_per_cpu_s")
    us = [1e6 / x if x > 0 else 0 for x in cpcs]
    print(f"| {s} | {t} | {b} | {min(nums(rs, 'connected')):.0f} | {spread(nums(rs, 'server_util_pct'), '{:.0f}%')} "
          f"| {spread(nums(rs, 'gen_util_pct'), '{:.0f}%')} | {limit(rs)} | {spread(nums(rs, 'calls_s'), '{:.0f}')} "
          f"| {spread(cpcs, '{:.0f}')} | {spread(us, '{:.1f}')} | {spread(nums(rs, 'p50_ms'), '{:.2f}')} "
          f"| {spread(nums(rs, 'p99_ms'), '{:.2f}')} |")
print()
def per_run(t, b, s):
    return {r["run"]: float(r.get("calls_per_cpu_s", 0)) for r in cells.get((t, b, s), [])}
def ratio(label, num, den):
    # The median over the runs both sides have, and the spread.
    x = [num[k] / den[k] for k in num if k in den and den[k] > 0]
    if x:
        print(f"{label} = {statistics.median(x):.2f}x" + (f" ({min(x):.2f}-{max(x):.2f})" if len(x) > 1 else ""))
for t in ("ws", "enet"):
    for b in (100, 1000):
        rust, bare, godot = per_run(t, b, "rust"), per_run(t, b, "bare"), per_run(t, b, "godot")
        # CPU per call is the inverse of calls per CPU-second: rust's over bare's.
        ratio(f"{t}, {b} bots: SceneMultiplayer / bare transport CPU per call", bare, rust)
        ratio(f"{t}, {b} bots: Rust/Godot calls per CPU-second", rust, godot)
        # How far the transport itself lets the Rust server go: the bare echo over the engine.
        ratio(f"{t}, {b} bots: bare transport / Godot calls per CPU-second", bare, godot)
EOF
