#!/usr/bin/env bash
# Times callscope against jq, jaq, ripgrep, DuckDB and chDB (ClickHouse's embedded engine) on the
# same work and the same dump, in one run, on each form of the dump: the NDJSON file, the same
# gzip'd (`gzip -1`), one envelope (`{"limit":..,"events":[...]}`, as `callscope list --format
# json` writes it) and the NDJSON piped on stdin. The works: select by type and room, search a
# text, group by error (the count of each (type, code, name)) and every event to /dev/null, with
# `cat` (`gzip -dc` for the gzip'd form) as the floor. Checks that every tool gives the same
# answer and prints medians, ratios and peak memory.
#
#   benches/compare.sh                       # 1,000,000 events, 3 runs of each
#   N=100000 RUNS=1 benches/compare.sh       # a quick run
#   SETUP=1 benches/compare.sh               # first install what is missing (see below)
#   SIZES="100000 1000000 5000000" TOOLS=callscope benches/compare.sh
#                                            # each size in turn, then the growth: time and
#                                            # memory at each size
#   TOOLS="callscope duckdb" FORMS="ndjson gz" WORKS="select group" benches/compare.sh
#                                            # some of the tools, forms and works (all by default:
#                                            # callscope jq jaq rg duckdb chdb; ndjson gz
#                                            # envelope stdin; select search group all)
#   BIN=path/to/callscope benches/compare.sh # time this binary instead of building one
#   DUMP=other.ndjson ROOM=R TEXT=T benches/compare.sh
#                                            # any NDJSON dump instead of a generated one, with a
#                                            # room and a search text that it holds
#
# Needs jq, gzip and GNU time (/usr/bin/time). Files go to target/bench (BENCH_DIR to change it):
# the dumps, the answers (out/), the results (out/results.tsv) and the table (out/compare-N.md).
# The release build goes to cargo's target folder (CARGO_TARGET_DIR is honoured).
#
# The other tools are looked for in the bench folder, then on PATH; one that is missing is skipped
# with a note. SETUP=1 installs what is missing, as this user, under the bench folder: DuckDB and
# chDB (the `duckdb` and `chdb` Python packages) into a virtual environment (venv/), jaq and
# ripgrep with `cargo install --root tools` (or `apt-get install ripgrep` for Debian's, older).
#
# Not run by CI: at a million events, with every tool, it takes the better part of an hour, most
# of it jq's and jaq's. jq, jaq, DuckDB and chDB hold a whole envelope in memory (about 4.3, 6.7,
# 3.8 and 5.8 times its size; DuckDB reads none of 4 GiB or more): each is skipped, with a note,
# on an envelope that would not fit in the memory available.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

N=${N:-1000000}
RUNS=${RUNS:-3}
mkdir -p "${BENCH_DIR:-target/bench}"
DIR=$(cd "${BENCH_DIR:-target/bench}" && pwd)
TOOLS=${TOOLS:-callscope jq jaq rg duckdb chdb}
FORMS=${FORMS:-ndjson gz envelope stdin}
WORKS=${WORKS:-select search group all}
SIZES=${SIZES:-}
# ENVELOPE=0, from before the forms were named, still leaves the envelope out.
if [ "${ENVELOPE:-1}" = 0 ]; then FORMS=$(echo " $FORMS " | sed 's/ envelope / /'); fi
# The demo generator's storm room, present at every size, and a text named in every storm
# event's error_description and nowhere else.
ROOM=${ROOM:-673a1f2c9e4b8d0a5c7e3f21}
TEXT=${TEXT:-sfu-prod-in2-07}

command -v jq >/dev/null || { echo "jq is needed (apt-get install jq)" >&2; exit 2; }
command -v gzip >/dev/null || { echo "gzip is needed (apt-get install gzip)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed (apt-get install time)" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 2; }
for n in $N $SIZES; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "N and SIZES take numbers of events, not $n" >&2; exit 2; }
done
if [ -n "$SIZES" ] && [ -n "${DUMP:-}" ]; then
  echo "SIZES generates its dumps: it does not take DUMP" >&2
  exit 2
fi
for t in $TOOLS; do
  case $t in callscope | jq | jaq | rg | duckdb | chdb) ;; *) echo "unknown tool $t" >&2; exit 2 ;; esac
done
for f in $FORMS; do
  case $f in ndjson | gz | envelope | stdin) ;; *) echo "unknown form $f" >&2; exit 2 ;; esac
done
for w in $WORKS; do
  case $w in select | search | group | all) ;; *) echo "unknown work $w" >&2; exit 2 ;; esac
done
wants() { [[ " $TOOLS " == *" $1 "* ]]; }

OUT="$DIR/out"
mkdir -p "$OUT"
VENV="$DIR/venv"
PY="$VENV/bin/python"

# --- setup: only when asked, only what is missing ---------------------------------------------

# tool NAME: the path of a program, from the bench folder's tools first, then PATH; empty if none.
tool() {
  if [ -x "$DIR/tools/bin/$1" ]; then echo "$DIR/tools/bin/$1"; else command -v "$1" || true; fi
}
has_module() { [ -x "$PY" ] && "$PY" -c "import $1" 2>/dev/null; }

if [ "${SETUP:-0}" != 0 ]; then
  pkgs=()
  for m in duckdb chdb; do
    if wants "$m" && ! has_module "$m"; then pkgs+=("$m"); fi
  done
  if [ "${#pkgs[@]}" -gt 0 ]; then
    echo "setup: installing ${pkgs[*]} into $VENV" >&2
    { [ -x "$PY" ] || python3 -m venv "$VENV"; } &&
      "$PY" -m pip install --quiet --disable-pip-version-check "${pkgs[@]}" </dev/null ||
      echo "setup: could not install ${pkgs[*]} (python3 -m venv and pip are needed)" >&2
  fi
  for pair in jaq:jaq rg:ripgrep; do
    name=${pair%%:*} crate=${pair#*:}
    if wants "$name" && [ -z "$(tool "$name")" ]; then
      echo "setup: cargo install $crate into $DIR/tools" >&2
      cargo install --quiet --locked --root "$DIR/tools" --target-dir "$DIR/tools/build" \
        "$crate" </dev/null || echo "setup: could not install $crate" >&2
    fi
  done
fi

# --- the tools found --------------------------------------------------------------------------

# callscope is also the generator of the dumps and the envelope: it is built even when it is not
# timed.
GIVEN_BIN=${BIN:-}
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$(cargo metadata --format-version 1 --no-deps | jq -r .target_directory)/release/callscope
fi
[ -x "$BIN" ] || { echo "no callscope binary at $BIN" >&2; exit 2; }

declare -A PATHS
VERSIONS=()
AVAILABLE=()
SKIPPED=()
for t in $TOOLS; do
  case $t in
    callscope)
      AVAILABLE+=(callscope)
      # A binary given is named by its path: the work tree's commit need not be its build.
      if [ -n "$GIVEN_BIN" ]; then
        VERSIONS+=("callscope at $GIVEN_BIN")
      else
        VERSIONS+=("callscope $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?')")
      fi
      ;;
    jq | jaq | rg)
      p=$(tool "$t")
      if [ -n "$p" ]; then
        PATHS[$t]=$p
        AVAILABLE+=("$t")
        VERSIONS+=("$("$p" --version | head -n 1)")
      else
        SKIPPED+=("$t: not found, skipped (SETUP=1 installs it)")
      fi
      ;;
    duckdb | chdb)
      if has_module "$t"; then
        AVAILABLE+=("$t")
        VERSIONS+=("$t $("$PY" -c "import $t; print($t.__version__)")")
      else
        SKIPPED+=("$t: no $t module in $VENV, skipped (SETUP=1 installs it)")
      fi
      ;;
  esac
done
for note in "${SKIPPED[@]}"; do echo "note: $note" >&2; done
[ "${#AVAILABLE[@]}" -gt 0 ] || { echo "none of the tools ($TOOLS) is here" >&2; exit 2; }

# --- the queries ------------------------------------------------------------------------------
# Each tool's fastest form that gives the answer compared: the anchors print only the ids of the
# events selected (or found), or the counts, which is less than callscope prints (whole events),
# and so in their favour. For the queries of DuckDB and chDB, see benches/anchors.py.

# ROOM and TEXT reach jq and jaq as arguments ($room, $text); TEXT is matched as a literal, its
# regex characters escaped.
JQ_ARGS=(--arg room "$ROOM" --arg text "$(printf '%s' "$TEXT" | sed 's#[][\\.*^$+?(){}|]#\\&#g')")
SELECT='select(.type=="client.join.failed" and .data.room_id==$room) | .id'
# jq's fastest case-insensitive search: the event's whole text (keys too, none of which holds
# TEXT). Walking the string values (`any(.. | strings; test(...))`) takes about 5 times as long,
# with `ascii_downcase` about 16 times.
SEARCH='select(tostring | test($text; "i")) | .id'
# The count of each (type, code, name), one tab-separated line each, as anchors.py prints them.
GROUP_BY='({}; .[[$e.type, $e.data.error_code, $e.data.error_name] | tojson] += 1)
  | to_entries[] | (.key | fromjson) + [.value] | @tsv'
# rg matches the bytes of a line: the type and the room as the generator writes them (no space
# after the colon), in either order (two rg in a pipe, each a literal search); it cannot group.
RG_TYPE='"type":"client.join.failed"'
RG_ROOM="\"room_id\":\"$ROOM\""

# command_for TOOL FORM WORK: sets CMD (the command), FEED (what its stdin is fed with: empty for
# /dev/null) and SINK (where its output goes); returns 1 when TOOL cannot do WORK on FORM, with
# the reason in WHY (empty for an unremarkable "cannot").
command_for() {
  local tool=$1 form=$2 work=$3 src
  CMD=() FEED=() WHY=""
  SINK="$OUT/$form.$work.$tool"
  [ "$work" = all ] && SINK=/dev/null
  case $form in
    ndjson) src=$NDJSON ;;
    gz) src=$GZ ;;
    envelope) src=$ENVELOPE ;;
    stdin) src=- FEED=(cat "$NDJSON") ;;
  esac
  case $tool in
    callscope)
      case $work in
        select) CMD=("$BIN" list --type client.join.failed --room "$ROOM" --format ndjson "$src") ;;
        search) CMD=("$BIN" list --search "$TEXT" --format ndjson "$src") ;;
        group) CMD=("$BIN" list --group-by error --format json "$src") ;;
        all) CMD=("$BIN" list --format ndjson "$src") ;;
      esac
      ;;
    jq | jaq)
      local each=. files=("$src")
      [ "$form" = envelope ] && each='.events[]'
      if [ "$form" = envelope ] && ! fits "$tool" "$([ "$tool" = jq ] && echo 5 || echo 7)"; then
        return 1
      fi
      if [ "$form" = gz ]; then FEED=(gzip -dc "$GZ"); fi
      if [ "$form" = gz ] || [ "$form" = stdin ]; then files=(); fi
      case $work in
        select) CMD=("${PATHS[$tool]}" -r "${JQ_ARGS[@]}" "$each | $SELECT" "${files[@]}") ;;
        search) CMD=("${PATHS[$tool]}" -r "${JQ_ARGS[@]}" "$each | $SEARCH" "${files[@]}") ;;
        group)
          if [ "$form" = envelope ]; then
            CMD=("${PATHS[$tool]}" -r "reduce .events[] as \$e $GROUP_BY" "${files[@]}")
          else
            CMD=("${PATHS[$tool]}" -n -r "reduce inputs as \$e $GROUP_BY" "${files[@]}")
          fi
          ;;
        all) CMD=("${PATHS[$tool]}" -c "$each" "${files[@]}") ;;
      esac
      ;;
    rg)
      # An envelope as callscope writes it has one event a line (with a comma after it): rg
      # reads it as it reads NDJSON.
      local args=(--no-config --no-line-number --no-filename) files=("$src")
      [ "$form" = gz ] && args+=(--search-zip)
      [ "$form" = stdin ] && files=()
      case $work in
        select)
          # $0 is rg; the first reads the input (its options and file from $3 on), the second
          # reads the first's lines.
          # shellcheck disable=SC2016
          CMD=(bash -c '"$0" "${@:3}" -F -e "$1" | "$0" --no-config -F -e "$2"' \
            "${PATHS[rg]}" "$RG_TYPE" "$RG_ROOM" "${args[@]}" "${files[@]}")
          ;;
        search) CMD=("${PATHS[rg]}" "${args[@]}" -F -i -e "$TEXT" "${files[@]}") ;;
        *) return 1 ;;
      esac
      ;;
    duckdb | chdb)
      local shape=ndjson
      [ "$form" = envelope ] && shape=envelope
      [ "$form" = stdin ] && src=/dev/stdin
      if [ "$form" = envelope ]; then
        if [ "$tool" = duckdb ] && [ "$(stat -c %s "$ENVELOPE")" -ge 4294967295 ]; then
          WHY="duckdb reads no JSON value of 4 GiB or more"
          return 1
        fi
        fits "$tool" "$([ "$tool" = duckdb ] && echo 4 || echo 6)" || return 1
      fi
      CMD=("$PY" "$ROOT/benches/anchors.py" "$tool" "$work" "$shape" "$src" "$ROOM" "$TEXT")
      ;;
  esac
  return 0
}

# fits TOOL TIMES: whether TIMES the envelope's size fits in the memory available now; sets WHY
# if not.
fits() {
  local need avail
  need=$(($(stat -c %s "$ENVELOPE") * $2 / 1024))
  avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
  if [ "$need" -ge "$avail" ]; then
    WHY="$1 would need about $((need / 1048576)) GiB for the envelope, $((avail / 1048576)) GiB available"
    return 1
  fi
}

# --- measuring --------------------------------------------------------------------------------

# measure: RUNS runs of CMD (the last run's output stays in SINK for the checks); sets WALL to
# the median wall time (ms) and PEAK to the largest peak RSS (KiB) GNU time saw; returns 1 if a
# run failed, with its last words in WHY.
measure() {
  local walls=() peak=0 t0 t1 kb rc
  for _ in $(seq "$RUNS"); do
    rc=0
    t0=$(date +%s%N)
    if [ "${#FEED[@]}" -gt 0 ]; then
      /usr/bin/time -o "$OUT/time" -f %M "${CMD[@]}" >"$SINK" 2>"$OUT/stderr" < <("${FEED[@]}") || rc=$?
    else
      /usr/bin/time -o "$OUT/time" -f %M "${CMD[@]}" >"$SINK" 2>"$OUT/stderr" </dev/null || rc=$?
    fi
    t1=$(date +%s%N)
    if [ "$rc" != 0 ]; then
      WHY="exit status $rc: $(grep -v '^Command exited' "$OUT/stderr" | tail -n 1 | cut -c1-160)"
      return 1
    fi
    walls+=("$(((t1 - t0) / 1000000))")
    kb=$(tail -n 1 "$OUT/time")
    if [ "$kb" -gt "$peak" ]; then peak=$kb; fi
  done
  WALL=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  PEAK=$peak
}

# anon: one more, untimed run of CMD, sampling the process's RssAnon (its own memory; the pages
# of a mapped dump are the page cache's) every 10 ms; sets ANON to the largest sample (KiB).
anon() {
  local max=0 k v _unit pid
  if [ "${#FEED[@]}" -gt 0 ]; then
    "${CMD[@]}" >/dev/null 2>&1 < <("${FEED[@]}") &
  else
    "${CMD[@]}" >/dev/null 2>&1 </dev/null &
  fi
  pid=$!
  while [ -r "/proc/$pid/status" ]; do
    while read -r k v _unit; do
      if [ "$k" = RssAnon: ] && [ "$v" -gt "$max" ]; then max=$v; fi
    done <"/proc/$pid/status" 2>/dev/null || true
    sleep 0.01
    kill -0 "$pid" 2>/dev/null || break
  done
  wait "$pid" || true
  ANON=$max
}

# answer TOOL WORK FILE: the answer in a form every tool's can be compared in: the sorted ids of
# the events (callscope and rg print whole events), or the sorted counts.
answer() {
  case $1:$2 in
    callscope:group) jq -r '.[] | [.key.type, .key.error_code, .key.error_name, .count] | @tsv' "$3" ;;
    callscope:* | rg:*) sed 's/,$//' "$3" | jq -r .id ;;
    *) cat "$3" ;;
  esac | LC_ALL=C sort
}

# --- one size ---------------------------------------------------------------------------------

RESULTS="$OUT/results.tsv"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u +'%Y-%m-%d %H:%M UTC')

has_form() { [[ " $FORMS " == *" $1 "* ]]; }

# bench N: every cell on a dump of N events (or DUMP), one line each in RESULTS: size, form,
# work, tool, median ms, peak KiB, RssAnon KiB, answer lines, same, note.
bench() {
  local n=$1 form work t key reference
  if [ -n "${DUMP:-}" ]; then
    [ -r "$DUMP" ] || { echo "cannot read $DUMP" >&2; exit 2; }
    NDJSON=$(cd "$(dirname "$DUMP")" && pwd)/$(basename "$DUMP")
    local base="$DIR/$(basename "${DUMP%.*}")"
    n=$(wc -l <"$DUMP")
  else
    NDJSON="$DIR/events-$n.ndjson"
    local base="$DIR/events-$n"
  fi
  GZ="$base.ndjson.gz"
  ENVELOPE="$base.json"
  # Written under a temporary name first: an interrupted run leaves no half file to be reused.
  if [ ! -s "$NDJSON" ]; then
    echo "generating $NDJSON" >&2
    "$BIN" demo-data --events "$n" --seed 1 >"$NDJSON.part" && mv "$NDJSON.part" "$NDJSON"
  fi
  if has_form gz && { [ ! -s "$GZ" ] || [ "$GZ" -ot "$NDJSON" ]; }; then
    echo "generating $GZ" >&2
    gzip -1 -c "$NDJSON" >"$GZ.part" && mv "$GZ.part" "$GZ"
  fi
  if has_form envelope && { [ ! -s "$ENVELOPE" ] || [ "$ENVELOPE" -ot "$NDJSON" ]; }; then
    echo "generating $ENVELOPE" >&2
    "$BIN" list "$NDJSON" --format json --output "$ENVELOPE"
  fi
  SIZE_OF[$n]=$(stat -c %s "$NDJSON")
  BENCHED=$n
  : >"$RESULTS"
  rm -f "$OUT"/*.select.* "$OUT"/*.search.* "$OUT"/*.group.*
  echo "timing on $NDJSON ($((SIZE_OF[$n] / 1000000)) MB), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

  for form in $FORMS; do
    # The floor: reading the bytes (and inflating them) and nothing else.
    SINK=/dev/null FEED=()
    case $form in
      ndjson) CMD=(cat "$NDJSON") ;;
      gz) CMD=(gzip -dc "$GZ") ;;
      envelope) CMD=(cat "$ENVELOPE") ;;
      stdin) CMD=(cat) FEED=(cat "$NDJSON") ;;
    esac
    echo "  $form: ${CMD[0]} (the floor)" >&2
    measure
    printf '%s\t%s\t-\tcat\t%s\t%s\t-\t-\t-\t\n' "$n" "$form" "$WALL" "$PEAK" >>"$RESULTS"
    for work in $WORKS; do
      for t in "${AVAILABLE[@]}"; do
        key="$form.$work.$t"
        if ! command_for "$t" "$form" "$work"; then
          printf '%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t%s\n' "$n" "$form" "$work" "$t" "$WHY" >>"$RESULTS"
          continue
        fi
        echo "  $form $work: $t" >&2
        if ! measure; then
          echo "    failed, $WHY" >&2
          printf '%s\t%s\t%s\t%s\terr\t-\t-\t-\t-\t%s\n' "$n" "$form" "$work" "$t" "$WHY" >>"$RESULTS"
          continue
        fi
        ANON=-
        if [ "$t" = callscope ]; then anon; fi
        local count=- same=-
        if [ "$work" != all ]; then
          answer "$t" "$work" "$SINK" >"$OUT/$key.answer"
          count=$(wc -l <"$OUT/$key.answer")
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n' \
          "$n" "$form" "$work" "$t" "$WALL" "$PEAK" "$ANON" "$count" "$same" >>"$RESULTS"
      done
    done
  done

  # Every answer against one: jq's on the NDJSON file, the plainest reading, else the first.
  for work in $WORKS; do
    [ "$work" = all ] && continue
    reference=""
    [ -e "$OUT/ndjson.$work.jq.answer" ] && reference="$OUT/ndjson.$work.jq.answer"
    if [ -z "$reference" ]; then
      for form in $FORMS; do
        for t in "${AVAILABLE[@]}"; do
          if [ -z "$reference" ] && [ -e "$OUT/$form.$work.$t.answer" ]; then
            reference="$OUT/$form.$work.$t.answer"
          fi
        done
      done
    fi
    [ -n "$reference" ] || continue
    awk -F'\t' -v OFS='\t' -v n="$n" -v work="$work" -v dir="$OUT" -v ref="$reference" '
      $1 == n && $3 == work && $5 != "err" && $5 != "-" {
        f = dir "/" $2 "." $3 "." $4 ".answer"
        $9 = system("cmp -s \"" f "\" \"" ref "\"") == 0 ? "yes" : "NO"
      }
      { print }' "$RESULTS" >"$RESULTS.new"
    mv "$RESULTS.new" "$RESULTS"
  done
}

# --- the table --------------------------------------------------------------------------------

# table N: the table of one size, from RESULTS.
table() {
  local n=$1
  printf '\n%s events, %s MB NDJSON, %s run(s) of each, medians; %s, %s cores\n' \
    "$n" "$((SIZE_OF[$n] / 1000000))" "$RUNS" "$STARTED" "$(nproc)"
  printf '%s\n' "$(IFS=,; echo "${VERSIONS[*]}" | sed 's/,/, /g')"
  printf 'load average %s before, %s after\n\n' "$LOAD_BEFORE" "$(cut -d' ' -f1-3 /proc/loadavg)"
  local skipped=""
  [ "${#SKIPPED[@]}" -gt 0 ] && skipped=$(printf -- '- %s\\n' "${SKIPPED[@]}")
  awk -F'\t' -v n="$n" -v forms="$FORMS" -v works="$WORKS" -v tools="${AVAILABLE[*]}" \
    -v skipped="$skipped" '
    function secs(ms) { return ms == "-" || ms == "err" ? ms : sprintf("%.3f", ms / 1000) }
    function mib(kb) { return kb == "-" ? "-" : sprintf("%d", kb / 1024) }
    function ratio(a, b) {
      if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/ || b == 0) return "-"
      return sprintf(a < b ? "%.2fx" : "%.1fx", a / b)
    }
    function row(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10) {
      printf "| %-8s | %-6s | %-9s | %8s | %8s | %7s | %8s | %8s | %7s | %4s |\n",
        c1, c2, c3, c4, c5, c6, c7, c8, c9, c10
    }
    $1 == n {
      k = $2 SUBSEP $3 SUBSEP $4
      ms[k] = $5; peak[k] = $6; anon[k] = $7; count[k] = $8; same[k] = $9
      if ($10 != "") notes[++nn] = $2 " " $3 " " $4 ": " $10
      if ($4 == "cat") floor[$2] = $5
      # The best anchor: the fastest other tool whose answer is the same.
      if ($4 != "callscope" && $4 != "cat" && $5 ~ /^[0-9]+$/ && $9 != "NO") {
        b = $2 SUBSEP $3
        if (!(b in best) || $5 + 0 < best[b] + 0) { best[b] = $5; bestname[b] = $4 }
      }
    }
    END {
      row("form", "work", "tool", "s", "vs best", "vs cat", "peak MiB", "anon MiB", "answer", "same")
      print "|----------|--------|-----------|---------:|---------:|--------:|---------:|---------:|--------:|:----:|"
      nf = split(forms, F, " "); nw = split(works, W, " "); nt = split(tools, T, " ")
      for (i = 1; i <= nf; i++) {
        f = F[i]; k = f SUBSEP "-" SUBSEP "cat"
        if (!(k in ms)) continue
        row(f, "floor", f == "gz" ? "gzip -dc" : "cat", secs(ms[k]), "-", "1.0x", mib(peak[k]), "-", "-", "-")
        for (j = 1; j <= nw; j++) {
          w = W[j]; b = f SUBSEP w
          for (l = 1; l <= nt; l++) {
            k = f SUBSEP w SUBSEP T[l]
            if (!(k in ms)) continue
            row(f, w, T[l], secs(ms[k]), ratio(ms[k], best[b]), ratio(ms[k], floor[f]),
                mib(peak[k]), mib(anon[k]), count[k], same[k])
          }
        }
      }
      # Issue 30, goal 1: ahead of DuckDB and chDB in every cell, within 3x of the floor on the
      # uncompressed forms.
      for (i = 1; i <= nf; i++) for (j = 1; j <= nw; j++) {
        f = F[i]; w = W[j]; c = ms[f SUBSEP w SUBSEP "callscope"]
        if (c !~ /^[0-9]+$/) continue
        for (a = 1; a <= 2; a++) {
          name = a == 1 ? "duckdb" : "chdb"; d = ms[f SUBSEP w SUBSEP name]
          if (d !~ /^[0-9]+$/) continue
          cells++
          if (c + 0 < d + 0) ahead++
          else behind = behind sprintf("\n- behind %s on %s %s: %s s, callscope %s s",
                                       name, f, w, secs(d), secs(c))
        }
        if (f != "gz" && floor[f] > 0) {
          flat++
          if (c <= 3 * floor[f]) within++
          else over = over sprintf("\n- %s %s: %s the floor", f, w, ratio(c, floor[f]))
        }
      }
      print ""
      print "s: the median wall time. vs best: the time over the fastest other tool that gave the"
      print "same answer; vs cat: over the form\047s floor. peak MiB: the peak RSS from GNU time, of the tool"
      print "(not of the cat or gzip feeding it; of the larger rg of its select), which for callscope"
      print "counts the pages of the mapped dump it read. anon MiB: the largest RssAnon sampled every"
      print "10 ms in one more run, callscope\047s own memory. answer: the ids (or groups) given; same: the"
      print "same set as jq\047s on the NDJSON file (else the first answer); every event goes to /dev/null,"
      print "not compared. stdin: the NDJSON piped in by cat; gz: gzip -1. The anchors print ids or"
      print "counts only; jq and jaq search an event\047s whole text (tostring), DuckDB, chDB and rg its line."
      if (cells) printf "\ngoal: callscope ahead of DuckDB and chDB in %d of %d cells%s\n", ahead, cells, behind
      if (flat) printf "\ngoal: callscope within 3x of the floor in %d of %d uncompressed cells%s\n",
                       within, flat, over
      if (nn || skipped != "") print "\nnot timed:"
      if (skipped != "") printf "%s", skipped
      for (i = 1; i <= nn; i++) print "- " notes[i]
    }' "$RESULTS"
}

# growth: each tool's time and memory at each size, from the results of every size.
growth() {
  printf '\ngrowth, %s; %s\n\n' "$STARTED" "$(IFS=,; echo "${VERSIONS[*]}" | sed 's/,/, /g')"
  awk -F'\t' -v sizes="$SIZES" -v forms="$FORMS" -v works="$WORKS" -v tools="${AVAILABLE[*]}" '
    function secs(ms) { return ms ~ /^[0-9]+$/ ? sprintf("%.3f", ms / 1000) : ms }
    function mib(kb) { return kb ~ /^[0-9]+$/ ? sprintf("%d", kb / 1024) : "-" }
    { k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; ms[k] = $5; peak[k] = $6; anon[k] = $7 }
    END {
      ns = split(sizes, S, " "); nf = split(forms, F, " "); nw = split(works, W, " "); nt = split(tools, T, " ")
      head = "| form | work | tool |"; rule = "|---|---|---|"
      for (s = 1; s <= ns; s++) { head = head " s at " S[s] " |"; rule = rule "---:|" }
      for (s = 1; s <= ns; s++) { head = head " MiB at " S[s] " |"; rule = rule "---:|" }
      print head; print rule
      for (i = 1; i <= nf; i++) for (j = 0; j <= nw; j++) for (l = 0; l <= nt; l++) {
        if ((j == 0) != (l == 0)) continue
        w = j ? W[j] : "-"; t = l ? T[l] : "cat"
        line = "| " F[i] " | " (j ? w : "floor") " | " (l || F[i] != "gz" ? t : "gzip -dc") " |"; found = 0
        for (s = 1; s <= ns; s++) {
          k = S[s] SUBSEP F[i] SUBSEP w SUBSEP t
          if (k in ms) found = 1
          line = line " " (k in ms ? secs(ms[k]) : "") " |"
        }
        for (s = 1; s <= ns; s++) {
          k = S[s] SUBSEP F[i] SUBSEP w SUBSEP t
          m = mib(peak[k]); if (anon[k] ~ /^[0-9]+$/) m = m " (anon " mib(anon[k]) ")"
          line = line " " (k in ms ? m : "") " |"
        }
        if (found) print line
      }
      print ""
      print "MiB: the peak RSS from GNU time; anon: callscope\047s own memory (RssAnon sampled)."
    }' "$RESULTS"
}

declare -A SIZE_OF
if [ -n "$SIZES" ]; then
  ALL="$OUT/results-sizes.tsv"
  : >"$ALL"
  for n in $SIZES; do
    bench "$n"
    table "$n" | tee "$OUT/compare-$n.md"
    cat "$RESULTS" >>"$ALL"
  done
  RESULTS=$ALL
  growth | tee "$OUT/growth.md"
else
  bench "$N"
  table "$BENCHED" | tee "$OUT/compare-$BENCHED.md"
fi

# A callscope answer that differs from the reference fails the run.
if awk -F'\t' '$4 == "callscope" && $9 == "NO" { bad = 1 } END { exit !bad }' "$RESULTS"; then
  echo "callscope's answer differs: see the rows marked NO, and the answers in $OUT" >&2
  exit 1
fi
