"""Response times of kiwara studio through its real HTTP server (werkzeug, threaded, loopback),
as the page sees them: the validation round trip while painting (target < 50 ms) and an agent
move of greedy (target < 100 ms), plus a random board, a new game and a PDF.

Run: .venv/bin/python benchmarks/studio.py [--runs 30] [--games 3]
Prints the median and the 90th percentile of each (wall clock), the median CPU time of the
process (server thread and client together: what a request costs when the machine is busy with
other work), and the machine's load average.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import threading
import time
import urllib.request

from kiwara_designer.studio.api import Studio
from kiwara_designer.studio.server import make_studio_server

CLASSIC = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]


class Client:
    def __init__(self, url: str) -> None:
        self.base, _, query = url.partition("?")
        self.token = query.split("=", 1)[1]
        self.cpu: list[float] = []      # CPU ms of each call, in order

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[float, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path.lstrip("/"), data=data, method=method,
                                         headers={"X-Studio-Token": self.token,
                                                  "Content-Type": "application/json"})
        started, cpu = time.perf_counter(), time.process_time()
        with urllib.request.urlopen(request, timeout=300) as response:
            payload = response.read()
        self.cpu.append((time.process_time() - cpu) * 1000)
        return (time.perf_counter() - started) * 1000, payload


def painted_boards(runs: int, rng: random.Random) -> list[list[str]]:
    """The classic board with one cell repainted, as while drawing (half of them invalid)."""
    boards = []
    for _ in range(runs):
        rows = [list(r) for r in CLASSIC]
        rows[rng.randrange(5)][rng.randrange(6)] = rng.choice("ABCDEF")
        boards.append(["".join(r) for r in rows])
    return boards


def greedy_moves(client: Client, games: int, rng: random.Random) -> list[float]:
    """Round trips of POST /api/kiwara/<id>/agent over whole games against greedy."""
    times = []
    for game in range(games):
        _, raw = client.call("POST", "/api/kiwara/new", {"rows": CLASSIC, "agent": "greedy",
                                                         "seat": 0, "seed": game})
        view = json.loads(raw)
        while not view["over"]:
            if view["your_turn"]:
                move = rng.choice(view["legal"])["text"]
                _, raw = client.call("POST", f"/api/kiwara/{view['id']}/move", {"move": move})
            else:
                ms, raw = client.call("POST", f"/api/kiwara/{view['id']}/agent")
                answer = json.loads(raw)
                assert "view" in answer, "greedy's move became a job"
                times.append((ms, client.cpu[-1]))
                raw = json.dumps(answer["view"]).encode()
            view = json.loads(raw)
    return times


def report(name: str, timed: list[tuple[float, float]], target: float | None = None) -> None:
    """``timed``: (wall ms, CPU ms) of each request."""
    times = sorted(wall for wall, _ in timed)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    goal = f"  (target < {target:g} ms)" if target else ""
    print(f"{name:<38} median {statistics.median(times):7.1f} ms   p90 {p90:7.1f} ms   "
          f"CPU {statistics.median(cpu for _, cpu in timed):6.1f} ms   n {len(times)}{goal}")


def timed(client: Client, method: str, path: str, body: dict | None = None
          ) -> tuple[float, float]:
    ms, _ = client.call(method, path, body)
    return ms, client.cpu[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    backend = Studio(workers=1)
    server, url = make_studio_server("127.0.0.1", 0, backend)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    rng = random.Random(1)
    try:
        client = Client(url)
        client.call("POST", "/api/board/random", {"seed": 0})      # warm: the generator's table
        client.call("POST", "/api/board/check", {"rows": CLASSIC})
        report("validation round trip (painting)",
               [timed(client, "POST", "/api/board/check", {"rows": rows})
                for rows in painted_boards(args.runs, rng)], 50)
        report("greedy move round trip (whole games)", greedy_moves(client, args.games, rng), 100)
        report("random board (table built)",
               [timed(client, "POST", "/api/board/random", {"seed": s}) for s in range(args.runs)])
        report("new game vs greedy", [timed(client, "POST", "/api/kiwara/new",
                                            {"rows": CLASSIC, "agent": "greedy"})
                                      for _ in range(args.runs)])
        pdf = "/api/print?token=" + client.token + "&rows=" + ",".join(CLASSIC) + "&format=pdf"
        report("board PDF download", [timed(client, "GET", pdf) for _ in range(5)])
        print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} on "
              f"{os.cpu_count()} cores")
    finally:
        server.shutdown()
        server.server_close()
        backend.close()


if __name__ == "__main__":
    main()
