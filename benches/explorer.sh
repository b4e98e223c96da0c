#!/usr/bin/env bash
# Measures the explorer on a large dump as a user meets it: the release binary runs in tmux; the
# script polls the screen for the first events (first screen) and for the loader's "idle" (fully
# loaded), then reads the process's RssAnon from /proc. Prints one line per run.
#
#   benches/explorer.sh target/bench/events-1000000.ndjson [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:?usage: benches/explorer.sh DUMP [RUNS]}
RUNS=${2:-3}
command -v tmux >/dev/null || { echo "tmux is needed" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/callscope
fi
SOCK=$(mktemp -u /tmp/callscope-bench.XXXXXX)
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true' EXIT

now() { date +%s.%N; }
for run in $(seq "$RUNS"); do
  tmux -S "$SOCK" kill-server 2>/dev/null || true
  t0=$(now)
  tmux -S "$SOCK" new-session -d -x 160 -y 45 "$BIN '$FILE'"
  first=""; full=""
  while :; do
    screen=$(tmux -S "$SOCK" capture-pane -p 2>/dev/null || true)
    if [ -z "$first" ] && grep -q "events 1/" <<<"$screen"; then first=$(now); fi
    if grep -q "│ idle" <<<"$screen"; then full=$(now); break; fi
    sleep 0.01
  done
  pid=$(pgrep -n -f "$BIN $FILE")
  rss=$(awk '/RssAnon/ {print $2}' "/proc/$pid/status")
  size=$(stat -c %s "$FILE")
  printf 'run %d: first screen %.2f s, fully loaded %.2f s, RssAnon %d MB (%.0f%% of the %d MB file)\n' \
    "$run" "$(echo "$first - $t0" | bc)" "$(echo "$full - $t0" | bc)" "$((rss / 1024))" \
    "$(echo "100 * $rss * 1024 / $size" | bc -l)" "$((size / 1000000))"
  tmux -S "$SOCK" send-keys q
done
