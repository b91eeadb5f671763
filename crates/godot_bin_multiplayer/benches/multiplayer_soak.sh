#!/usr/bin/env bash
# The soak run: the Rust echo server (`examples/multiplayer_echo`) on WebSocket and ENet at
# once, pinned to core 0, against `examples/multiplayer_soak` on the other cores: bots that
# connect, call, and leave at random (half close cleanly, half vanish, some with a call in
# flight) and come back as new peers, for MINUTES (default 30). Everything on 127.0.0.1.
#
#   bash benches/multiplayer_soak.sh [MINUTES]
#
# It samples the server's resident memory and its peer count every 10 s, then stops the
# bots (all at once: the generator's deadline) and waits, up to 120 s, for the peer count to
# reach 0 (ENet times out a vanished peer only after its retransmissions have backed off for
# 30 s or more). It reports: the memory after warm-up (a tenth of the run, at most 3
# minutes), in the middle and at the end of the load (the last sample before the deadline),
# the highest sample, the memory after the bots left, how long the peers took to go, the
# peers left (the session's count and the server's open TCP connections: both must be 0),
# whether the server is still running, and any panic in its output, and the mass-disconnect
# step (the memory after the bots left over the memory at the end of the load).
# SOAK_BOTS sets the number of bots (default 1000, alternating between the transports).
set -euo pipefail
mins=${1:-30}
bots=${SOAK_BOTS:-1000}
cd "$(dirname "$0")/.."
cargo build --release -p godot_bin_multiplayer --example multiplayer_echo --example multiplayer_soak
# The workspace keeps one target directory, at its root.
bin=${CARGO_TARGET_DIR:-../../target}/release/examples
cores=$(nproc)
gen_cpus=1-$((cores - 1))
[ "$cores" -lt 2 ] && gen_cpus=0
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
. benches/multiplayer_server.sh
pid=
gen=
cleanup() {
  for p in $gen $pid; do kill "$p" 2>/dev/null || true; done
  rm -rf "$log"
}
trap cleanup EXIT

start_echo 10
secs=$((mins * 60))
echo "soak: $bots bots, ${mins} min, server pid $pid (ws $ws, enet $enet); machine $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
# Bounded twice over: the generator stops itself at its deadline, and timeout stops it 2
# minutes later whatever happens.
timeout $((secs + 120)) taskset -c "$gen_cpus" "$bin/multiplayer_soak" --ws "ws://127.0.0.1:$ws" \
  --enet "127.0.0.1:$enet" --bots "$bots" --secs "$secs" >"$log/soak.out" 2>"$log/soak.err" &
gen=$!
t0=$(date +%s)
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0; }
peers() { { grep '^status' "$log/server.out" || true; } | tail -n 1 | sed 's/^status //'; }
while kill -0 "$gen" 2>/dev/null; do
  sleep 10
  t=$(($(date +%s) - t0))
  echo "$t $(rss) $(peers)" | tee -a "$log/mem"
done
wait "$gen" || true
gen=
cat "$log/soak.out"
# Vanished ENet peers time out 30 s or more after their first lost datagram: wait for the
# peer count to reach 0 (a status line every 10 s), up to 120 s.
stopped=$(date +%s)
left=$(peers)
gone_after=
for _ in $(seq 24); do
  sleep 5
  left=$(peers)
  if [ "${left%% *}" = peers=0 ]; then
    gone_after=$(($(date +%s) - stopped))
    break
  fi
done
# Every TCP socket of the port but the listener, in any state: a connection the client
# closed and the server never did stays in CLOSE-WAIT, not ESTABLISHED.
tcp=$(ss -Htan "( sport = :$ws )" | grep -vc -e LISTEN -e TIME-WAIT || true)
fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
alive=no
kill -0 "$pid" 2>/dev/null && alive=yes
end_rss=$(rss)
warm=$((secs / 10))
[ "$warm" -gt 180 ] && warm=180
pick() { # the first sample at or after $1 seconds
  awk -v t="$1" '$1 >= t { print $2; exit }' "$log/mem"
}
start_kb=$(pick "$warm")
mid_kb=$(pick $((secs / 2)))
# The last sample before the generator's deadline: after it, every bot leaves at once.
last_kb=$(awk -v t="$secs" '$1 < t { v = $2 } END { print v }' "$log/mem")
stop_kb=$(awk 'END { print $2 }' "$log/mem")
max_kb=$(awk -v t="$warm" -v e="$secs" '$1 >= t && $1 < e && $2 > m { m = $2 } END { print m }' "$log/mem")
panics=$(grep -c panicked "$log/server.err" || true)
echo
echo "| what | value |"
echo "|---|---|"
echo "| bots, minutes | $bots, $mins |"
echo "| generator | $(sed -n 's/^soak end //p' "$log/soak.out") |"
echo "| server RSS after warm-up (${warm} s) | ${start_kb} kB |"
echo "| server RSS in the middle | ${mid_kb} kB |"
echo "| server RSS at the end of the load | ${last_kb} kB |"
echo "| highest RSS from warm-up to the end of the load | ${max_kb} kB |"
echo "| server RSS at the last sample (the bots leaving at once) | ${stop_kb} kB |"
echo "| server RSS after the bots left | ${end_rss} kB |"
echo "| peers gone after the bots stopped | ${gone_after:-not within 120} s |"
echo "| peers left (session) | $left |"
echo "| TCP sockets left (any state but LISTEN, TIME-WAIT), server descriptors | $tcp, $fds |"
echo "| server running, panics | $alive, $panics |"
awk -v a="$start_kb" -v b="$last_kb" 'BEGIN { if (a > 0) printf "memory end / after warm-up = %.3f\n", b / a }'
# The mass-disconnect step: what the server holds after every bot left at once, against
# what it held under load (issue 49 #20: within 10%).
awk -v a="$last_kb" -v b="$end_rss" 'BEGIN { if (a > 0) printf "mass-disconnect step: after the bots left / end of the load = %.3f\n", b / a }'
