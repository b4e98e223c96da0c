#!/usr/bin/env bash
# Times "load everything" of `callscope list --live` against `callscope serve` over a generated
# dataset, the server answering each request after a delay as a distant one would:
#   one cursor at a time: `--type T` for each of the five types, one run after the other;
#   one cursor per type:  no `--type`, so the five types (and any other) load side by side.
# The second also loads the few events of other types (track, recording) that the first leaves
# out, and is then checked against `callscope list` over the same file.
#
# It builds nothing: BIN names the binary (default target/release/callscope; build it with
# `cargo build --release`). Not run by CI.
#
#   EVENTS=100000 DELAY_MS=50 PAGE=100 benches/live.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/release/callscope}
EVENTS=${EVENTS:-100000}
DELAY_MS=${DELAY_MS:-50}
PAGE=${PAGE:-100}

if [[ ! -x $BIN ]]; then
    echo "live.sh: no binary at $BIN (cargo build --release, or set BIN)" >&2
    exit 2
fi

work=$(mktemp -d)
server=
cleanup() {
    if [[ -n $server ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$BIN" demo-data --events "$EVENTS" >"$work/events.ndjson"
echo "bench-token-$$" >"$work/token"
"$BIN" serve "$work/events.ndjson" --addr 127.0.0.1:0 --token-file "$work/token" \
    --delay-ms "$DELAY_MS" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
url=
for _ in $(seq 1 200); do
    url=$(sed -n 's/^listening on //p' "$work/serve.out")
    [[ -n $url ]] && break
    if ! kill -0 "$server" 2>/dev/null; then
        cat "$work/serve.err" >&2
        exit 1
    fi
    sleep 0.05
done
if [[ -z $url ]]; then
    echo "live.sh: serve did not start" >&2
    exit 1
fi

live() {
    "$BIN" list --live --base-url "$url" --token-file "$work/token" --page-size "$PAGE" \
        --format ndjson "$@"
}

now() { date +%s.%N; }

echo "$EVENTS events, $PAGE a page, each answer delayed ${DELAY_MS} ms"

start=$(now)
for type in publish subscribe join disconnected connect; do
    live --type "$type" >/dev/null
done
single=$(echo "$(now) - $start" | bc)

start=$(now)
live >/dev/null
parallel=$(echo "$(now) - $start" | bc)

printf 'one cursor at a time (5 types in turn): %8.2f s\n' "$single"
printf 'one cursor per type, side by side:      %8.2f s\n' "$parallel"
printf 'ratio:                                  %8.2f\n' "$(echo "$single / $parallel" | bc -l)"

# The same events, in the same order, as the file itself gives (not timed).
live >"$work/live.ndjson"
"$BIN" list "$work/events.ndjson" --format ndjson >"$work/file.ndjson"
if cmp -s "$work/live.ndjson" "$work/file.ndjson"; then
    echo "check: list --live gives the file's $(wc -l <"$work/file.ndjson") events byte for byte"
else
    echo "check FAILED: list --live differs from the file" >&2
    exit 1
fi
