#!/usr/bin/env bash
# Measures the explorer on a large dump as a user meets it: the release binary runs in a 160x45
# tmux pane; the script polls the screen for the first events (first screen) and for the loader's
# "idle" (fully loaded), samples the process's RssAnon (its own memory: the pages of the mapped
# dump are the page cache's) meanwhile, then times the redraw after key 3 (the join type), after
# key e (every event grouped by error) and after Shift-Tab there (regrouped by peer, the key with
# the most groups), then back in the list after key o (sorted by type) and key O (newest first),
# after the first digit of a find (the first search a number can hold: every event's numbers
# are read), after the 6 that completes 4006 (typed after 400) and after n (the next hit), against
# the redraw after key ? (the help, cheap: the round trip through tmux).
# Prints one line per run, then the medians against the goals.
#
#   benches/explorer.sh target/bench/events-1000000.ndjson [RUNS]
#   BIN=path/to/callscope benches/explorer.sh DUMP [RUNS]
#   PIPE=1 benches/explorer.sh DUMP [RUNS]    the dump through a pipe: `cat DUMP | callscope -`
#
# The dump is read once before the runs, so every run starts with it in the page cache. Times are
# from the start of the process to the poll that saw the screen, so they include up to one poll
# interval (5 ms before the first screen, 20 ms after) and tmux's own delay.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:?usage: benches/explorer.sh DUMP [RUNS]}
RUNS=${2:-3}
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
[ -r "$FILE" ] || { echo "cannot read $FILE" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 2; }
((BASH_VERSINFO[0] >= 5)) || { echo "bash 5 is needed (EPOCHREALTIME)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-target}/release/callscope
fi
[ -x "$BIN" ] || { echo "no callscope binary at $BIN" >&2; exit 2; }
BIN=$(realpath "$BIN")
FILE=$(realpath "$FILE")
SIZE=$(stat -c %s "$FILE")
LIMIT_S=${LIMIT_S:-120} # give up on a run after this long
if [ -n "${PIPE:-}" ]; then
  COMMAND="exec bash -c \"exec '$BIN' - < <(cat '$FILE')\""
  HOW="through a pipe"
else
  COMMAND="exec '$BIN' '$FILE'"
  HOW="mapped"
fi

BASE=$(mktemp -u /tmp/callscope-bench.XXXXXX)
SOCK=$BASE.0
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true; rm -f "$BASE".*' EXIT
# A pipe nobody writes to: `read -t` on it is a sleep that forks nothing.
exec {NAP}<> <(:)
nap() { read -r -t "$1" -u "$NAP" _ || true; }
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
# The number before "shown" in the header, digits only; empty before the first frame.
shown_count() { [[ $1 =~ ([0-9][0-9,]*)\ shown ]] && echo "${BASH_REMATCH[1]//,/}" || true; }
rss_anon_kb() {
  local k v _unit
  while read -r k v _unit; do
    if [ "$k" = RssAnon: ]; then echo "$v"; return; fi
  done <"/proc/$1/status" 2>/dev/null || true
  echo 0
}
# The pane's text now.
capture() { tmux -S "$SOCK" capture-pane -p -t bench; }
# key_to_change KEY SCREEN: presses KEY and prints the ms until the screen differs from SCREEN.
key_to_change() {
  local t1 t now
  t1=$(now_ms)
  tmux -S "$SOCK" send-keys -t bench "$1"
  while :; do
    now=$(capture 2>/dev/null || true)
    t=$(now_ms)
    if [ "$now" != "$2" ]; then break; fi
    ((t - t1 < 10000)) || fail "no redraw 10 s after pressing $1"
    nap 0.002
  done
  echo $((t - t1))
}
# wait_text TEXT: polls the screen until it holds TEXT.
wait_text() {
  local start now
  start=$(now_ms)
  while :; do
    now=$(capture 2>/dev/null || true)
    [[ $now == *"$1"* ]] && return
    (($(now_ms) - start < 10000)) || fail "no $1 on the screen after 10 s"
    nap 0.005
  done
}
# A size in KiB as a share of the file's size, in per cent.
share() { awk -v kb="$1" -v size="$SIZE" 'BEGIN { print 100 * kb * 1024 / size }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
fail() {
  echo "run $run: $1; the screen was:" >&2
  capture 2>/dev/null >&2 || true
  exit 1
}

cat "$FILE" >/dev/null
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
printf '%s: %s (%d MB, %d MiB) %s, %s cores, load average %s\n' "$(date -u +'%Y-%m-%d %H:%M UTC')" \
  "$FILE" "$((SIZE / 1000000))" "$((SIZE / 1048576))" "$HOW" "$(nproc)" "$LOAD_BEFORE"

declare -a FIRSTS FULLS ANONS PEAKS TOGGLES FLOORS ERRORS PEERS SORTS FLIPS DIGITS FINDS NEXTS
for run in $(seq "$RUNS"); do
  # A server of its own for each run: one that is still shutting down cannot be reused.
  tmux -S "$SOCK" kill-server 2>/dev/null || true
  SOCK=$BASE.$run
  # The tmux server and pane are up before the clock starts; the pane is then replaced by
  # callscope itself (exec), so the pane's pid is callscope's.
  tmux -S "$SOCK" new-session -d -s bench -x 160 -y 45 'sleep 100000'
  t0=$(now_ms)
  tmux -S "$SOCK" respawn-pane -k -t bench "$COMMAND"
  pid=$(tmux -S "$SOCK" display -p -t bench '#{pane_pid}')
  first="" full="" peak=0 interval=0.005
  while :; do
    screen=$(capture 2>/dev/null || true)
    t=$(now_ms)
    kb=$(rss_anon_kb "$pid")
    ((kb > peak)) && peak=$kb
    if [ -z "$first" ] && [ "$(shown_count "$screen")" -gt 0 ] 2>/dev/null; then
      first=$((t - t0))
      interval=0.02
    fi
    if [[ $screen == *"│ idle"* ]]; then
      full=$((t - t0))
      break
    fi
    kill -0 "$pid" 2>/dev/null || fail "callscope exited"
    ((t - t0 < LIMIT_S * 1000)) || fail "not loaded after $LIMIT_S s"
    nap "$interval"
  done
  [ -n "$first" ] || first=$full
  anon=$(rss_anon_kb "$pid")
  ((anon > peak)) && peak=$anon

  # The round trip of a key through tmux, the floor: ? opens the help, a cheap redraw.
  floor=$(key_to_change '?' "$screen")
  tmux -S "$SOCK" send-keys -t bench '?'
  nap 0.2
  # Key 3 turns the join type on: from every event to one type.
  screen=$(capture)
  toggle=$(key_to_change 3 "$screen")
  # Key 3 again shows every event again; e groups them by error, and Shift-Tab from the first
  # key goes to the last one, peer.
  nap 0.2
  screen=$(capture)
  key_to_change 3 "$screen" >/dev/null
  nap 0.2
  screen=$(capture)
  by_error=$(key_to_change e "$screen")
  nap 0.2
  screen=$(capture)
  [[ $screen == *"groups by error"* ]] || fail "key e did not group by error"
  by_peer=$(key_to_change BTab "$screen")
  nap 0.2
  screen=$(capture)
  [[ $screen == *"groups by peer"* ]] || fail "Shift-Tab did not group by peer"
  # Back in the list, every event shown: o sorts by type, O puts the newest first.
  tmux -S "$SOCK" send-keys -t bench Escape
  wait_text "Enter/Tab detail"
  nap 0.2
  screen=$(capture)
  by_type=$(key_to_change o "$screen")
  nap 0.2
  screen=$(capture)
  [[ $screen == *"sorted by type"* ]] || fail "key o did not sort by type"
  newest=$(key_to_change O "$screen")
  nap 0.2
  screen=$(capture)
  [[ $screen == *"newest first"* ]] || fail "key O did not put the newest first"
  # Find: / opens its prompt, 400 is typed; then the 6 that makes it 4006 (every loaded event
  # looked at, the selection jumping to the first that holds it), and n to the next one.
  tmux -S "$SOCK" send-keys -t bench /
  wait_text "keeps it"
  # The first digit typed: the first search that a number can hold reads every event's numbers.
  nap 0.2
  screen=$(capture)
  digit=$(key_to_change 4 "$screen")
  wait_text '"4" in'
  tmux -S "$SOCK" send-keys -t bench -l 00
  wait_text '"400" in'
  nap 0.2
  screen=$(capture)
  find=$(key_to_change 6 "$screen")
  wait_text '"4006" in'
  tmux -S "$SOCK" send-keys -t bench Enter
  wait_text "(n/N: next/previous"
  nap 0.2
  screen=$(capture)
  next=$(key_to_change n "$screen")
  tmux -S "$SOCK" send-keys -t bench q

  FIRSTS+=("$first") FULLS+=("$full") ANONS+=("$anon") PEAKS+=("$peak") TOGGLES+=("$toggle") FLOORS+=("$floor")
  ERRORS+=("$by_error") PEERS+=("$by_peer") SORTS+=("$by_type") FLIPS+=("$newest") DIGITS+=("$digit") FINDS+=("$find") NEXTS+=("$next")
  printf 'run %d: first screen %.3f s, fully loaded %.3f s, RssAnon %d MiB loaded (%.1f%% of the file), %d MiB peak sampled (%.1f%%); key 3 redrawn in %d ms, grouped by error in %d ms, by peer in %d ms, sorted by type in %d ms, newest first in %d ms, find 4 (numbers read) in %d ms, 4006 in %d ms, next hit in %d ms (key ? in %d ms)\n' \
    "$run" "$(awk -v ms="$first" 'BEGIN { print ms / 1000 }')" \
    "$(awk -v ms="$full" 'BEGIN { print ms / 1000 }')" "$((anon / 1024))" "$(share "$anon")" \
    "$((peak / 1024))" "$(share "$peak")" "$toggle" "$by_error" "$by_peer" "$by_type" "$newest" \
    "$digit" "$find" "$next" "$floor"
done

first=$(median "${FIRSTS[@]}") full=$(median "${FULLS[@]}")
anon=$(median "${ANONS[@]}") peak=$(median "${PEAKS[@]}") toggle=$(median "${TOGGLES[@]}") floor=$(median "${FLOORS[@]}")
by_error=$(median "${ERRORS[@]}") by_peer=$(median "${PEERS[@]}")
by_type=$(median "${SORTS[@]}") newest=$(median "${FLIPS[@]}") find=$(median "${FINDS[@]}") next=$(median "${NEXTS[@]}")
digit=$(median "${DIGITS[@]}")
verdict() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo met; else echo "NOT met"; fi; }
printf '\nmedians of %d runs (load average %s before, %s after):\n' "$RUNS" "$LOAD_BEFORE" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-28s | %10s | %14s | %7s |\n' "what" "median" "goal" ""
printf '|------------------------------|-----------:|---------------:|---------|\n'
printf '| %-28s | %8.3f s | %12s s | %7s |\n' "first screen" "$(awk -v x="$first" 'BEGIN { print x / 1000 }')" "<= 0.3" "$(verdict "$first" 300)"
printf '| %-28s | %8.3f s | %12s s | %7s |\n' "fully loaded" "$(awk -v x="$full" 'BEGIN { print x / 1000 }')" "<= 2" "$(verdict "$full" 2000)"
printf '| %-28s | %6d MiB | %10d MiB | %7s |\n' "RssAnon, loaded" "$((anon / 1024))" "$((SIZE / 4 / 1048576))" "$(verdict "$((anon * 1024))" "$((SIZE / 4))")"
printf '| %-28s | %6d MiB | %10d MiB | %7s |\n' "RssAnon, peak while loading" "$((peak / 1024))" "$((SIZE / 4 / 1048576))" "$(verdict "$((peak * 1024))" "$((SIZE / 4))")"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "key 3 (join) to its redraw" "$toggle" "<= 50" "$(verdict "$toggle" 50)"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "key e (groups by error)" "$by_error" "<= 100" "$(verdict "$by_error" 100)"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "Shift-Tab (groups by peer)" "$by_peer" "<= 100" "$(verdict "$by_peer" 100)"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "key o (sorted by type)" "$by_type" "<= 50" "$(verdict "$by_type" 50)"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "key O (newest first)" "$newest" "<= 50" "$(verdict "$newest" 50)"
printf '| %-28s | %7d ms | %14s | %7s |\n' "find: 4, numbers first read" "$digit" "-" ""
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "find: the 6 of 4006 typed" "$find" "<= 100" "$(verdict "$find" 100)"
printf '| %-28s | %7d ms | %11s ms | %7s |\n' "n (the next hit)" "$next" "<= 50" "$(verdict "$next" 50)"
printf '| %-28s | %7d ms | %14s | %7s |\n' "key ? (help): tmux's floor" "$floor" "-" ""
