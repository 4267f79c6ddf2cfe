"""The console's Records page at scale: server time of the whole page (access, the filters, the
list with its total, the read_audit row, the template) over a store of 100,000 records and two
of 10,000 beside it (for All indexes), for every combination of the filter card's filters,
first pages and pages twenty further on; then one record's page and the Commitments page.

Server time is what the console reports in its `Server-Timing: app;dur=` header (the time until
the page's headers go, once it is rendered); the requests are made in-process (no network).
Records are written in bulk as benchmarks/records.py writes them (random vectors, no model).

Goal (issue 14): Records page p95 <= 150 ms with any combination of filters.

    .venv/bin/python benchmarks/console.py [--records 100000] [--repeat 3] [--out F] [--home DIR]
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import html
import itertools
import json
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

NEXT = re.compile(r'href="([^"]+)" rel="next"')
DEEP = 20  # pages followed before the deep page is timed


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def combos(main: str) -> list[list[tuple[str, str]]]:
    """Every combination of the filter card: index (one store, all), state, type, minimum
    confidence, a metadata row; as the query string the card sends."""
    out = []
    for index, state, type_, minimum, meta in itertools.product(
        (main, ""),
        ("current", "superseded", "archived", "all"),
        ("", "type3"),
        ("", "0.7"),
        ((), (("team", "team2"),)),
    ):
        q = [("index", index), ("state", state), ("type", type_), ("min", minimum)]
        for k, v in meta:
            q += [("mk", k), ("mv", v)]
        out.append([(k, v) for k, v in q if v and not (k == "state" and v == "current")])
    return out


def stats(xs: list[float]) -> dict[str, float] | None:
    if len(xs) < 2:
        return None
    q = statistics.quantiles(xs, n=100, method="inclusive")
    return {"n": len(xs), "p50_ms": round(q[49], 1), "p95_ms": round(q[94], 1),
            "max_ms": round(max(xs), 1)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--records", type=int, default=100_000, help="records in the main store")
    ap.add_argument("--repeat", type=int, default=3, help="runs of every combination")
    ap.add_argument("--out", type=Path, help="write the figures as JSON here too")
    ap.add_argument("--home", type=Path, help="MEMORY_HOME (default: a new temporary folder)")
    args = ap.parse_args()
    if not os.environ.get("MEMORY_PG_DSN"):
        os.environ["MEMORY_HOME"] = str(args.home or tempfile.mkdtemp(prefix="console-bench-"))

    from fastapi.testclient import TestClient
    from records import HEAVY, load  # benchmarks/records.py: the same records, written alike

    from memory_pipelines.api.accounts import create_admin, sign_in
    from memory_pipelines.api.organisations import assign_store, create_organisation
    from memory_pipelines.core.access import ACTIONS
    from memory_pipelines.service import create_app
    from memory_pipelines.store import stores as stores_db
    from memory_pipelines.store.db import get_database

    db = get_database()
    org = f"bench-{uuid.uuid4().hex[:8]}"
    policy = [{"effect": "permit", "actions": list(ACTIONS)}]
    create_organisation(db, org, ceiling=["knowledge", "memory"], policy=policy)
    stores = [f"console-{uuid.uuid4().hex[:8]}" for _ in range(3)]
    sizes = (args.records, args.records // 10, args.records // 10)
    with db.connection() as conn:
        for index in HEAVY:
            conn.execute(f"DROP INDEX IF EXISTS {index}")  # noqa: S608 - a fixed name
    t0 = time.perf_counter()
    for store, n in zip(stores, sizes, strict=True):
        with db.connection() as conn:
            stores_db.ensure_store(conn, store)
        assign_store(db, store, org)
        load(db, store, n)
    with db.connection() as conn:
        conn.execute("VACUUM ANALYZE agent_memory_items")
    log(f"loaded {sum(sizes)} records in {time.perf_counter() - t0:.1f} s")
    password = uuid.uuid4().hex
    create_admin(db, org, "bench", password=password, created_by="bench")
    session = sign_in(db, org, "bench", password)
    if session is None:
        raise SystemExit("the benchmark's administrator did not sign in")

    client = TestClient(create_app(db), base_url="http://127.0.0.1")
    client.cookies.set("mp_console", session.token, path="/console")

    def get(path: str) -> tuple[float, float, str]:
        t = time.perf_counter()
        res = client.get(path, follow_redirects=False)
        wall = (time.perf_counter() - t) * 1000
        if res.status_code != 200:
            raise SystemExit(f"{path}: {res.status_code} {res.text[:500]}")
        server = float(res.headers["server-timing"].split("dur=")[1])
        return server, wall, res.text

    get("/console/records")  # warm: templates compiled, connections open
    first: list[float] = []
    walls: list[float] = []
    deep: list[float] = []
    slowest: list[tuple[float, str]] = []
    for _ in range(args.repeat):
        for query in combos(stores[0]):
            path = "/console/records" + (f"?{urlencode(query)}" if query else "")
            server, wall, text = get(path)
            first.append(server)
            walls.append(wall)
            slowest.append((server, path))
            found = NEXT.search(text)
            for _ in range(DEEP):
                if found is None:
                    break
                _, _, text = get(html.unescape(found.group(1)))
                found = NEXT.search(text)
            if found is not None:
                server, _, _ = get(html.unescape(found.group(1)))
                deep.append(server)

    with db.connection() as conn:
        ids = [
            r["item_id"]
            for r in conn.execute(
                "SELECT item_id FROM agent_memory_items WHERE store_id = %s"
                " ORDER BY random() LIMIT 60",
                (stores[0],),
            )
        ]
    one = [get(f"/console/stores/{stores[0]}/records/{i}")[0] for i in ids]
    commitments = [get("/console/commitments")[0] for _ in range(20)]

    slowest.sort(key=lambda x: -x[0])
    report = {
        "records": dict(zip(stores, sizes, strict=True)),
        "records_page_first": stats(first),
        "records_page_wall": stats(walls),
        "records_page_deep": stats(deep),
        "record_page": stats(one),
        "commitments_page": stats(commitments),
        "slowest": [{"ms": round(ms, 1), "path": p} for ms, p in slowest[:5]],
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    f, d = report["records_page_first"] or {}, report["records_page_deep"] or {}
    print(
        f"Records page over {args.records:,} records, {len(first)} filter combinations: server"
        f" p50 {f.get('p50_ms')} ms, p95 {f.get('p95_ms')} ms (goal p95 <= 150 ms);"
        f" {DEEP + 1} pages deep p95 {d.get('p95_ms', '-')} ms"
    )


if __name__ == "__main__":
    main()
