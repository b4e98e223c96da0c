#!/usr/bin/env python3
"""Load and abuse of `callscope serve`, kept out of CI: run by hand, on this machine only.

Starts `callscope serve` on 127.0.0.1 over a generated dump (or a server already running, with
--url and --token), then, for --seconds, at the same time:

  - N keep-alive clients, each paging a room's events to the end and starting again;
  - slow clients that open connections and send a request head a byte at a time, or nothing;
  - clients with a bad token (each must get 401);
  - huge queries: a 200 KB query string (431 expected), a body on a GET (413 expected).

Prints a table: per kind of client, requests, requests/s, p50/p99 latency, errors (answers that
are not the one expected, and failed connections), and serve's resident memory (start, peak,
end). The normal clients' numbers are the ones to compare: the abuse must not stop them.

Standard library only. Every request goes to 127.0.0.1; every loop stops at its deadline.

    python3 benches/serve_load.py --events 200000 --clients 32 --slow 400 --seconds 30
"""

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import quote

TOKEN = "serve-load-token"


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.errors = 0
        self.requests = 0
        self.notes = {}

    def ok(self, seconds):
        with self.lock:
            self.requests += 1
            self.latencies.append(seconds)

    def error(self, why):
        with self.lock:
            self.requests += 1
            self.errors += 1
            self.notes[why] = self.notes.get(why, 0) + 1


def read_response(sock, buf):
    """One HTTP/1.1 response off a keep-alive socket: (status, body, rest of the buffer)."""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the head")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        headers[k.strip().lower()] = v.strip()
    if b"content-length" in headers:
        n = int(headers[b"content-length"])
        while len(rest) < n:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed in the body")
            rest += chunk
        return status, rest[:n], rest[n:]
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        body = b""
        while True:
            while b"\r\n" not in rest:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed in a chunk")
                rest += chunk
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            while len(rest) < size + 2:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed in a chunk")
                rest += chunk
            body += rest[:size]
            rest = rest[size + 2 :]
            if size == 0:
                return status, body, rest
    # Neither: the body runs to the end of the connection.
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return status, rest, b""
        rest += chunk


def get(host, port, path, token):
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: Bearer {token}\r\nAccept: application/json\r\n\r\n"
    ).encode()


def pager(host, port, room, deadline, stats):
    """A keep-alive client paging through the room's events, again and again."""
    sock, buf, start = None, b"", ""
    while time.monotonic() < deadline:
        try:
            if sock is None:
                sock = socket.create_connection((host, port), timeout=30)
                buf = b""
            path = f"/v2/analytics/events?room_id={room}&limit=100"
            if start:
                path += "&start=" + quote(start, safe="")
            began = time.monotonic()
            sock.sendall(get(host, port, path, TOKEN))
            status, body, buf = read_response(sock, buf)
            if status != 200:
                stats.error(f"status {status}")
                start = ""
                continue
            stats.ok(time.monotonic() - began)
            start = json.loads(body).get("next", "")
        except (OSError, ConnectionError, ValueError) as e:
            stats.error(type(e).__name__)
            if sock is not None:
                sock.close()
            sock, start = None, ""
            time.sleep(0.05)
    if sock is not None:
        sock.close()


def slow(host, port, deadline, stats, dribble):
    """A connection that sends its head a byte a second (or nothing), held until it is closed."""
    while time.monotonic() < deadline:
        try:
            sock = socket.create_connection((host, port), timeout=5)
        except OSError as e:
            stats.error(type(e).__name__)
            time.sleep(0.5)
            continue
        opened = time.monotonic()
        head = get(host, port, "/v2/analytics/events?room_id=x", TOKEN)
        try:
            sock.settimeout(1)
            for b in head if dribble else b"":
                if time.monotonic() >= deadline:
                    break
                sock.send(bytes([b]))
                time.sleep(1)
            while time.monotonic() < deadline:
                try:
                    if not sock.recv(4096):
                        break
                except socket.timeout:
                    continue
        except OSError:
            pass
        # How long the server let it hold a place: a latency of its own kind.
        stats.ok(time.monotonic() - opened)
        sock.close()


def expecting(host, port, deadline, stats, request, expected):
    """A client whose every request must get `expected` (401 for a bad token, 431, 413)."""
    while time.monotonic() < deadline:
        try:
            sock = socket.create_connection((host, port), timeout=30)
            began = time.monotonic()
            sock.sendall(request)
            status, _, _ = read_response(sock, b"")
            sock.close()
            if status == expected:
                stats.ok(time.monotonic() - began)
            else:
                stats.error(f"status {status}")
        except (OSError, ConnectionError, ValueError) as e:
            stats.error(type(e).__name__)
            time.sleep(0.05)


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))
    return values[k]


def main():
    global TOKEN
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="target/release/callscope")
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clients", type=int, default=32, help="keep-alive pagers")
    ap.add_argument("--slow", type=int, default=200, help="slow connections held at once")
    ap.add_argument("--bad-tokens", type=int, default=4)
    ap.add_argument("--huge", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--server-nofile", type=int,
                    help="the soft open-file limit serve starts under (ulimit -Sn), e.g. 1024, the common default")
    ap.add_argument("--url", help="a server already running (host:port); none is started")
    ap.add_argument("--token", default=TOKEN)
    args = ap.parse_args()
    TOKEN = args.token

    server = None
    workdir = None
    if args.url:
        host, port = args.url.rsplit(":", 1)
        port = int(port)
        pid = None
        room = None
    else:
        import tempfile

        workdir = tempfile.mkdtemp(prefix="serve-load-")
        dump = os.path.join(workdir, "events.ndjson")
        with open(dump, "wb") as f:
            subprocess.run(
                [args.binary, "demo-data", "--events", str(args.events), "--seed", str(args.seed)],
                stdout=f,
                check=True,
            )
        env = dict(os.environ, CALLSCOPE_SERVE_TOKEN=TOKEN)
        command = [args.binary, "serve", dump, "--addr", "127.0.0.1:0"]
        if args.server_nofile:
            command = ["sh", "-c", f'ulimit -Sn {args.server_nofile} && exec "$@"', "sh"] + command
        server = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        line = server.stdout.readline().decode().strip()
        host, port = line.removeprefix("listening on http://").rsplit(":", 1)
        port = int(port)
        pid = server.pid
        room = None
    # The busiest room of the dump, as the pagers' query.
    sock = socket.create_connection((host, port))
    sock.sendall(get(host, port, "/v2/rooms?limit=100", TOKEN))
    status, body, _ = read_response(sock, b"")
    sock.close()
    rooms = json.loads(body).get("data", []) if status == 200 else []
    room = rooms[0]["id"] if rooms else "x"

    kinds = {
        "pager (keep-alive)": Stats(),
        "slow head (held s)": Stats(),
        "bad token (401)": Stats(),
        "huge query (431)": Stats(),
        "body on GET (413)": Stats(),
    }
    rss_start = rss_kib(pid) if pid else None
    rss_peak = rss_start or 0
    deadline = time.monotonic() + args.seconds
    threads = []

    def spawn(target, *a):
        t = threading.Thread(target=target, args=a, daemon=True)
        t.start()
        threads.append(t)

    for k in range(args.slow):
        spawn(slow, host, port, deadline, kinds["slow head (held s)"], k % 2 == 0)
    for _ in range(args.clients):
        spawn(pager, host, port, room, deadline, kinds["pager (keep-alive)"])
    for _ in range(args.bad_tokens):
        spawn(expecting, host, port, deadline, kinds["bad token (401)"],
              get(host, port, f"/v2/analytics/events?room_id={room}", "not-the-token"), 401)
    huge = get(host, port, f"/v2/analytics/events?room_id={room}&peer_id=" + "p" * 200_000, TOKEN)
    body_on_get = get(host, port, f"/v2/analytics/events?room_id={room}", TOKEN).replace(
        b"\r\n\r\n", b"\r\nContent-Length: 1000000\r\n\r\n"
    )
    for _ in range(args.huge):
        spawn(expecting, host, port, deadline, kinds["huge query (431)"], huge, 431)
        spawn(expecting, host, port, deadline, kinds["body on GET (413)"], body_on_get, 413)
    began = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if pid:
            rss_peak = max(rss_peak, rss_kib(pid) or 0)
    for t in threads:
        t.join(timeout=15)
    elapsed = time.monotonic() - began
    rss_end = rss_kib(pid) if pid else None

    limit = f", serve started under ulimit -Sn {args.server_nofile}" if args.server_nofile else ""
    print(f"serve at {host}:{port}, {args.seconds:.0f} s, {args.clients} pagers, "
          f"{args.slow} slow connections, room {room}{limit}")
    print(f"| client | requests | requests/s | p50 ms | p99 ms | errors |")
    print(f"|---|---:|---:|---:|---:|---:|")
    for name, s in kinds.items():
        unit = 1 if "held" in name else 1000
        p50 = percentile(s.latencies, 50) * unit
        p99 = percentile(s.latencies, 99) * unit
        notes = ", ".join(f"{k}: {v}" for k, v in sorted(s.notes.items()))
        errors = f"{s.errors}" + (f" ({notes})" if notes else "")
        print(f"| {name} | {s.requests} | {s.requests / elapsed:.0f} | {p50:.1f} | {p99:.1f} | {errors} |")
    if pid:
        print(f"\nserve's RSS: {rss_start / 1024:.0f} MiB at the start, "
              f"{rss_peak / 1024:.0f} MiB at the peak, {rss_end / 1024:.0f} MiB at the end")
    if server is not None:
        server.terminate()
        server.wait(timeout=10)
    if workdir:
        import shutil

        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
