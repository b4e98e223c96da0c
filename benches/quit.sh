#!/usr/bin/env bash
# Times quitting the explorer while it loads, as a user meets it: each binary in turn (runs
# alternate between them) starts on the dump in a 160x45 tmux pane (the pane's process is
# callscope itself), q is pressed AT seconds after the start, and the script polls the pane for
# the terminal given back (the alternate screen left) and for the process's end (what the shell
# waits for before its prompt). Prints one line per run, then the medians of each binary.
#
#   benches/quit.sh DUMP [RUNS]                      the release binary built here
#   benches/quit.sh DUMP RUNS BIN...                 these binaries, alternating
#   AT=10 benches/quit.sh DUMP                       q 10 s into the load (default 2)
#
# Times include up to one poll interval (2 ms) and tmux's own delay. The dump is read once first,
# so that every run starts with it in the page cache.
set -euo pipefail
cd "$(dirname "$0")/.."
(($# >= 1)) || { echo "usage: benches/quit.sh DUMP [RUNS [BIN...]]" >&2; exit 2; }
FILE=$(realpath "$1")
RUNS=${2:-5}
shift $(($# >= 2 ? 2 : 1))
BINS=("$@")
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
((BASH_VERSINFO[0] >= 5)) || { echo "bash 5 is needed (EPOCHREALTIME)" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 2; }
if ((${#BINS[@]} == 0)); then
  cargo build --release --quiet
  BINS=("${CARGO_TARGET_DIR:-target}/release/callscope")
fi
for i in "${!BINS[@]}"; do
  [ -x "${BINS[i]}" ] || { echo "no callscope binary at ${BINS[i]}" >&2; exit 2; }
  BINS[i]=$(realpath "${BINS[i]}")
done
AT=${AT:-2}
LIMIT_S=${LIMIT_S:-120} # give up on a run after this long

BASE=$(mktemp -u /tmp/callscope-quit.XXXXXX)
SOCK=$BASE.0
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true; rm -f "$BASE".*' EXIT
# A pipe nobody writes to: `read -t` on it is a sleep that forks nothing.
exec {NAP}<> <(:)
nap() { read -r -t "$1" -u "$NAP" _ || true; }
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
alternate_on() { tmux -S "$SOCK" display -p -t bench '#{alternate_on}' 2>/dev/null || echo 0; }
# Whether the process has ended: it is gone, or it is a zombie none of whose threads still runs
# (what its parent's wait reaps at once, and what a shell waits for before its prompt). Not
# `kill -0`, which counts a zombie as running: tmux, the parent here, can miss the end of a
# pane's process. Built with libutempter (Debian's tmux 3.3a), it runs the utempter helper when
# the pane's terminal closes, with SIGCHLD at its default meanwhile; the SIGCHLD of a process that
# ends within that millisecond is lost, and tmux leaves it a zombie until another of its children
# ends, which here is never (tmux/tmux#311, #4559). The explorer quitting 2 s into a 1.4 GB
# dump was left so in about one run in four (strace of the server: the SIGCHLD arrives between
# the helper's fork and its wait).
ended() {
  local stat fields
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 0
  read -ra fields <<<"${stat##*) }" # from the state (field 3) on; field 20 is the threads
  [ "${fields[0]}" = Z ] && [ "${fields[17]}" = 1 ]
}

cat "$FILE" >/dev/null
printf '%s: %s (%d MB), q at %s s, %s cores, load average %s\n' "$(date -u +'%Y-%m-%d %H:%M UTC')" \
  "$FILE" "$(($(stat -c %s "$FILE") / 1000000))" "$AT" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
declare -A RESTORED GONE
for run in $(seq "$RUNS"); do
  for b in "${!BINS[@]}"; do
    tmux -S "$SOCK" kill-server 2>/dev/null || true
    SOCK=$BASE.$run.$b
    tmux -S "$SOCK" new-session -d -s bench -x 160 -y 45 'sleep 100000'
    tmux -S "$SOCK" set-option -t bench remain-on-exit on >/dev/null
    before=$(tmux -S "$SOCK" display -p -t bench '#{pane_pid}')
    t0=$(now_ms)
    tmux -S "$SOCK" respawn-pane -k -t bench "exec '${BINS[b]}' '$FILE'"
    pid=$before
    while [ "$pid" = "$before" ]; do pid=$(tmux -S "$SOCK" display -p -t bench '#{pane_pid}'); done
    while (($(now_ms) - t0 < AT * 1000)); do nap 0.01; done
    [ "$(alternate_on)" = 1 ] || { echo "run $run: the explorer is not on screen at $AT s" >&2; exit 1; }
    anon=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status")
    tq=$(now_ms)
    tmux -S "$SOCK" send-keys -t bench q
    restored="" gone=""
    while :; do
      t=$(now_ms)
      [ -z "$restored" ] && [ "$(alternate_on)" = 0 ] && restored=$((t - tq))
      if ended "$pid"; then
        gone=$((t - tq))
        [ -n "$restored" ] || restored=$gone
        break
      fi
      if ((t - tq >= LIMIT_S * 1000)); then
        echo "run $run: still running $LIMIT_S s after q (alternate screen: $(alternate_on));" \
          "its threads (state, where they wait):" >&2
        for task in /proc/"$pid"/task/*; do
          echo "  $(<"$task/comm") $(cut -d' ' -f3 "$task/stat") $(<"$task/wchan")" >&2
        done 2>/dev/null
        echo "the screen shows:" >&2
        tmux -S "$SOCK" capture-pane -p -t bench >&2
        exit 1
      fi
      nap 0.002
    done
    RESTORED[$b]+=" $restored"
    GONE[$b]+=" $gone"
    printf 'run %d %s: RssAnon at q %d MiB, terminal back %d ms, process gone %d ms\n' \
      "$run" "${BINS[b]}" $((anon / 1024)) "$restored" "$gone"
  done
done
for b in "${!BINS[@]}"; do
  # shellcheck disable=SC2086
  printf 'median %s: terminal back %d ms, process gone %d ms\n' "${BINS[b]}" \
    "$(median ${RESTORED[$b]})" "$(median ${GONE[$b]})"
done
