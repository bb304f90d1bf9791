#!/usr/bin/env python3
"""Load benchmark of `gpdp serve` on loopback (docs/serve.md reports its output).

    python3 bench/serve_load.py [--cli build/gpdp] [--seconds 10] [--connections 16,64]

Makes a release of synthetic 2-D data (n = 200) on a 10 x 10 grid with its path kept (100
answered points), serves it on 127.0.0.1 (a port the server picks, rate limit, per-address
connection cap and new-point quota off: one load generator is one address), then runs wrk
(Debian package, keep-alive connections), each run bounded by --seconds:
  1. GET /v1/releases/{id}/certificate           each --connections count, 2 threads
  2. POST .../query, 1 released grid node         each --connections count (no drawing)
  3. POST .../query, 1 NEW random point           1 connection (queries to one path serialise)
then, for each --connections count, that many keep-alive clients (one thread each, a socket each)
asking for the certificate back to back for --seconds: requests per client (min, median, max),
so a starved client shows as min = 0; and, with a plain sequential client, the latency of 1-point
new queries as the number of points the path has answered grows (--levels, default k = 100, 1000,
5000, 10000; batches of new points are added between measurements), its fitted growth exponent and
the server's resident memory at the last level. (The same latency without HTTP and the path file,
old method against new in one run: build/bench_lazy_path.) Only the standard library and wrk; the server is always killed at the end.
An older server that does not know the connection limits is run with the limits it knows.
"""

import argparse
import json
import math
import pathlib
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[1]
WRK_NEW_POINT = """
math.randomseed(7)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local body = string.format('{"points": [[%.9f, %.9f]]}', math.random(), math.random())
  return wrk.format(nil, nil, nil, body)
end
"""
WRK_KNOWN_POINT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"points": [[%s, %s]]}'
"""


def make_release(cli, work):
    rng = random.Random(1)
    with open(work / "d.csv", "w") as f:
        f.write("x1,x2,y\n")
        for _ in range(200):
            f.write(f"{rng.random()},{rng.random()},{rng.uniform(-1, 1)}\n")
    subprocess.run([cli, "release", "--data", work / "d.csv", "--domain", "0:1,0:1",
                    "--kernel", "matern32", "--ell", "0.3", "--r", "3", "--threshold", "0",
                    "--delta", "1e-3", "--grid2d", "0:1:10,0:1:10", "--dataset", "bench", "--ledger", work / "l.sqlite",
                    "--keep-path", work / "p.gpdp", "--out", work / "out"],
                   check=True, capture_output=True)
    write_config(work, legacy=False)


def write_config(work, legacy):
    limits = {"rate_per_second": 0, "max_points_per_path": 100000,
              "max_points_per_request": 1000, "max_body_bytes": 1 << 20,
              "query_wait_s": 600, "threads": 16}
    if not legacy:
        limits.update({"max_connections_per_address": 1024, "new_points_per_client": 0})
    (work / "serve.json").write_text(json.dumps({
        "releases": [{"id": "bench", "release_dir": "out", "path": "p.gpdp", "data": "d.csv"}],
        "limits": limits}))


def known_node(work):
    """A grid node of the release (draws.csv's coordinates, as released)."""
    rows = (work / "out" / "draws.csv").read_text().splitlines()
    return tuple(rows[len(rows) // 2].split(",")[:2])


def start_server(cli, work, legacy=False):
    err = open(work / "serve.err", "w")
    server = subprocess.Popen([cli, "serve", "--config", work / "serve.json",
                               "--listen", "127.0.0.1:0"],
                              stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", (work / "serve.err").read_text())
        if found:
            return server, f"http://127.0.0.1:{found.group(1)}"
        time.sleep(0.05)
    server.kill()
    err = (work / "serve.err").read_text()
    if "unknown key" in err and not legacy:
        write_config(work, legacy=True)  # a server from before the connection limits
        return start_server(cli, work, legacy=True)
    sys.exit(f"gpdp serve did not start: {err}")


def wrk(url, seconds, connections, threads, script=None, work=None):
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
           "--timeout", "30s"]
    if script:
        path = work / f"script{abs(hash(script))}.lua"
        path.write_text(script)
        cmd += ["-s", str(path)]
    out = subprocess.run(cmd + [url], check=True, capture_output=True, text=True,
                         timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    pct = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": pct.get("50"), "p99": pct.get("99"),
            "non2xx": int(errors.group(1)) if errors else 0,
            "requests": int(re.search(r"(\d+) requests in", out).group(1))}


def post(base, points):
    req = urllib.request.Request(base + "/v1/releases/bench/query",
                                 data=json.dumps({"points": points}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)


def answered(base):
    with urllib.request.urlopen(base + "/v1/releases", timeout=60) as r:
        return json.load(r)[0]["points_answered"]


def keep_alive_clients(base, clients, seconds):
    """Requests answered per client: `clients` keep-alive sockets asking back to back."""
    host, port = base.split("//")[1].split(":")
    request = (f"GET /v1/releases/bench/certificate HTTP/1.1\r\nHost: {host}\r\n\r\n").encode()
    counts = [0] * clients
    end = time.monotonic() + seconds

    def one_connection(i):
        """Requests on one connection until the deadline or the server closes it."""
        try:
            s = socket.create_connection((host, int(port)), timeout=seconds + 5)
        except OSError:
            return False
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        pending = b""
        with s:
            while time.monotonic() < end:
                s.sendall(request)
                while True:
                    head = pending.find(b"\r\n\r\n")
                    if head >= 0:
                        length = int(re.search(rb"Content-Length: (\d+)", pending[:head], re.I)
                                     .group(1))
                        if len(pending) >= head + 4 + length:
                            pending = pending[head + 4 + length:]
                            break
                    try:
                        chunk = s.recv(65536)
                    except OSError:
                        return True
                    if not chunk:
                        return True
                    pending += chunk
                counts[i] += 1
        return True

    def client(i):
        # A client whose connection the server closed (max_requests_per_connection) reconnects.
        while time.monotonic() < end and one_connection(i):
            pass

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 30)
    return counts


def growth(base, levels, rng):
    rows = []
    for level in levels:
        while answered(base) < level:
            post(base, [[rng.random(), rng.random()]
                        for _ in range(min(500, level - answered(base)))])
        k = answered(base)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            post(base, [[rng.random(), rng.random()]])
            times.append(time.perf_counter() - t0)
        rows.append((k, statistics.median(times)))
    return rows


def exponent(rows):
    """Slope of log(latency) against log(k)."""
    xs = [math.log(k) for k, _ in rows]
    ys = [math.log(t) for _, t in rows]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def resident_mb(pid, field="VmRSS"):
    """The process' resident (or peak resident) memory from /proc, in MB."""
    text = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1)) / 1000


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cli", default=str(REPO / "build" / "gpdp"))
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--connections", default="16,64")
    p.add_argument("--levels", default="100,1000,5000,10000")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        make_release(a.cli, work)
        server, base = start_server(a.cli, work)
        try:
            conns = [int(c) for c in a.connections.split(",")]
            runs = []
            for c in conns:
                runs.append(("GET certificate", c, wrk(
                    base + "/v1/releases/bench/certificate", a.seconds, c, 2)))
                runs.append(("POST query, 1 released node", c, wrk(
                    base + "/v1/releases/bench/query", a.seconds, c, 2,
                    WRK_KNOWN_POINT % known_node(work), work)))
            runs.append(("POST query, 1 new point", 1, wrk(
                base + "/v1/releases/bench/query", a.seconds, 1, 1, WRK_NEW_POINT, work)))
            print("| request | connections | requests | req/s | p50 | p99 | non-2xx |")
            print("|---|---|---|---|---|---|---|")
            for name, c, r in runs:
                print(f"| {name} | {c} | {r['requests']} | {r['rps']:.0f} | {r['p50']} | "
                      f"{r['p99']} | {r['non2xx']} |")
            print()
            print("| keep-alive clients | seconds | requests answered per client: min | median | "
                  "max |")
            print("|---|---|---|---|---|")
            for c in conns:
                counts = keep_alive_clients(base, c, a.seconds)
                print(f"| {c} | {a.seconds} | {min(counts)} | {statistics.median(counts):.0f} | "
                      f"{max(counts)} |")
        finally:
            server.kill()
            server.wait(timeout=30)
        # The growth of the new-point latency on a fresh release (the runs above added points).
        fresh = work / "growth"
        fresh.mkdir()
        make_release(a.cli, fresh)
        server, base = start_server(a.cli, fresh)
        try:
            print()
            print("| points answered | median latency of a 1-point new query |")
            print("|---|---|")
            levels = [int(v) for v in a.levels.split(",")]
            rows = growth(base, levels, random.Random(3))
            for k, t in rows:
                print(f"| {k} | {t * 1000:.0f} ms |")
            print()
            print(f"growth exponent (least squares of log latency on log k): "
                  f"{exponent(rows):.2f}; server resident memory at k = {rows[-1][0]}: "
                  f"{resident_mb(server.pid):.0f} MB (peak "
                  f"{resident_mb(server.pid, 'VmHWM'):.0f} MB)")
        finally:
            server.kill()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
