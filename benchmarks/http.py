"""HTTP API benchmark: 16 concurrent clients on loopback for a fixed time per endpoint, side by
side with the same calls made in-process by 16 threads, in the same run on the same store.

The server is `memory-pipelines serve` in its own process (uvicorn; `--workers N` processes,
default one) on the same database; the clients are threads of this process, each with its own
keep-alive connection and the same API key (rate limit raised out of the way). The store holds
the LoCoMo dev chats first (`--empty` skips them). For each endpoint: requests/s, p50 and p95
latency, errors, and what HTTP + key check + audit add (goal, issue 13: at most 3 ms on p50 and
20% on p95). Search and save are the endpoints the goal is about; the records list, turns and
the store list ride along.

Search, save and the store list are also served by a bare FastAPI app (benchmarks/http_bare.py:
the same in-process calls under uvicorn, with nothing of ours around them), measured in the same
rounds: what it adds over in-process is the framework's and loopback's own cost on this machine
(`framework_p50_ms`), what the service adds beyond it is ours (`ours_p50_ms`).

An endpoint is one line of ENDPOINTS: its name, the HTTP call, the in-process call and, for
some, the bare app's call.

    .venv/bin/python benchmarks/http.py [--seconds 10] [--rounds 4] [--clients 16] [--out F]
        [--empty] [--workers 1]
"""

from __future__ import annotations

import os
import sys

# This file is named like the standard library's `http`, which it imports: put the script's
# own folder (first on sys.path when run as a script) after the standard library.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import http.client
import itertools
import json
import socket
import statistics
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from common import DATA

import memory_pipelines
from memory_pipelines.api import Memory, Recall
from memory_pipelines.api.access import admit
from memory_pipelines.api.ingest import ingest_chats
from memory_pipelines.api.keys import create_key
from memory_pipelines.api.organisations import assign_store, create_organisation
from memory_pipelines.api.records import read_page
from memory_pipelines.core.access import ACTIONS, Principal
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.core.listing import record_filters
from memory_pipelines.models.embedder import get_embedder
from memory_pipelines.store import stores as stores_db
from memory_pipelines.store.db import Database, get_database
from memory_pipelines.store.visibility import EVERYONE

IDLE = 4.0  # seconds a client's connection may idle and still be used (uvicorn keeps 5)


class Client:
    """One client: a keep-alive HTTP/1.1 connection carrying the key, on the standard library's
    http.client. The clients share the machine with the server, so what they spend is taken
    from it: httpx spent 1.2 ms of CPU a request here, this a fraction of that (a client on
    another machine would spend nothing of the server's)."""

    def __init__(self, url: str, key: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self.used = 0.0

    def request(self, method: str, path: str, body: Any = None) -> int:
        """The response's status, its body read (so the connection serves the next). A
        connection idle for longer than the server keeps one (uvicorn: 5 s) is opened anew."""
        data = None if body is None else json.dumps(body).encode()
        if time.monotonic() - self.used > IDLE:
            self.conn.close()
        try:
            self.conn.request(method, path, body=data, headers=self.headers)
            res = self.conn.getresponse()
            res.read()
            self.used = time.monotonic()
        except (OSError, http.client.HTTPException):
            self.conn.close()  # the next request opens a new connection
            raise
        return res.status

    def post(self, path: str, body: Any) -> int:
        return self.request("POST", path, body)

    def get(self, path: str, params: dict[str, Any] | None = None) -> int:
        return self.request("GET", path + (f"?{urlencode(params)}" if params else ""))

    def close(self) -> None:
        self.conn.close()


@dataclass
class Bench:
    """What the calls share: the store, its Memory, the key, and texts to write."""

    db: Database
    memory: Memory
    recall: Recall
    store: str
    key: str
    key_id: str
    principal: Principal  # the key's, as the server reads it
    texts: list[str]
    questions: list[str]
    counter: itertools.count[int] = field(default_factory=itertools.count)

    def turn(self, client: int) -> tuple[str, dict[str, Any]]:
        """A chat per client and the next text (each call writes one new turn)."""
        i = next(self.counter)
        return f"bench-{client}", {"text": self.texts[i % len(self.texts)], "speaker": "Ana"}


def _turns_http(c: Client, b: Bench, n: int) -> int:
    chat, turn = b.turn(n)
    return c.post(f"/v1/stores/{b.store}/turns", {"chat": chat, "turns": [turn]})


def _turns_direct(b: Bench, n: int) -> Any:
    chat, turn = b.turn(n)
    return b.memory.write_turns(chat, [turn], key_id=b.key_id)


def _question(b: Bench) -> str:
    return b.questions[next(b.counter) % len(b.questions)]


def _search_http(c: Client, b: Bench, n: int) -> int:
    body = {"query": _question(b), "scopes": ["agent", "history"], "k": 10}
    return c.post(f"/v1/stores/{b.store}/search", body)


def _search_direct(b: Bench, n: int) -> Any:
    return b.recall.search(_question(b), ["agent", "history"], k=10)


def _fact(b: Bench) -> dict[str, Any]:
    i = next(b.counter)
    text = b.texts[i % len(b.texts)][:200].replace("\n", " ")
    return {"category": "fact", "context": f"Noted ({i}): {text}", "confidence": 7}


def _save_http(c: Client, b: Bench, n: int) -> int:
    return c.post(f"/v1/stores/{b.store}/records", _fact(b))


def _save_direct(b: Bench, n: int) -> Any:
    return b.memory.save(_fact(b), written_by=f"key {b.key_id}", key_id=b.key_id)


def _records_http(c: Client, b: Bench, n: int) -> int:
    return c.get(f"/v1/stores/{b.store}/records", params={"state": "all", "limit": 50})


def _records_direct(b: Bench, n: int) -> Any:
    # the page the endpoint returns (records as read, who wrote them, the total), without
    # the key check and the audit row
    filters = record_filters(state="all", limit=50)
    with b.db.connection() as conn:
        return read_page(conn, b.principal, {b.store: EVERYONE}, filters)


def _stores_direct(b: Bench, n: int) -> Any:
    # the rows the endpoint reads, without the key check and the audit row it adds
    with b.db.connection() as conn:
        return stores_db.overviews(conn, [b.store])


def _search_bare(c: Client, b: Bench, n: int) -> int:
    return c.post("/search", {"query": _question(b), "scopes": ["agent", "history"], "k": 10})


@dataclass(frozen=True)
class Endpoint:
    name: str
    http: Callable[[Client, Bench, int], int]  # the status
    direct: Callable[[Bench, int], Any]
    # the same call on the bare app (benchmarks/http_bare.py): the framework's own share
    bare: Callable[[Client, Bench, int], int] | None = None


ENDPOINTS = [
    Endpoint("POST /v1/stores/{store}/search", _search_http, _search_direct, _search_bare),
    Endpoint(
        "POST /v1/stores/{store}/records",
        _save_http,
        _save_direct,
        lambda c, b, n: c.post("/records", _fact(b)),
    ),
    Endpoint("GET /v1/stores/{store}/records", _records_http, _records_direct),
    Endpoint("POST /v1/stores/{store}/turns", _turns_http, _turns_direct),
    Endpoint(
        "GET /v1/stores",
        lambda c, b, n: c.get("/v1/stores"),
        _stores_direct,
        lambda c, b, n: c.get("/stores"),
    ),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Database, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """`memory-pipelines serve` on a free port."""
    port = _free_port()
    cmd = ["-m", "memory_pipelines.cli", "serve", "--port", str(port), "--workers", str(workers)]
    return _start(db, cmd, port)


def _serve_bare(db: Database, store: str) -> tuple[subprocess.Popen[bytes], str]:
    """benchmarks/http_bare.py over `store` on a free port."""
    port = _free_port()
    return _start(
        db, [os.path.join(_HERE, "http_bare.py"), "--store", store, "--port", str(port)], port
    )


def _start(db: Database, args: list[str], port: int) -> tuple[subprocess.Popen[bytes], str]:
    # the server runs the same copy of the package as this script, on the same database
    root = os.path.dirname(os.path.dirname(os.path.abspath(memory_pipelines.__file__)))
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "MEMORY_PG_DSN": db.dsn, "PYTHONPATH": path}
    proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            if Client(url, "").get("/openapi.json") == 200:
                return proc, url
        except (OSError, http.client.HTTPException):
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the server did not answer within 120 s")


@dataclass
class Side:
    """One side's requests over all its rounds: latencies (s), errors and time spent."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    # CPU seconds spent meanwhile by this process (the in-process calls, or the HTTP clients)
    # and by the server process: where the two cores went
    here_cpu: float = 0.0
    server_cpu: float = 0.0

    def summary(self) -> dict[str, Any]:
        every = sorted(self.latencies)
        if len(every) < 2:
            return {"requests": len(every), "errors": self.errors, "rps": 0.0}
        q = statistics.quantiles(every, n=100, method="inclusive")
        return {
            "requests": len(every),
            "errors": self.errors,
            "rps": round(len(every) / self.seconds, 1),
            "p50_ms": round(q[49] * 1000, 2),
            "p95_ms": round(q[94] * 1000, 2),
            "cpu_ms_per_request_here": round(1000 * self.here_cpu / len(every), 2),
            "cpu_ms_per_request_server": round(1000 * self.server_cpu / len(every), 2),
        }


def _cpu(pid: int) -> float:
    """CPU seconds a process and its live children (uvicorn's workers) have used (user +
    system; Linux's /proc, else 0)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(_cpu(c) for c in children)


def _run(clients: int, seconds: float, call: Callable[[int], int], into: Side, server: int) -> None:
    """`clients` threads calling `call(client)` (returns a status) until `seconds` pass;
    `server` is the server's process id."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def worker(i: int) -> None:
        start.wait()
        while (t0 := time.perf_counter()) < stop_at[0]:
            try:
                ok = call(i) < 300
            except Exception:
                ok = False
            latencies[i].append(time.perf_counter() - t0)
            errors[i] += not ok

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    stop_at[0] = time.perf_counter() + seconds
    began, here, there = time.perf_counter(), time.process_time(), _cpu(server)
    start.wait()
    for t in threads:
        t.join()
    into.seconds += time.perf_counter() - began
    into.here_cpu += time.process_time() - here
    into.server_cpu += _cpu(server) - there
    into.latencies.extend(x for lat in latencies for x in lat)
    into.errors += sum(errors)


def _settle(db: Database) -> None:
    """What a bulk ingest leaves behind done before anything is measured: dead rows vacuumed,
    statistics fresh, dirty pages written. Otherwise autovacuum and the checkpointer work
    during whichever side is measured first."""
    with db.connection() as conn:
        conn.execute("VACUUM (ANALYZE) turns, agent_memory_items, chunks, chats")
        conn.execute("CHECKPOINT")


def _bench(db: Database, empty: bool) -> Bench:
    org = f"bench-{uuid.uuid4().hex[:8]}"
    create_organisation(db, org, ceiling=["knowledge", "memory"], policy=_all())
    store = f"bench-http-{uuid.uuid4().hex[:8]}"
    embedder = get_embedder()
    memory = Memory(store, db=db, embedder=embedder)
    with db.connection() as conn:
        stores_db.ensure_store(conn, store)
    assign_store(db, store, org)
    chats, samples = load_chats(DATA)
    if not empty:
        ingest_chats(memory, chats)
    row, key = create_key(
        db, org, policy=_all(), rate_per_minute=1_000_000, rate_burst=1_000_000, created_by="bench"
    )
    texts = [t["text"] for c in chats for t in c.turns if t["text"].strip()]
    questions = [q["question"] for s in samples for q in s.get("qa", []) if q.get("question")]
    recall = Recall(store, db=db, embedder=embedder)
    principal, _ = admit(db, key, store)
    if principal is None:
        raise RuntimeError("the benchmark's own key was refused")
    return Bench(
        db, memory, recall, store, key, row["key_id"], principal, texts, questions or texts
    )


def _all() -> list[dict[str, Any]]:
    return [{"effect": "permit", "actions": list(ACTIONS)}]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=10.0, help="per endpoint and side")
    ap.add_argument(
        "--rounds", type=int, default=4, help="alternations of the two sides per endpoint"
    )
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--out", default=None, help="write the results as JSON to this file")
    ap.add_argument("--empty", action="store_true", help="do not load the LoCoMo chats first")
    ap.add_argument("--workers", type=int, default=1, help="server processes (`serve --workers`)")
    args = ap.parse_args()

    db = get_database()
    b = _bench(db, args.empty)
    _settle(db)
    proc, url = _serve(db, args.workers)
    bare_proc, bare_url = _serve_bare(db, b.store)
    clients = [Client(url, b.key) for _ in range(args.clients)]
    bare_clients = [Client(bare_url, "") for _ in range(args.clients)]
    results: dict[str, Any] = {}
    try:
        for ep in ENDPOINTS:
            for c, bc in zip(clients, bare_clients, strict=True):  # warm up: every worker's
                # embedder, connections, pool
                if (status := ep.http(c, b, 0)) >= 300:
                    raise RuntimeError(f"{ep.name} answered {status} while warming up")
                if ep.bare and (status := ep.bare(bc, b, 0)) >= 300:
                    raise RuntimeError(f"the bare app answered {status} while warming up")
            ep.direct(b, 0)
            # The sides in rotating rounds, so a slower moment of the machine (this kind pages
            # out idle memory, and neighbours share it) falls on each alike.
            inproc, over_http, bare = Side(), Side(), Side()
            sides = [
                (inproc, lambda i, ep=ep: (ep.direct(b, i), 200)[1], proc.pid),
                (over_http, lambda i, ep=ep: ep.http(clients[i], b, i), proc.pid),
            ]
            if ep.bare:
                call = ep.bare
                sides.append(
                    (bare, lambda i, call=call: call(bare_clients[i], b, i), bare_proc.pid)
                )
            for r in range(args.rounds):
                turn = r % len(sides)
                for side, fn, pid in sides[turn:] + sides[:turn]:
                    _run(args.clients, args.seconds / args.rounds, fn, side, pid)
            here, there = inproc.summary(), over_http.summary()
            row: dict[str, Any] = {"in_process": here, "http": there}
            if "p50_ms" in here and "p50_ms" in there:
                row["added_p50_ms"] = round(there["p50_ms"] - here["p50_ms"], 2)
                row["added_p95_pct"] = round(100 * (there["p95_ms"] / here["p95_ms"] - 1), 1)
            floor = bare.summary()
            if ep.bare and "p50_ms" in floor and "p50_ms" in here:
                # what a bare FastAPI app adds to the same call, and what ours adds beyond it
                row["bare_http"] = floor
                row["framework_p50_ms"] = round(floor["p50_ms"] - here["p50_ms"], 2)
                row["framework_p95_pct"] = round(100 * (floor["p95_ms"] / here["p95_ms"] - 1), 1)
                if "p50_ms" in there:
                    row["ours_p50_ms"] = round(there["p50_ms"] - floor["p50_ms"], 2)
            results[ep.name] = row
    finally:
        for c in clients + bare_clients:
            c.close()
        for p in (proc, bare_proc):
            p.terminate()
            p.wait(timeout=30)

    out = {
        "clients": args.clients,
        "workers": args.workers,
        "seconds": args.seconds,
        "rounds": args.rounds,
        "store": b.store,
        "store_turns": not args.empty,
        "endpoints": results,
    }
    print(json.dumps(out, indent=2))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=2)
    print(
        "http vs in-process, "
        + "; ".join(
            f"{name}: {r['http'].get('rps')} vs {r['in_process'].get('rps')} req/s, "
            f"p50 +{r.get('added_p50_ms')} ms, p95 +{r.get('added_p95_pct')}%, CPU a request "
            f"{r['in_process'].get('cpu_ms_per_request_here')} ms in-process vs "
            f"{r['http'].get('cpu_ms_per_request_server')} ms server + "
            f"{r['http'].get('cpu_ms_per_request_here')} ms clients"
            + (
                f"; a bare FastAPI app adds p50 +{r['framework_p50_ms']} ms, p95"
                f" +{r['framework_p95_pct']}% ({r['bare_http'].get('cpu_ms_per_request_server')}"
                f" ms server CPU a request), ours p50 +{r.get('ours_p50_ms')} ms beyond it"
                if "framework_p50_ms" in r
                else ""
            )
            for name, r in results.items()
        )
        + " (goal: p50 +3 ms, p95 +20%)"
    )


if __name__ == "__main__":
    main()
