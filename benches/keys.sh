#!/usr/bin/env bash
# Each key's own work in the explorer, from its trace log rather than from the screen: the
# release binary runs in a 160x45 tmux pane with `CALLSCOPE_LOG=callscope=trace`; once the
# loader says idle, the keys of benches/explorer.sh are pressed in its order, a few seconds
# apart, and for each timed key the longest `update_ms` of the frames after it is printed (the
# update alone: no tmux round trip, no poll interval). One line a run.
#
# With FIND_AFTER set, only a find soon after the load is timed, while the events' numbers may
# still be read ahead: `/` FIND_AFTER seconds after the loader says idle, 0.3 s later the digit
# 4 (the first search a number can hold reads itself every event's numbers the reading ahead
# has not read yet), and the longest update after the digit.
#
# With FIRST_E set, only the load and the first `e` are timed: the longest update while the
# dump loaded, and the longest after `e` pressed once idle (the first grouping, which on a
# folder with its related data tells every chain's outcome).
#
#   benches/keys.sh DUMP [NAME]                   NAME labels the line (default: the binary)
#   BIN=path/to/callscope benches/keys.sh DUMP
#   SEARCH=text                                   the search (default sfu-prod-in2-03)
#   FIND_AFTER=1 benches/keys.sh DUMP             a find's first digit soon after the load
#   FIRST_E=1 benches/keys.sh DIR/                the load and the first `e`
#   LIMIT_S=300                                   give up on a load this long
set -euo pipefail
cd "$(dirname "$0")/.."
(($# >= 1)) || { echo "usage: benches/keys.sh DUMP [NAME]" >&2; exit 2; }
DUMP=$(realpath "$1")
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-target}/release/callscope
fi
BIN=$(realpath "$BIN")
NAME=${2:-$BIN}
SEARCH=${SEARCH:-sfu-prod-in2-03}
LIMIT_S=${LIMIT_S:-300}
BASE=$(mktemp -u /tmp/callscope-keys.XXXXXX)
SOCK=$BASE.sock
LOG=$BASE.log
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true; rm -f "$BASE".*' EXIT
fail() { echo "benches/keys.sh: $*" >&2; exit 1; }
tmux -S "$SOCK" new-session -d -s keys -x 160 -y 45 \
  "CALLSCOPE_LOG=callscope=trace exec '$BIN' --log-file '$LOG' '$DUMP'"
pid=$(tmux -S "$SOCK" display -p -t keys '#{pane_pid}')
started=$SECONDS
while :; do
  screen=$(tmux -S "$SOCK" capture-pane -p -t keys 2>/dev/null || true)
  [[ $screen == *"│ idle"* ]] && break
  kill -0 "$pid" 2>/dev/null || fail "callscope exited"
  ((SECONDS - started < LIMIT_S)) || fail "not loaded after $LIMIT_S s"
  sleep 0.05
done
out=""
# key NAME SECONDS KEYS...: presses KEYS, waits, and notes the longest update after them
# (a NAME of - is not noted: a key that only sets up the next).
key() {
  local name=$1 wait=$2 lines longest
  shift 2
  lines=$(wc -l <"$LOG")
  tmux -S "$SOCK" send-keys -t keys "$@"
  sleep "$wait"
  longest=$(tail -n +$((lines + 1)) "$LOG" | sed -n 's/.*frame update_ms=\([0-9.]*\).*/\1/p' |
    sort -g | tail -1)
  [ "$name" = - ] || [ -n "$longest" ] || fail "no frame logged after $name"
  [ "$name" = - ] || out+="$name $(printf %.0f "$longest") ms, "
}
if [ -n "${FIRST_E:-}" ]; then
  longest=$(sed -n 's/.*frame update_ms=\([0-9.]*\).*/\1/p' "$LOG" | sort -g | tail -1)
  out+="longest frame while loading $(printf %.0f "${longest:-0}") ms, "
  sleep 1
  lines=$(wc -l <"$LOG")
  tmux -S "$SOCK" send-keys -t keys e
  started=$SECONDS
  until tmux -S "$SOCK" capture-pane -p -t keys | grep -q "groups by error"; do
    ((SECONDS - started < LIMIT_S)) || fail "no groups $LIMIT_S s after e"
    sleep 0.05
  done
  sleep 1
  longest=$(tail -n +$((lines + 1)) "$LOG" | sed -n 's/.*frame update_ms=\([0-9.]*\).*/\1/p' |
    sort -g | tail -1)
  out+="first e $(printf %.0f "${longest:-0}") ms, "
  tmux -S "$SOCK" send-keys -t keys q
  echo "$NAME: ${out%, } (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  exit 0
fi
if [ -n "${FIND_AFTER:-}" ]; then
  sleep "$FIND_AFTER"
  key - 0.3 /
  # Long enough for the reading of every number at five million events.
  key "find 4 typed ${FIND_AFTER} s after loaded" 12 4
  tmux -S "$SOCK" send-keys -t keys Escape q
  echo "$NAME: ${out%, } (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  exit 0
fi
sleep 1
key "key 3" 2 3
key - 2 3
key t 2 t
key - 1 t
key - 1 t
tmux -S "$SOCK" send-keys -t keys '\'
sleep 0.5
tmux -S "$SOCK" send-keys -t keys -l "$SEARCH"
sleep 0.5
key search 3 Enter
key - 2 u
key T 2 T
key - 1 T
key F 2 F
key - 1 F
key e 3 e
key Shift-Tab 4 BTab
key - 2 Escape
key o 2 o
key O 2 O
key - 1 /
key "find 4" 15 4
key "the 0 of 40" 2 0
key "the 0 of 400" 2 0
key "the 6 of 4006" 3 6
key - 1 Enter
key n 1 n
tmux -S "$SOCK" send-keys -t keys q
echo "$NAME: ${out%, } (load average $(cut -d' ' -f1-3 /proc/loadavg))"
