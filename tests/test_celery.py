"""Beyond one machine, proved on one (issue 15): the whole pipeline of two stores runs at once
with its steps executed by Celery worker processes through a real Redis broker (Debian's
redis-server, started here on a socket), and leaves the same tables as the same pipeline run
in process. The workers and the runs are separate processes sharing only the broker, Postgres
and Dagster's instance in Postgres, as pods of a cluster would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from memory_pipelines.api import Memory
from memory_pipelines.core.conversations import load_chats
from memory_pipelines.pipeline import reconstructable_job
from memory_pipelines.store.dagster_home import URL_ENV, dagster_env
from memory_pipelines.store.db import Database
from tests.conftest import LOCOMO, REPO

TURNS = 25  # two level-1 chunks and a few facts: small, every step has work
RUN = """
import json, os, sys
import dagster as dg
from memory_pipelines.pipeline import reconstructable_job
instance = dg.DagsterInstance.get()
with dg.execute_job(reconstructable_job("pipeline"), instance,
                    tags={"dagster/partition": sys.argv[1]}) as result:
    print(json.dumps({"run_id": result.run_id, "success": result.success, "pid": os.getpid()}))
"""


def _redis_server() -> str:
    path = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(path):
        pytest.fail("the Celery test needs Debian's redis-server: apt-get install -y redis-server")
    return path


@pytest.fixture(scope="module")
def cluster(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A Redis broker on a unix socket, Dagster's instance in Postgres, two Celery workers."""
    tmp = tmp_path_factory.mktemp("celery")
    sock = tmp / "redis.sock"
    redis = subprocess.Popen(
        [_redis_server(), "--port", "0", "--unixsocket", str(sock), "--save", "",
         "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(100):
        if sock.exists():
            break
        time.sleep(0.1)
    broker = f"redis+socket://{sock}"
    env = {
        **os.environ,
        **dagster_env(pg_dsn, tmp / "home"),
        "MEMORY_PG_DSN": pg_dsn,
        "MEMORY_EXECUTOR": "celery",
        "MEMORY_CELERY_BROKER": broker,
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": broker,
        "PYTHONPATH": str(REPO),
    }
    with open(tmp / "worker.log", "w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "dagster_celery.app", "worker",
             "--concurrency=2", "--prefetch-multiplier=1", "--loglevel=WARNING",
             "-n", f"memory-{os.getpid()}@%h"],
            env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=log,
        )  # fmt: skip
        try:
            yield {**env, "log": str(tmp / "worker.log")}
        finally:
            for proc in (worker, redis):
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _stores(db: Database, embedder, prefix: str, n: int) -> list[str]:
    """n stores holding the same turns (a LoCoMo conversation's first TURNS)."""
    chat = load_chats(LOCOMO)[0][0]
    names = []
    for i in range(n):
        m = Memory(f"{prefix}-{i}", db=db, embedder=embedder)
        m.write_turns(chat.external_id, chat.turns[:TURNS], embed=False)
        names.append(m.store_id)
    return names


def _tables(db: Database, store_id: str) -> dict:
    """What the pipeline left in the store, without ids or times."""
    q = {
        "items": "SELECT category, context, body, confidence, state, tags, entities, person_id"
        " FROM agent_memory_items WHERE store_id = %s ORDER BY 2, 1",
        "chunks": "SELECT level, seq, from_seq, to_seq, summary FROM chunks c JOIN chats h"
        " USING (chat_id) WHERE c.store_id = %s ORDER BY h.external_id, level, seq",
        "links": "SELECT link_type, src_kind, dst_kind, count(*) AS n FROM links"
        " WHERE store_id = %s GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        "scores": "SELECT round(salience::numeric, 2) AS s FROM item_scores WHERE store_id = %s"
        " ORDER BY 1",
        "embedded": "SELECT count(*) FILTER (WHERE embedding IS NOT NULL) AS n FROM turns"
        " WHERE store_id = %s",
    }
    with db.connection() as conn:
        return {k: [dict(r) for r in conn.execute(sql, (store_id,))] for k, sql in q.items()}  # type: ignore[call-overload]


def test_two_stores_through_celery_workers_match_an_in_process_run(
    cluster: dict[str, str], db: Database, embedder, store_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    celery_stores = _stores(db, embedder, f"{store_id}-c", 2)
    [local_store] = _stores(db, embedder, f"{store_id}-p", 1)
    env = {k: v for k, v in cluster.items() if k != "log"}
    monkeypatch.setenv(URL_ENV, env[URL_ENV])
    instance = dg.DagsterInstance.from_config(env["DAGSTER_HOME"])
    try:
        instance.add_dynamic_partitions("stores", [*celery_stores, local_store])
        # Two runs at once, each its own process, as the run launcher starts them.
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", RUN, s],
                env=env,
                cwd=REPO,
                stdout=subprocess.PIPE,
                text=True,
            )  # fmt: skip
            for s in celery_stores
        ]
        outs = [json.loads(p.communicate(timeout=540)[0].strip().splitlines()[-1]) for p in procs]
        log = Path(cluster["log"]).read_text()[-3000:]
        assert all(o["success"] for o in outs), log
        spans, step_pids = [], set()
        for o in outs:
            record = instance.get_run_record_by_id(o["run_id"])
            assert record is not None and record.start_time and record.end_time
            spans.append((record.start_time, record.end_time))
            starts = [
                e for e in instance.all_logs(o["run_id"])
                if e.dagster_event and e.dagster_event.event_type_value == "STEP_START"
            ]  # fmt: skip
            assert len(starts) >= 10
            pids = {e.dagster_event.pid for e in starts if e.dagster_event}
            assert o["pid"] not in pids  # no step ran in the run's own process
            step_pids |= pids
        assert len(step_pids) >= 2  # the two worker processes shared the steps
        (a0, a1), (b0, b1) = spans
        assert a0 < b1 and b0 < a1, "the two stores' runs overlapped"
        # The same input through the same pipeline, in process.
        with dg.execute_job(
            reconstructable_job("pipeline"), instance, tags={"dagster/partition": local_store}
        ) as local:
            assert local.success
    finally:
        instance.dispose()
    want = _tables(db, local_store)
    assert want["items"] and want["chunks"] and want["embedded"][0]["n"] == TURNS
    for c in celery_stores:
        assert _tables(db, c) == want
