#!/usr/bin/env bash
# A find typed soon after a large dump has loaded, while the events' numbers are still read
# ahead: the release binary runs in a 160x45 tmux pane with `CALLSCOPE_LOG=callscope=trace`;
# AFTER seconds after the loader says idle, `/` then the digit 4 are typed, and the longest
# `update_ms` of the frames after the digit is printed (the first search a number can hold reads
# every event's numbers that the reading ahead has not read yet). One line a run.
#
#   benches/find_early.sh DUMP [AFTER]        AFTER in seconds (default 1)
#   BIN=path/to/callscope benches/find_early.sh DUMP [AFTER]
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
until tmux -S "$SOCK" capture-pane -p -t find | grep -q idle; do sleep 0.05; done
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
echo "$BIN: find 4 typed ${AFTER} s after loaded, longest update $(printf %.0f "${longest:-0}") ms (load average $(cut -d' ' -f1-3 /proc/loadavg))"
