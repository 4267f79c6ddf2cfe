"""Recall at scale: one store grown to 10k, 100k and 1M turns (plus an item per ten turns),
built from LoCoMo text with real-shaped vectors, searched with the LoCoMo dev questions.

The six LoCoMo dev conversations and their observations are embedded once (cached in the
temporary folder); every further copy of a conversation gets its turns' and observations'
vectors moved a little off the real ones (unit Gaussian noise of norm NOISE, renormalised), so
the store has the shape of real embeddings without the model in the loop. The first copy keeps
the real vectors, so every question's evidence is in the store. Rows go in by binary COPY with
the heavy indexes (HNSW, BM25, GIN) dropped and rebuilt after each size, from their own
definitions.

For each size it prints search p50/p95 (Recall.search, all scopes, k=10, including the query
embedding) and the embedding's p50 alone; the cost of writing turns (write_turns of 100 and a
single write_turn against embedding the same texts); and at the end the LoCoMo dev figures
(the retrieval evaluation, full pipeline) with the same search, in the same database.

    .venv/bin/python benchmarks/scale.py [--sizes 10000,100000,1000000] [--out F]
        [--queries 200] [--home DIR] [--no-locomo]

It runs its own embedded server under --home (default: a new temporary folder), or on
MEMORY_PG_DSN when set: give it a scratch database there, since it drops and rebuilds indexes.
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py (the name issue 13 gives it) would shadow the standard library's `http`,
# which httpx imports: this folder goes after the standard library on sys.path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE] + [_HERE]

import argparse
import json
import random
import re
import struct
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data/locomo/locomo_dev.json"
STORE = "scale"
NOISE = 0.35  # norm of the noise added to a copy's vectors: cosine to the real one ~0.94
K = 10
HEAVY = ("hnsw", "bm25", "gin")  # index methods dropped while rows are copied in
PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--queries", type=int, default=200, help="questions searched per size")
    ap.add_argument("--home", type=Path, help="MEMORY_HOME (default: a new temporary folder)")
    ap.add_argument("--no-locomo", action="store_true", help="skip the LoCoMo evaluation")
    args = ap.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    if not os.environ.get("MEMORY_PG_DSN"):
        home = args.home or Path(tempfile.mkdtemp(prefix="scale-bench-"))
        os.environ["MEMORY_HOME"] = str(home)
    home = Path(os.environ.get("MEMORY_HOME") or tempfile.mkdtemp(prefix="scale-bench-"))
    log(f"home {home}")

    from memory_pipelines.api import Memory, Recall
    from memory_pipelines.core.conversations import load_chats
    from memory_pipelines.models.embedder import get_embedder
    from memory_pipelines.store.db import get_database

    embedder = get_embedder()
    db = get_database()
    chats, samples = load_chats(DATA, "locomo")
    base = Base(chats, samples, embedder, home)
    memory = Memory(STORE, db=db, embedder=embedder)
    recall = Recall(STORE, db=db, embedder=embedder)
    questions, warm = sample_questions(samples, args.queries)
    builder = Builder(db, base)
    report: dict[str, Any] = {"sizes": {}, "build_seconds": {}, "writes": {}}
    started = time.perf_counter()
    for size in [1000, *[s for s in sizes if s != 1000]]:
        if builder.turns > size:  # a store kept from an earlier run is past this size
            continue
        t0 = time.perf_counter()
        builder.grow_to(size)
        report["build_seconds"][str(size)] = round(time.perf_counter() - t0, 1)
        if size in sizes:
            report["sizes"][str(size)] = latency(recall, embedder, questions, warm)
            log(f"{size} turns: {report['sizes'][str(size)]}")
        report["writes"][str(size)] = writes(memory, embedder, base, size)
        log(f"{size} turns, writes: {report['writes'][str(size)]}")
    report["build_seconds"]["total"] = round(time.perf_counter() - started, 1)
    report["rows"] = builder.row_sizes()
    if not args.no_locomo:
        from memory_pipelines.evals.locomo import evaluate

        ev = evaluate(db, embedder, DATA, log=log)
        report["locomo"] = {
            "headline": ev["headline"],
            "multi_hop": ev["by_category"]["1"],
            "latency_ms": ev["latency_ms"],
        }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    summary(report)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class Base:
    """The LoCoMo dev turns and observations with their vectors (embedded once, cached)."""

    def __init__(self, chats: list, samples: list, embedder: Any, home: Path) -> None:
        from memory_pipelines.api.turns import embedding_text

        self.convs: list[list[dict[str, Any]]] = [c.turns for c in chats]
        self.speakers = [c.title.split(" & ") for c in chats]
        # Observations as items: (text, dia_id of its evidence) per conversation.
        self.facts: list[list[tuple[str, str]]] = []
        for s in samples:
            facts = []
            for _, by_person in sorted(s.get("observation", {}).items()):
                for person_facts in by_person.values():
                    for text, *ev in person_facts:
                        facts.append((str(text), str(ev[0]) if ev else ""))
            self.facts.append(facts)
        cache = Path(tempfile.gettempdir()) / f"memory-pipelines-scale-{embedder.model_name}.npz"
        if cache.exists():
            got = np.load(cache)
            self.turn_vecs, self.fact_vecs = list(got["t"]), list(got["f"])
        else:
            t0 = time.perf_counter()
            texts = [embedding_text(t.get("speaker", ""), t["text"]) for c in self.convs for t in c]
            facts_flat = [f for fs in self.facts for f, _ in fs]
            self.turn_vecs = list(embedder.embed(texts))
            self.fact_vecs = list(embedder.embed(facts_flat))
            np.savez(cache, t=np.stack(self.turn_vecs), f=np.stack(self.fact_vecs))
            log(
                f"embedded {len(texts)} turns and {len(facts_flat)} observations once in "
                f"{time.perf_counter() - t0:.0f} s"
            )
        # per conversation: offsets into the flat vector lists
        self.turn_at = np.cumsum([0, *[len(c) for c in self.convs]])
        self.fact_at = np.cumsum([0, *[len(f) for f in self.facts]])


class Builder:
    """Grows store STORE by whole copies of conversations (the last one cut to size)."""

    def __init__(self, db: Any, base: Base) -> None:
        from memory_pipelines.api import Memory

        self.db, self.base = db, base
        Memory(STORE, db=db)  # creates the store
        self.rng = np.random.default_rng(7)
        with db.connection() as conn:
            self.tsv = self._base_tsv(conn)
            # a store built by an earlier run with the same --home goes on from where it is
            row = conn.execute(
                "SELECT count(DISTINCT c.chat_id) AS copies, count(t.turn_id) AS turns"
                " FROM chats c LEFT JOIN turns t USING (chat_id)"
                " WHERE c.store_id = %s AND c.external_id LIKE 'c%%-copy%%'",
                (STORE,),
            ).fetchone()
        self.turns, self.copies = int(row["turns"]), int(row["copies"])

    def _base_tsv(self, conn: Any) -> list[list[tuple[bytes, float]]]:
        """Each base turn's tsvector (binary) and doc_len, as store/turns.py writes them."""
        from psycopg import sql

        from memory_pipelines.store.turns import _POSITIONS, PREV_WEIGHT

        out = []
        for conv in self.base.convs:
            own = [f"{t.get('speaker', '')} {t['text']}" for t in conv]
            prev = ["", *[t["text"] for t in conv[:-1]]]
            rows = (
                conn.cursor(binary=True)
                .execute(
                    sql.SQL(
                        "SELECT setweight(own, 'A') || setweight(prev, 'B') AS tsv,"
                        " ({} + {} * {})::real AS dl"
                        " FROM (SELECT i, to_tsvector('english', o) AS own,"
                        " to_tsvector('english', p) AS prev"
                        " FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS u(o, p, i)) AS w"
                        " ORDER BY i"
                    ).format(
                        sql.SQL(_POSITIONS.format("own")),
                        sql.Literal(PREV_WEIGHT),
                        sql.SQL(_POSITIONS.format("prev")),
                    ),
                    (own, prev),
                )
                .fetchall()
            )
            out.append([(bytes(r["tsv"]), float(r["dl"])) for r in rows])
        return out

    def grow_to(self, size: int) -> None:
        if size <= self.turns:
            return
        with self.db.connection() as conn:
            conn.execute("SET maintenance_work_mem = '3GB'")
            conn.execute("SET max_parallel_maintenance_workers = 2")
            dropped = self._drop_heavy(conn)
            t0 = time.perf_counter()
            while self.turns < size:
                self._copy_conversation(conn, size - self.turns)
            log(f"copied up to {self.turns} turns in {time.perf_counter() - t0:.0f} s")
            for name, ddl in dropped:
                t0 = time.perf_counter()
                conn.execute(ddl)
                log(f"  index {name} built in {time.perf_counter() - t0:.0f} s")
            t0 = time.perf_counter()
            conn.execute("VACUUM ANALYZE turns")
            conn.execute("VACUUM ANALYZE agent_memory_items")
            conn.execute("VACUUM ANALYZE chats")
            log(f"  vacuum analyze {time.perf_counter() - t0:.0f} s")

    def _drop_heavy(self, conn: Any) -> list[tuple[str, str]]:
        rows = conn.execute(
            "SELECT i.indexname, pg_get_indexdef(c.oid) AS ddl, am.amname FROM pg_indexes i"
            " JOIN pg_class c ON c.relname = i.indexname JOIN pg_am am ON am.oid = c.relam"
            " WHERE i.tablename IN ('turns', 'agent_memory_items') AND am.amname = ANY(%s)",
            (list(HEAVY),),
        ).fetchall()
        for r in rows:
            conn.execute(f'DROP INDEX "{r["indexname"]}"')
        return [(r["indexname"], r["ddl"]) for r in rows]

    def _copy_conversation(self, conn: Any, room: int) -> None:
        """One more copy of the next conversation (at most `room` of its turns), and its
        items, one per ten turns."""
        b = self.base
        c = self.copies % len(b.convs)
        r = self.copies // len(b.convs)
        self.copies += 1
        conv = b.convs[c][:room]
        shift = timedelta(days=30 * r)
        row = conn.execute(
            "INSERT INTO chats (store_id, external_id, title, next_seq) VALUES (%s, %s, %s, %s)"
            " RETURNING chat_id",
            (STORE, f"c{c}-copy{r}", " & ".join(b.speakers[c]), len(conv) + 1),
        ).fetchone()
        chat_id = int(row["chat_id"])
        vecs = self._vectors(np.stack(b.turn_vecs[b.turn_at[c] : b.turn_at[c] + len(conv)]), r)
        out = _Copy()
        for i, t in enumerate(conv):
            tsv, dl = self.tsv[c][i]
            out.row(
                [
                    _text(STORE),
                    struct.pack(">q", chat_id),
                    struct.pack(">i", i + 1),
                    _time(t["created_at"] + shift),
                    _text(t.get("role", "user")),
                    _text(t.get("speaker", "")),
                    _text(t["text"]),
                    _vector(vecs[i]),
                    tsv,
                    struct.pack(">f", dl),
                ]
            )
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY turns (store_id, chat_id, seq, created_at, role, speaker, text, embedding,"
                " tsv, doc_len) FROM STDIN WITH (FORMAT BINARY)"
            ) as cp,
        ):
            cp.write(out.done())
        self.turns += len(conv)
        self._copy_items(conn, c, r, chat_id, conv, shift)

    def _copy_items(
        self, conn: Any, c: int, r: int, chat_id: int, conv: list, shift: timedelta
    ) -> None:
        b = self.base
        facts = b.facts[c]
        n = len(conv) // 10
        if not facts or n == 0:
            return
        seq_of = {t.get("external_id"): i + 1 for i, t in enumerate(conv)}
        picks = [(j + r * n) % len(facts) for j in range(n)]
        vecs = self._vectors(np.stack([b.fact_vecs[b.fact_at[c] + j] for j in picks]), r)
        out = _Copy()
        for v, j in zip(vecs, picks, strict=True):
            text, dia = facts[j]
            seq = seq_of.get(dia)
            names = [w for w in b.speakers[c] if w and w in text]
            at = conv[(seq or 1) - 1]["created_at"] + shift
            out.row(
                [
                    _text(STORE),
                    _text("fact"),
                    _text(text),
                    struct.pack(">h", 7),
                    _text("derived"),
                    struct.pack(">?", True),
                    _text_array(names),
                    _time(at),
                    struct.pack(">q", chat_id) if seq else None,
                    struct.pack(">i", seq) if seq else None,
                    struct.pack(">i", seq) if seq else None,
                    _vector(v),
                ]
            )
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY agent_memory_items (store_id, category, context, confidence, origin, trusted,"
                " entities, valid_from, chat_id, from_seq, to_seq, embedding)"
                " FROM STDIN WITH (FORMAT BINARY)"
            ) as cp,
        ):
            cp.write(out.done())

    def _vectors(self, real: np.ndarray, copy: int) -> np.ndarray:
        if copy == 0:
            return real.astype(np.float32)
        noise = self.rng.standard_normal(real.shape).astype(np.float32)
        noise *= NOISE / np.linalg.norm(noise, axis=1, keepdims=True)
        moved = real + noise
        return (moved / np.linalg.norm(moved, axis=1, keepdims=True)).astype(np.float32)

    def row_sizes(self) -> dict[str, Any]:
        """Average row bytes, and how many vectors live out of line (TOAST), per table."""
        out: dict[str, Any] = {}
        with self.db.connection() as conn:
            for table in ("turns", "agent_memory_items"):
                r = conn.execute(
                    f"SELECT avg(pg_column_size(t.*))::int AS row_bytes,"  # noqa: S608
                    f" count(*) FILTER (WHERE pg_column_toast_chunk_id(embedding) IS NOT NULL)"
                    f" AS vectors_toasted, count(*) AS n,"
                    f" pg_size_pretty(pg_table_size('{table}')) AS heap"
                    f" FROM (SELECT * FROM {table} TABLESAMPLE SYSTEM (2)) t"
                ).fetchone()
                out[table] = dict(r)
        return out


class _Copy:
    """A binary COPY stream built by hand (psycopg has no dumper for tsvector)."""

    def __init__(self) -> None:
        self.parts = [b"PGCOPY\n\xff\r\n\x00", struct.pack(">ii", 0, 0)]

    def row(self, fields: list[bytes | None]) -> None:
        self.parts.append(struct.pack(">h", len(fields)))
        for f in fields:
            if f is None:
                self.parts.append(struct.pack(">i", -1))
            else:
                self.parts.append(struct.pack(">i", len(f)))
                self.parts.append(f)

    def done(self) -> bytes:
        return b"".join([*self.parts, struct.pack(">h", -1)])


def _text(s: str) -> bytes:
    return s.encode()


def _time(dt: datetime) -> bytes:
    return struct.pack(">q", int((dt - PG_EPOCH) / timedelta(microseconds=1)))


def _vector(v: np.ndarray) -> bytes:
    return struct.pack(">hh", len(v), 0) + np.asarray(v, dtype=">f4").tobytes()


def _text_array(items: list[str]) -> bytes:
    # ndim, has-null, element type oid (text = 25), then dims and elements
    if not items:
        return struct.pack(">iii", 0, 0, 25)
    out = [struct.pack(">iiiii", 1, 0, 25, len(items), 1)]
    for s in items:
        raw = s.encode()
        out.append(struct.pack(">i", len(raw)) + raw)
    return b"".join(out)


def sample_questions(samples: list, n: int) -> tuple[list[str], list[str]]:
    """n questions to measure, and up to WARM others (none of them) to warm up with."""
    qs = [qa["question"] for s in samples for qa in s["qa"] if str(qa.get("category")) in "1234"]
    random.Random(11).shuffle(qs)
    return qs[:n], qs[n : n + WARM]


# Questions searched before measuring, none of them measured: a server that has been answering
# holds the hot part of its indexes (HNSW upper layers, BM25 postings) in shared buffers, while
# each measured question still reads the pages only it needs.
WARM = 100


def latency(recall: Any, embedder: Any, questions: list[str], warm: list[str]) -> dict[str, float]:
    from memory_pipelines.api.recall import ALL_SCOPES

    for q in warm:
        recall.search(q, ALL_SCOPES, k=K)
    total, embed = [], []
    for q in questions:
        t0 = time.perf_counter()
        embedder.embed_query(q)
        embed.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        recall.search(q, ALL_SCOPES, k=K)
        total.append((time.perf_counter() - t0) * 1000)
    return {
        "p50_ms": round(float(np.percentile(total, 50)), 1),
        "p95_ms": round(float(np.percentile(total, 95)), 1),
        "embed_p50_ms": round(float(np.percentile(embed, 50)), 1),
    }


def writes(memory: Any, embedder: Any, base: Base, size: int) -> dict[str, float]:
    """write_turns of 100 turns against embedding them alone (the same call the write path
    makes), and a single write_turn against embedding its text; medians of a few rounds."""
    from memory_pipelines.api.turns import embed_turns

    turns = [t for c in base.convs for t in c]
    rng = random.Random(size)
    batch_ms, embed_ms, one_ms, one_embed_ms = [], [], [], []
    for round_ in range(3):
        batch = rng.sample(turns, 100)
        pairs = [(t.get("speaker", ""), t["text"]) for t in batch]
        t0 = time.perf_counter()
        embed_turns(embedder, pairs)
        embed_ms.append((time.perf_counter() - t0) * 1000)
        rows = [{"text": t["text"], "speaker": t.get("speaker", "")} for t in batch]
        t0 = time.perf_counter()
        memory.write_turns(f"writes-{size}-{round_}", rows)
        batch_ms.append((time.perf_counter() - t0) * 1000)
        for t in batch[:10]:
            t0 = time.perf_counter()
            embed_turns(embedder, [(t.get("speaker", ""), t["text"])])
            one_embed_ms.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            memory.write_turn(f"writes-one-{size}", t["text"], speaker=t.get("speaker", ""))
            one_ms.append((time.perf_counter() - t0) * 1000)
    med = lambda xs: round(float(np.median(xs)), 1)  # noqa: E731
    return {
        "write_turns_100_ms": med(batch_ms),
        "embed_100_ms": med(embed_ms),
        "ratio_100": round(med(batch_ms) / med(embed_ms), 2),
        "write_turn_ms": med(one_ms),
        "embed_one_ms": med(one_embed_ms),
        "ratio_one": round(med(one_ms) / med(one_embed_ms), 2),
    }


def summary(report: dict[str, Any]) -> None:
    for size, s in report["sizes"].items():
        w = report["writes"].get(size, {})
        log(
            f"{int(size):>9,} turns: search p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms "
            f"(query embedding p50 {s['embed_p50_ms']} ms); write_turns(100) "
            f"{w.get('ratio_100')}x embedding, write_turn {w.get('ratio_one')}x"
        )
    if "locomo" in report:
        h = report["locomo"]["headline"]
        log(
            f"LoCoMo dev: R@10 {h['recall@10']} MRR {h['mrr']} multi-hop R@10 "
            f"{report['locomo']['multi_hop']['recall@10']}"
        )
    log(f"build seconds: {report['build_seconds']}")


if __name__ == "__main__":
    if re.search(r"(^|/)benchmarks$", str(Path.cwd())):
        sys.path.insert(0, str(Path.cwd().parent))
    main()
