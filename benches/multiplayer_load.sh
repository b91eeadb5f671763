#!/usr/bin/env bash
# The load run: the Rust echo server and the engine's own (same node, headless Godot 4.4.1
# from $GODOT4_BIN), each on one core, against 100 and 1,000 Rust bots on the other core.
#   GODOT4_BIN=/path/to/godot4 bash benches/multiplayer_load.sh [SECONDS]
set -euo pipefail
secs=${1:-10}
cd "$(dirname "$0")/.."
cargo build --release --features multiplayer --example multiplayer_echo --example multiplayer_load
bin=target/release/examples
proj=examples/multiplayer_echo/godot_client
echo "load: $(uptime)"
run() { # name transport port bots
  local addr
  if [ "$2" = ws ]; then addr="--ws ws://127.0.0.1:$3"; else addr="--enet 127.0.0.1:$3"; fi
  printf '%-6s %-5s ' "$1" "$2"
  taskset -c 1 "$bin/multiplayer_load" $addr --bots "$4" --secs "$secs"
}
for t in ws enet; do
  for bots in 100 1000; do
    port=$((30700 + RANDOM % 200))
    if [ "$t" = ws ]; then taskset -c 0 "$bin/multiplayer_echo" --ws $port >/dev/null & else taskset -c 0 "$bin/multiplayer_echo" --enet $port >/dev/null & fi
    pid=$!; sleep 0.5; run rust $t $port $bots; kill $pid; wait $pid 2>/dev/null || true
    port=$((30700 + RANDOM % 200))
    taskset -c 0 "$GODOT4_BIN" --headless --path "$proj" -s server.gd -- $t $port >/dev/null 2>&1 &
    pid=$!; sleep 2; run godot $t $port $bots; kill $pid; wait $pid 2>/dev/null || true
  done
done
