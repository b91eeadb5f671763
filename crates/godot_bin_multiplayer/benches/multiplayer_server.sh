# Sourced by the soak and overload runs: free-looking ports, a log directory, and
# `start_echo STATUS_SECS`, which starts `multiplayer_echo` on both transports pinned to
# core 0 (its pid in `pid`) and waits until both listeners are up. Needs `bin` set. The
# server gathers WINDOW_US µs (default 200, as in the load run; 0 for none) after a turn
# that left nothing to do (`HostBuilder::batch_window`); QUEUE sets its per-peer queue
# bound (`HostBuilder::queue_size`, default 4096).
ws=$((32700 + RANDOM % 1000))
enet=$((ws + 1000))
log=$(mktemp -d)
start_echo() {
  taskset -c 0 "$bin/multiplayer_echo" --bind 127.0.0.1 --ws $ws --enet $enet --status "$1" \
    --batch-window-us "${WINDOW_US:-200}" --queue "${QUEUE:-4096}" >"$log/server.out" 2>"$log/server.err" &
  pid=$!
  for _ in $(seq 100); do
    if ss -Hlnt "sport = :$ws" | grep -q . && ss -Hlnu "sport = :$enet" | grep -q .; then break; fi
    sleep 0.1
  done
}
