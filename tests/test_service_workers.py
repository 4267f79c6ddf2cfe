"""`memory-pipelines serve --workers N`: several server processes on one port, each answering
with the same keys, the same rate limit and the same audit (all of it lives in Postgres)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from memory_pipelines.store.db import Database
from tests.api_server import tenant

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    """The server processes uvicorn's supervisor spawned (not its resource tracker)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        pids = [int(c) for c in f.read().split()]
    return [c for c in pids if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
def test_two_workers_share_keys_rate_limit_and_audit(db: Database, pg_dsn: str) -> None:
    t = tenant(db, rate_per_minute=60, rate_burst=6)
    port = _free_port()
    env = {**os.environ, "MEMORY_PG_DSN": pg_dsn, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "memory_pipelines.cli", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--workers", "2"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while len(_children(proc.pid)) < 2 or not _answers(url):
            assert proc.poll() is None, f"serve exited with {proc.returncode}"
            assert time.monotonic() < deadline, "two workers did not come up within 90 s"
            time.sleep(0.3)
        workers = _children(proc.pid)
        assert len(workers) == 2
        # A new connection per request, which either worker may accept: the burst of 6 is one
        # budget for the key whichever process counts it (a count kept per process would let
        # up to 12 through).
        statuses = []
        for _ in range(12):
            with httpx.Client(base_url=url, timeout=30) as c:
                statuses.append(c.get("/v1/stores", headers=t.auth()).status_code)
        assert statuses.count(200) in (6, 7)  # one more may drip in at a request a second
        assert set(statuses) == {200, 429}
        assert httpx.get(f"{url}/v1/stores", headers=t.auth("mp_nope")).status_code == 401
        with db.connection() as conn:
            audited = conn.execute(
                "SELECT count(*) AS n FROM read_audit WHERE key_id = %s", (t.key_id,)
            ).fetchone()
        assert audited is not None and audited["n"] == statuses.count(200)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or _zombie(pid)


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/openapi.json", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
