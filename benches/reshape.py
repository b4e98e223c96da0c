#!/usr/bin/env python3
"""Rewrites an NDJSON dump into shapes other than the demo generator's, to check that callscope's
figures hold on dumps it was not tuned on.

    python3 benches/reshape.py MODE < events.ndjson > reshaped.ndjson

MODE is one of:
  spaces  Python's default JSON: ", " and ": " between tokens, every non-ASCII character as a
          \\u escape (a third of the demo's events then hold an escape in a known field).
  sorted  every object's keys sorted, as `jq -S` writes them, without spaces, and everything but
          ASCII escaped as in `spaces`.
  mixed   the keys of each event, its data and its agent in a new random order per event; a
          build number of its own appended to each agent's sdk_version (50 values) and string
          (1,000 values), so that agents rarely repeat; every room id replaced by another, longer
          one; each error_description twice as long.
  varied  as mixed, with the keys in the generator's order: what of mixed's cost is the order.
  traces  a stack trace of its own in each event's data (3,000 letters, digits and " ./:_"),
          written first, in the generator's JSON otherwise: long values that never repeat.
The rewrite is deterministic (seeded), so that two runs give the same file.
"""
import json
import random
import sys


def main():
    mode = sys.argv[1] if len(sys.argv) == 2 else ""
    if mode not in ("spaces", "sorted", "mixed", "varied", "traces"):
        sys.exit(__doc__)
    rng = random.Random(7)
    rooms = {}

    def room(r):
        if r not in rooms:
            rooms[r] = "rm-%032x" % rng.getrandbits(128)
        return rooms[r]

    def shuffled(obj):
        if mode == "varied":
            return obj
        items = list(obj.items())
        rng.shuffle(items)
        return dict(items)

    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ./:_"
    out = sys.stdout
    for line in sys.stdin:
        e = json.loads(line)
        if mode == "traces":
            d = e.get("data")
            if isinstance(d, dict):
                trace = "".join(rng.choice(alphabet) for _ in range(3000))
                e["data"] = {"stack_trace": trace, **d}
            out.write(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n")
        elif mode == "spaces":
            out.write(json.dumps(e) + "\n")
        elif mode == "sorted":
            out.write(json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n")
        else:
            d = e.get("data")
            if isinstance(d, dict):
                if "room_id" in d:
                    d["room_id"] = room(d["room_id"])
                if isinstance(d.get("error_description"), str):
                    text = d["error_description"]
                    d["error_description"] = text + " | context: " + text[::-1]
                a = d.get("agent")
                if isinstance(a, dict):
                    a["sdk_version"] = a.get("sdk_version", "") + "-build.%d" % rng.randrange(50)
                    a["string"] = a.get("string", "") + ",build:%d" % rng.randrange(1000)
                    d["agent"] = shuffled(a)
                e["data"] = shuffled(d)
            e = shuffled(e)
            out.write(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
