#!/usr/bin/env bash
# A find typed soon after a large dump has loaded, while the events' numbers are still read
# ahead: the release binary runs in a 160x45 tmux pane with `CALLSCOPE_LOG=callscope=trace`;
# AFTER seconds after the loader says idle, `/` is typed, 0.3 s later the digit 4, and the
# longest `update_ms` of the frames after the digit is printed (the first search a number can
# hold reads itself every event's numbers the reading ahead has not read yet). One line a run.
#
#   benches/find_early.sh DUMP [AFTER]        AFTER in seconds (default 1)
#   BIN=path/to/callscope benches/find_early.sh DUMP [AFTER]
#   LIMIT_S=300                               give up on a load this long
set -euo pipefail
cd "$(dirname "$0")/.."
(($# >= 1)) || { echo "usage: benches/find_early.sh DUMP [AFTER]" >&2; exit 2; }
DUMP=$(realpath "$1")
AFTER=${2:-1}
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-target}/release/callscope
fi
BIN=$(realpath "$BIN")
BASE=$(mktemp -u /tmp/callscope-find.XXXXXX)
SOCK=$BASE.sock
LOG=$BASE.log
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true; rm -f "$BASE".*' EXIT
tmux -S "$SOCK" new-session -d -s find -x 160 -y 45 \
  "CALLSCOPE_LOG=callscope=trace exec '$BIN' --log-file '$LOG' '$DUMP'"
fail() { echo "benches/find_early.sh: $*" >&2; exit 1; }
pid=$(tmux -S "$SOCK" display -p -t find '#{pane_pid}')
LIMIT_S=${LIMIT_S:-300}
started=$SECONDS
while :; do
  screen=$(tmux -S "$SOCK" capture-pane -p -t find 2>/dev/null || true)
  [[ $screen == *"│ idle"* ]] && break
  kill -0 "$pid" 2>/dev/null || fail "callscope exited"
  ((SECONDS - started < LIMIT_S)) || fail "not loaded after $LIMIT_S s"
  sleep 0.05
done
sleep "$AFTER"
tmux -S "$SOCK" send-keys -t find /
sleep 0.3
lines=$(wc -l <"$LOG")
tmux -S "$SOCK" send-keys -t find 4
# Long enough for the reading of every number at five million events.
sleep 12
longest=$(tail -n +$((lines + 1)) "$LOG" | sed -n 's/.*frame update_ms=\([0-9.]*\).*/\1/p' |
  sort -g | tail -1)
tmux -S "$SOCK" send-keys -t find Escape q
[ -n "$longest" ] || fail "no frame logged after the digit"
echo "$BIN: / typed ${AFTER} s after loaded, 4 0.3 s later: longest update $(printf %.0f "$longest") ms (load average $(cut -d' ' -f1-3 /proc/loadavg))"
