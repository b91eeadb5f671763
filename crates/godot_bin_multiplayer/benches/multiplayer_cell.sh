# Sourced by the load and profile runs: one cell's server. Needs `bin` (the examples'
# directory) and `proj` (the engine's project) set, and GODOT4_BIN for the engine.
#
#   start_server SERVER TRANSPORT  # rust | bare | godot, ws | enet: pinned to core 0 on
#                                  # 127.0.0.1, a free-looking port; sets `pid`, `port` and
#                                  # `addr` (the generator's flags), and waits until it listens
#
# The Rust server and the bare transport both run with a batch window of $WINDOW_US µs
# (default 200; 0 for none): `HostBuilder::batch_window` and the bare transport's copy of
# it, so the bare transport stays the limit (benches/RESULTS.md, issue 26).
#
# With SHARE=1 every server runs first on core 0 (SCHED_FIFO, `chrt -f 10`): the generator
# may then use core 0's idle time too, never the server's own (see multiplayer_load.sh).

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

start_server() {
  local s=$1 t=$2
  local on0=(taskset -c 0)
  [ "${SHARE:-0}" = 1 ] && on0=(taskset -c 0 chrt -f 10)
  port=$((30700 + RANDOM % 2000))
  case $s in
    rust) "${on0[@]}" "$bin/multiplayer_echo" --bind 127.0.0.1 --$t $port \
      --batch-window-us "${WINDOW_US:-200}" >/dev/null & ;;
    bare) "${on0[@]}" "${bare_bin:-$bin}/multiplayer_bare" --bind 127.0.0.1 --$t $port \
      --batch-window-us "${WINDOW_US:-200}" >/dev/null & ;;
    godot) "${on0[@]}" "$GODOT4_BIN" --headless --path "$proj" -s server.gd -- $t $port 127.0.0.1 \
      >/dev/null 2>&1 & ;;
  esac
  pid=$!
  wait_port $t $port
  if [ $t = ws ]; then addr="--ws ws://127.0.0.1:$port"; else addr="--enet 127.0.0.1:$port"; fi
}
