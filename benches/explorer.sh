#!/usr/bin/env bash
# Measures the explorer on large dumps as a user meets it: the release binary runs in a 160x45
# tmux pane; the script polls the screen for the first events (first screen) and for the loader's
# "idle" (fully loaded), samples the process's RssAnon (its own memory: the pages of the mapped
# dump are the page cache's) meanwhile and once more with the groups open (by peer, the most
# groups), then times the redraw after each key the goals name:
# key 3 (the join type), t (final errors only), a search set with \ (SEARCH, every event read),
# T (the timeline) and F (the facets of the shown events), key e (every event grouped by error)
# and Shift-Tab there (regrouped by peer, the key with the most groups), then back in the list
# key o (sorted by type) and key O (newest first), the first digit of a find (the first search a
# number can hold: every event's numbers are read), the 6 that completes 4006 (typed after 400;
# and the time until its count shows, every event looked at) and n (the next hit), against the redraw after key ? (the help, cheap: the round trip through
# tmux). Prints one line per run, then the medians against the goals; given several dumps (100k,
# 1M and 5M events, say), each in turn, then a table of the growth: each median at each size.
#
#   benches/explorer.sh target/bench/events-1000000.ndjson [RUNS]
#   benches/explorer.sh e100k.ndjson e1m.ndjson e5m.ndjson [RUNS]   the growth
#   BIN=path/to/callscope benches/explorer.sh DUMP [RUNS]
#   PIPE=1 benches/explorer.sh DUMP [RUNS]    the dump through a pipe: `cat DUMP | callscope -`
#   SEARCH=text                               the search (default sfu-prod-in2-03)
#   KEY_LIMIT_S=30                            give up on a key unanswered this long
#   SETTLE=5                                  wait this long once loaded before the first key
#
# The goal for RssAnon is a fifth of the dump's events: a gzip'd dump's memory is given as a share
# of its decompressed size (counted once, by decompressing it), not of the compressed file's.
#
# Each dump is read once before its runs, so every run starts with it in the page cache. Times
# are from the start of the process (or the key) to the poll that saw the screen, so they include
# up to one poll interval (5 ms before the first screen, 20 ms after, 2 ms after a key) and tmux's
# own delay. Each run's line ends with the share of the processors' time the host gave to other
# machines meanwhile (steal, from /proc/stat): a run slow for every build shows it there.
set -euo pipefail
cd "$(dirname "$0")/.."
(($# >= 1)) || { echo "usage: benches/explorer.sh DUMP... [RUNS]" >&2; exit 2; }
DUMPS=("$@")
RUNS=3
if (($# > 1)) && [[ ${DUMPS[-1]} =~ ^[0-9]+$ ]]; then
  RUNS=${DUMPS[-1]}
  unset 'DUMPS[-1]'
fi
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
for FILE in "${DUMPS[@]}"; do
  [ -r "$FILE" ] || { echo "cannot read $FILE" >&2; exit 2; }
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 2; }
((BASH_VERSINFO[0] >= 5)) || { echo "bash 5 is needed (EPOCHREALTIME)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=${CARGO_TARGET_DIR:-target}/release/callscope
fi
[ -x "$BIN" ] || { echo "no callscope binary at $BIN" >&2; exit 2; }
BIN=$(realpath "$BIN")
LIMIT_S=${LIMIT_S:-120} # give up on a run after this long
KEY_LIMIT_S=${KEY_LIMIT_S:-30}
SEARCH=${SEARCH:-sfu-prod-in2-03}

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
    ((t - t1 < KEY_LIMIT_S * 1000)) || fail "no redraw $KEY_LIMIT_S s after pressing $1"
    nap 0.002
  done
  echo $((t - t1))
}
# wait_text TEXT: polls the screen until it holds TEXT.
# ms_until_count TEXT: the ms until the screen shows TEXT followed by a digit (a count).
ms_until_count() {
  local start now
  start=$(now_ms)
  while :; do
    now=$(capture 2>/dev/null || true)
    [[ $now == *"$1 "[0-9]* ]] && break
    (($(now_ms) - start < KEY_LIMIT_S * 1000)) || fail "no count after $1 on the screen after $KEY_LIMIT_S s"
    nap 0.005
  done
  echo $(($(now_ms) - start))
}
wait_text() {
  local start now
  start=$(now_ms)
  while :; do
    now=$(capture 2>/dev/null || true)
    [[ $now == *"$1"* ]] && return
    (($(now_ms) - start < KEY_LIMIT_S * 1000)) || fail "no $1 on the screen after $KEY_LIMIT_S s"
    nap 0.005
  done
}
# A size in KiB as a share of the events' size (the file's, decompressed when gzip'd), in per cent.
share() { awk -v kb="$1" -v size="$SIZE" 'BEGIN { print 100 * kb * 1024 / size }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
# Stops the whole script, from a command substitution as well (its `exit` would end only that).
fail() {
  echo "run $run: $1; the screen was:" >&2
  capture 2>/dev/null >&2 || true
  kill -TERM $$
  exit 1
}
trap 'exit 1' TERM

# wait_change SCREEN: waits for the screen to differ from SCREEN (after a key not timed).
wait_change() {
  local start now
  start=$(now_ms)
  while :; do
    now=$(capture 2>/dev/null || true)
    [ "$now" != "$1" ] && return
    (($(now_ms) - start < KEY_LIMIT_S * 1000)) || fail "no redraw after $KEY_LIMIT_S s"
    nap 0.005
  done
}
# press KEY: presses KEY, untimed, and waits for the redraw.
press() {
  local before
  before=$(capture)
  tmux -S "$SOCK" send-keys -t bench "$1"
  wait_change "$before"
  nap 0.2
}
# timed KEY: after a pause, presses KEY and prints the ms to its redraw.
timed() {
  nap 0.2
  key_to_change "$1" "$(capture)"
}
ms_to_s() { awk -v ms="$1" 'BEGIN { print ms / 1000 }'; }
# The machine's processor time so far, in ticks: all of it, then the share the hypervisor gave
# to other machines (steal). A run in which the host takes the processors away is slow for every
# build alike; its steal tells it from a slow build.
cpu_ticks() {
  local _cpu user nice system idle iowait irq softirq steal _rest
  read -r _cpu user nice system idle iowait irq softirq steal _rest </proc/stat
  echo "$((user + nice + system + idle + iowait + irq + softirq + steal)) $steal"
}
# stolen "TOTAL STEAL" (from cpu_ticks, at the start): the share stolen since, in per cent.
stolen() {
  local total steal
  read -r total steal <<<"$(cpu_ticks)"
  # shellcheck disable=SC2086 # the two numbers, split
  set -- $1
  awk -v t="$((total - $1))" -v s="$((steal - $2))" 'BEGIN { print (t > 0 ? 100 * s / t : 0) }'
}

# The columns of the growth table, in order: the name of each figure and its unit.
FIGURES=(first full anon peak grouped toggle final search timeline facets by_error by_peer by_type newest digit find counted next floor)
declare -A GROWTH   # GROWTH[dump,figure]: the median of the runs on that dump
declare -a LOADED   # the events each dump loads, as the header counts them

# measure INDEX FILE: the runs on one dump, then their medians.
measure() {
  local d=$1 FILE
  FILE=$(realpath "$2")
  SIZE=$(stat -c %s "$FILE")
  local ZIPPED=""
  # A gzip'd dump (told by its first two bytes, as callscope tells it): its events are its
  # decompressed bytes, which the memory is measured against.
  if [ "$(head -c 2 "$FILE" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
    ZIPPED="gzip'd, $((SIZE / 1000000)) MB compressed; "
    SIZE=$(gzip -dc "$FILE" | wc -c)
  fi
  if [ -n "${PIPE:-}" ]; then
    COMMAND="exec bash -c \"exec '$BIN' - < <(cat '$FILE')\""
    HOW="through a pipe"
  else
    COMMAND="exec '$BIN' '$FILE'"
    HOW="mapped"
    [ -n "$ZIPPED" ] && HOW="read as it decompresses"
  fi
  cat "$FILE" >/dev/null
  LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
  printf '%s: %s (%s%d MB, %d MiB of events) %s, %s cores, load average %s\n' \
    "$(date -u +'%Y-%m-%d %H:%M UTC')" "$FILE" "$ZIPPED" "$((SIZE / 1000000))" \
    "$((SIZE / 1048576))" "$HOW" "$(nproc)" "$LOAD_BEFORE"
  local -A ALL=()
  local f
  for run in $(seq "$RUNS"); do
    # A server of its own for each run: one that is still shutting down cannot be reused.
    tmux -S "$SOCK" kill-server 2>/dev/null || true
    SOCK=$BASE.$d.$run
    # The tmux server and pane are up before the clock starts; the pane is then replaced by
    # callscope itself (exec), so the pane's pid is callscope's.
    tmux -S "$SOCK" new-session -d -s bench -x 160 -y 45 'sleep 100000'
    ticks0=$(cpu_ticks)
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
    [[ $screen =~ ([0-9][0-9,]*)\ loaded ]] && LOADED[d]=${BASH_REMATCH[1]}

    # What the explorer does once loaded (the numbers read ahead for a find) may run under the
    # first keys; SETTLE waits that long first.
    nap "${SETTLE:-0}"
    # The round trip of a key through tmux, the floor: ? opens the help, a cheap redraw.
    floor=$(key_to_change '?' "$screen")
    press '?'
    # Key 3 turns the join type on: from every event to one type; again shows every event.
    toggle=$(timed 3)
    press 3
    # t shows the final errors only; twice more (retried only, then all) goes back.
    final=$(timed t)
    [[ $(capture) == *final* ]] || fail "key t did not show the final errors"
    press t
    press t
    # \ edits the search; the Enter that applies it reads every event; u undoes it.
    tmux -S "$SOCK" send-keys -t bench '\'
    wait_text "Enter apply"
    tmux -S "$SOCK" send-keys -t bench -l "$SEARCH"
    wait_text "$SEARCH"
    search=$(timed Enter)
    wait_text "search=\"$SEARCH\""
    press u
    # T opens the timeline of the shown events, F the facets; each again closes it.
    timeline=$(timed T)
    [[ $(capture) == *"timeline UTC"* ]] || fail "key T did not open the timeline"
    press T
    facets=$(timed F)
    [[ $(capture) == *"facets of the shown events"* ]] || fail "key F did not open the facets"
    press F
    # e groups every event by error, and Shift-Tab from the first key goes to the last one, peer.
    by_error=$(timed e)
    nap 0.2
    [[ $(capture) == *"groups by error"* ]] || fail "key e did not group by error"
    by_peer=$(timed BTab)
    nap 0.2
    [[ $(capture) == *"groups by peer"* ]] || fail "Shift-Tab did not group by peer"
    # The memory with the groups open, by peer (the most groups): the grouping's lists are
    # kept while the view is, for the next grouping to use again.
    grouped=$(rss_anon_kb "$pid")
    # Back in the list, every event shown: o sorts by type, O puts the newest first.
    tmux -S "$SOCK" send-keys -t bench Escape
    wait_text "Enter/Tab detail"
    by_type=$(timed o)
    nap 0.2
    [[ $(capture) == *"sorted by type"* ]] || fail "key o did not sort by type"
    newest=$(timed O)
    nap 0.2
    [[ $(capture) == *"newest first"* ]] || fail "key O did not put the newest first"
    # Find: / opens its prompt, 400 is typed; then the 6 that makes it 4006 (every loaded event
    # looked at, the selection jumping to the first that holds it), and n to the next one.
    tmux -S "$SOCK" send-keys -t bench /
    wait_text "keeps it"
    # The first digit typed: the first search that a number can hold reads every event's numbers.
    digit=$(timed 4)
    wait_text '"4" in'
    tmux -S "$SOCK" send-keys -t bench -l 00
    wait_text '"400" in'
    find=$(timed 6)
    # Over many events the find looks at them a part at a time after the redraw: the count
    # shows once every one was looked at.
    counted=$((find + $(ms_until_count '"4006" in')))
    tmux -S "$SOCK" send-keys -t bench Enter
    wait_text "(n/N: next/previous"
    next=$(timed n)
    tmux -S "$SOCK" send-keys -t bench q

    for f in "${FIGURES[@]}"; do ALL[$f]+="${!f} "; done
    printf 'run %d: first screen %.3f s, fully loaded %.3f s, RssAnon %d MiB loaded (%.1f%% of the events), %d MiB peak sampled (%.1f%%), %d MiB grouped by peer (%.1f%%); redrawn after: key 3 %d ms, t %d ms, search %d ms, T %d ms, F %d ms, e (by error) %d ms, Shift-Tab (by peer) %d ms, o (by type) %d ms, O (newest first) %d ms, find 4 (numbers read) %d ms, 4006 %d ms (counted in %d ms), n %d ms (key ? in %d ms; %.1f%% of the processors stolen by the host)\n' \
      "$run" "$(ms_to_s "$first")" "$(ms_to_s "$full")" "$((anon / 1024))" "$(share "$anon")" \
      "$((peak / 1024))" "$(share "$peak")" "$((grouped / 1024))" "$(share "$grouped")" "$toggle" "$final" "$search" "$timeline" "$facets" \
      "$by_error" "$by_peer" "$by_type" "$newest" "$digit" "$find" "$counted" "$next" "$floor" \
      "$(stolen "$ticks0")"
  done

  # shellcheck disable=SC2086
  for f in "${FIGURES[@]}"; do GROWTH[$d,$f]=$(median ${ALL[$f]}); done
  m() { echo "${GROWTH[$d,$1]}"; }
  verdict() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo met; else echo "NOT met"; fi; }
  printf '\nmedians of %d runs (load average %s before, %s after):\n' "$RUNS" "$LOAD_BEFORE" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '| %-28s | %10s | %14s | %7s |\n' "what" "median" "goal" ""
  printf '|------------------------------|-----------:|---------------:|---------|\n'
  printf '| %-28s | %8.3f s | %12s s | %7s |\n' "first screen" "$(ms_to_s "$(m first)")" "<= 0.1" "$(verdict "$(m first)" 100)"
  printf '| %-28s | %8.3f s | %14s | %7s |\n' "fully loaded" "$(ms_to_s "$(m full)")" "1 s a million" ""
  printf '| %-28s | %6d MiB | %10d MiB | %7s |\n' "RssAnon, loaded" "$(($(m anon) / 1024))" "$((SIZE / 5 / 1048576))" "$(verdict "$(($(m anon) * 1024))" "$((SIZE / 5))")"
  printf '| %-28s | %6d MiB | %10d MiB | %7s |\n' "RssAnon, peak while loading" "$(($(m peak) / 1024))" "$((SIZE / 5 / 1048576))" "$(verdict "$(($(m peak) * 1024))" "$((SIZE / 5))")"
  printf '| %-28s | %6d MiB | %10d MiB | %7s |\n' "RssAnon, grouped by peer" "$(($(m grouped) / 1024))" "$((SIZE / 5 / 1048576))" "$(verdict "$(($(m grouped) * 1024))" "$((SIZE / 5))")"
  local -a names=("key 3 (join)" "key t (final only)" "search (Enter after \\)" "key T (timeline)" "key F (facets)" "key e (groups by error)" "Shift-Tab (groups by peer)" "key o (sorted by type)" "key O (newest first)" "find: 4, numbers first read" "find: the 6 of 4006 typed" "n (the next hit)")
  local -a keys=(toggle final search timeline facets by_error by_peer by_type newest digit find next)
  local k
  for k in "${!keys[@]}"; do
    printf '| %-28s | %7d ms | %11s ms | %7s |\n' "${names[k]}" "$(m "${keys[k]}")" "<= 100" "$(verdict "$(m "${keys[k]}")" 100)"
  done
  printf '| %-28s | %7d ms | %14s | %7s |\n' "find: 4006 counted" "$(m counted)" "-" ""
  printf '| %-28s | %7d ms | %14s | %7s |\n' "key ? (help): tmux's floor" "$(m floor)" "-" ""
  echo
}

for d in "${!DUMPS[@]}"; do
  measure "$d" "${DUMPS[d]}"
done

if ((${#DUMPS[@]} > 1)); then
  # The growth: each median (times in ms, memory in MiB) at each size.
  printf 'growth, medians of %d runs each (times in ms, RssAnon in MiB):\n' "$RUNS"
  printf '| %-24s | %12s ' dump events
  for f in "${FIGURES[@]}"; do printf '| %s ' "$f"; done
  echo '|'
  printf '|%s|%s' "$(printf -- '-%.0s' {1..26})" "$(printf -- '-%.0s' {1..14})"
  for f in "${FIGURES[@]}"; do printf '|%s' "$(printf -- '-%.0s' $(seq $((${#f} + 2))))"; done
  echo '|'
  for d in "${!DUMPS[@]}"; do
    printf '| %-24s | %12s |' "$(basename "${DUMPS[d]}")" "${LOADED[d]:-?}"
    for f in "${FIGURES[@]}"; do
      v=${GROWTH[$d,$f]}
      [[ $f == anon || $f == peak || $f == grouped ]] && v=$((v / 1024))
      printf " %${#f}s |" "$v"
    done
    echo
  done
fi
