"""`memory-pipelines console-screenshots`: a screenshot of each segment of the console, taken
in a real browser over demo data in a database of its own; and that demo data (an
organisation with two stores whose records show every state, origin and commitment status),
which the console's browser tests read too."""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from memory_pipelines.api.accounts import create_admin, sign_in
from memory_pipelines.api.keys import create_key
from memory_pipelines.api.memory import Memory
from memory_pipelines.api.organisations import assign_store, create_organisation
from memory_pipelines.core.access import ACTIONS
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.store import extraction as extraction_db
from memory_pipelines.store import items as items_db
from memory_pipelines.store import maintenance as maintenance_db
from memory_pipelines.store.db import Database

# (file, the page of Demo.pages it shows)
SHOTS = (
    ("01-stores.png", "stores"),
    ("02-store.png", "store"),
    ("03-records.png", "records"),
    ("04-record-history.png", "record_history"),
    ("05-record-derived.png", "record_derived"),
    ("06-commitments.png", "commitments"),
)


@dataclass
class Demo:
    """The demo organisation: its stores, its key, and its records' ids by name."""

    org: str
    support: str
    sales: str
    key_id: str
    ids: dict[str, int] = field(default_factory=dict)

    def pages(self) -> dict[str, str]:
        s = self.support
        return {
            "stores": "/console",
            "store": f"/console/stores/{s}",
            "records": "/console/records",
            "record_history": f"/console/stores/{s}/records/{self.ids['coffee']}",
            "record_derived": f"/console/stores/{s}/records/{self.ids['derived']}",
            "commitments": "/console/commitments",
        }


def seed_demo(db: Database, embedder: Embedder, org: str | None = None, filler: int = 0) -> Demo:
    """An organisation (new, `org` or a random id) with stores `<org>-support` and
    `<org>-sales`: records of every origin (explicit with a key, derived during a turn,
    outside), a superseded one and the record that replaced it, a contested pair, an archived
    one, a structured body, labels and metadata, commitments open, overdue, fulfilled and
    cancelled, and extraction passes; `filler` more records in sales (for paging)."""
    org = org or f"demo-{uuid.uuid4().hex[:8]}"
    create_organisation(
        db,
        org,
        ceiling=["knowledge", "memory"],
        policy=[{"effect": "permit", "actions": list(ACTIONS)}],
    )
    support, sales = f"{org}-support", f"{org}-sales"
    mem = Memory(support, db=db, embedder=embedder)
    other = Memory(sales, db=db, embedder=embedder)
    for store in (support, sales):
        assign_store(db, store, org)
    key, _ = create_key(db, org, name="support-bot", policy=[], created_by="demo")
    demo = Demo(org, support, sales, key["key_id"])
    for person in ("ana", "ben"):
        mem.add_person(person)
    mem.configure(
        decay_per_type={"half_life_days": {"preference": 30, "fact": 180, "decision": 90}}
    )
    other.configure(extraction={"enabled": False})
    ids = demo.ids

    def save(name: str, memory: Memory = mem, **item: Any) -> int:
        provenance = {k: item.pop(k) for k in list(item) if k in _PROVENANCE}
        result = memory.save({"confidence": 7, **item}, **provenance)
        if not result.saved or result.id is None:
            raise RuntimeError(f"demo record {name} was not saved: {result.skipped}")
        ids[name] = result.id
        return result.id

    save(
        "sla",
        category="fact",
        context="The support team answers every ticket within four hours on working days",
        confidence=9,
        metadata={"team": "ops", "tier": 1},
        labels=["policy", "sla"],
        key_id=demo.key_id,
    )
    save(
        "contract",
        category="fact",
        context="Acme Logistics is on the enterprise plan with 40 seats",
        body='{"plan": "enterprise", "seats": 40, "renewal": "2027-03-01"}',
        metadata={"team": "sales", "tier": 2},
        key_id=demo.key_id,
    )
    save(
        "tea",
        category="preference",
        context="Ana prefers green tea in the morning meetings",
        person="ana",
        metadata={"team": "ops"},
        labels=["personal"],
        key_id=demo.key_id,
    )
    save(
        "coffee",
        category="preference",
        context="Ana now prefers black coffee in the morning meetings",
        person="ana",
        confidence=8,
        metadata={"team": "ops"},
        labels=["personal"],
        key_id=demo.key_id,
    )
    save(
        "laptop",
        category="fact",
        context="Ben's laptop is a 2021 ThinkPad with a broken hinge",
        person="ben",
        confidence=4,
        origin="outside",
        written_by="mcp-client",
    )
    save(
        "rumour",
        category="fact",
        context="A caller said the Madrid office closes for all of August",
        confidence=3,
        origin="outside",
        written_by="mcp-client",
    )
    chat = "support-chat-ana-17"
    for text in (
        "Can we move the Porto offsite? May is too busy for the support team.",
        "June works for everyone I asked.",
        "Then let's decide: the offsite moves to the second week of June.",
    ):
        mem.write_turn(chat, text, speaker="Ana", person="ana", key_id=demo.key_id)
    save(
        "derived",
        category="decision",
        context="The Porto offsite moves to the second week of June",
        person="ana",
        confidence=6,
        chat=chat,
        turn_seq=3,
        from_seq=1,
        to_seq=3,
        model="gpt-4o-mini",
        fed_by=[ids["sla"], ids["rumour"]],
    )
    save("opens8", category="fact", context="The Lisbon office opens at 8:00 on weekdays")
    save("opens9", category="fact", context="The Lisbon office opens at 9:30 on weekdays")
    save(
        "tool",
        category="preference",
        context="Ben liked the old ticketing tool better than the new one",
        person="ben",
        confidence=3,
    )
    now = datetime.now(UTC)
    save(
        "overdue",
        category="commitment",
        context="Ana will send the signed contract to Mr Patel",
        person="ana",
        due_at=(now - timedelta(days=2)).isoformat(),
        owed_to="Mr Patel",
    )
    save(
        "venue",
        category="commitment",
        context="Ben will book the venue for the Porto offsite",
        person="ben",
        due_at=(now + timedelta(days=5)).isoformat(),
        owed_to="Carla",
    )
    save(
        "lease",
        category="commitment",
        context="The office manager will renew the Lisbon lease",
        due_at=(now - timedelta(days=9)).isoformat(),
        owed_to="Lisbon Estates",
    )
    save(
        "brochures",
        category="commitment",
        context="Ben will print the brochures for the Madrid fair",
        person="ben",
        owed_to="Marketing",
    )
    mem.fulfil(ids["lease"], actor="demo")
    mem.cancel(ids["brochures"], actor="demo")
    texts = {ids["opens8"]: "", ids["opens9"]: ""}
    with db.transaction() as conn:
        items_db.supersede(conn, support, ids["tea"], ids["coffee"], "demo")
        for i in texts:
            texts[i] = hashlib.md5(mem.get(i).context.encode()).hexdigest()  # noqa: S324
        maintenance_db.contest(
            conn,
            support,
            ids["opens8"],
            ids["opens9"],
            (texts[ids["opens8"]], texts[ids["opens9"]]),
            "two opening times for the same office",
        )
        maintenance_db.archive(conn, support, [(ids["tool"], 0.08, 120.0)], now + timedelta(1))
        counts = [(12, 0, 0, 1), (7, 4, 1, 0), (9, 6, 2, 2), (4, 9, 1, 0), (6, 11, 3, 1),
                  (3, 8, 0, 0), (5, 12, 2, 1), (2, 14, 1, 0)]  # fmt: skip
        for n, (w, c, s, d) in enumerate(counts):
            extraction_db.record_pass(
                conn, support, f"demo-run-{n}", written=w, confirmed=c, superseded=s,
                dropped_invalid=d, windows_new=3, windows_read=3, windows_applied=3,
                candidates=w + c + s + d, model_calls=3, duration_s=2.5 + n / 4,
            )  # fmt: skip
    for n in range(filler):
        kind = ("fact", "preference", "decision")[n % 3]
        save(
            f"filler-{n}",
            other,
            category=kind,
            context=f"Lead {n + 1} from the {('Porto', 'Lisbon', 'Madrid')[n % 3]} fair asked"
            f" about the tier {n % 4 + 1} pricing",
            confidence=3 + n % 8,
            metadata={"team": "sales", "tier": n % 4 + 1},
        )
    return demo


_PROVENANCE = {"chat", "turn_seq", "from_seq", "to_seq", "origin", "written_by", "key_id",
               "model", "fed_by"}  # fmt: skip


def chromium() -> str:
    path = os.environ.get("MEMORY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        raise click.ClickException(
            f"no chromium at {path}: install it with `apt-get install -y chromium`, or point "
            "MEMORY_CHROMIUM at a Chromium binary"
        )
    return path


@contextmanager
def serving(db: Database, embedder: Embedder) -> Iterator[str]:
    """The HTTP service (API and console) on a free loopback port, in a thread."""
    import uvicorn

    from memory_pipelines.service import create_app

    app = create_app(db, embedder=embedder)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise click.ClickException("the console's server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def take_screenshots(out: Path, width: int, height: int) -> list[Path]:
    """Seed the demo in a throwaway embedded Postgres, serve the console, and save a
    screenshot of each page of SHOTS into `out`."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise click.ClickException(
            "console-screenshots needs playwright: pip install 'playwright==1.65.2'"
        ) from None
    import pgserver

    from memory_pipelines.models.embedder import get_embedder

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with tempfile.TemporaryDirectory(prefix="console-shots-") as tmp:
        server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
        try:
            db = Database(str(server.get_uri()))
            embedder = get_embedder()
            click.echo("seeding the demo organisation ...", err=True)
            demo = seed_demo(db, embedder, org="acme", filler=40)
            name, password = "ana.admin", secrets.token_urlsafe(16)
            create_admin(db, demo.org, name, password=password, created_by="demo")
            session = sign_in(db, demo.org, name, password)
            if session is None:
                raise click.ClickException("the demo administrator could not sign in")
            with serving(db, embedder) as url, sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(
                    base_url=url, viewport={"width": width, "height": height}
                )
                context.add_cookies([{"name": "mp_console", "value": session.token,
                                      "domain": "127.0.0.1", "path": "/console",
                                      "httpOnly": True, "sameSite": "Lax"}])  # fmt: skip
                tab = context.new_page()
                pages = demo.pages()
                for file, key in SHOTS:
                    tab.goto(pages[key])
                    path = out / file
                    tab.screenshot(path=str(path), full_page=True)
                    saved.append(path)
                    click.echo(f"  {path}", err=True)
                browser.close()
            db.close()
        finally:
            server.cleanup()
    return saved


@click.command("console-screenshots")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("docs/console"),
    show_default=True,
    help="Folder the PNG files are written to.",
)
@click.option("--width", default=1440, show_default=True, help="Browser width in pixels.")
@click.option("--height", default=900, show_default=True, help="Browser height in pixels.")
def console_screenshots(out: Path, width: int, height: int) -> None:
    """Save a screenshot of each segment of the console (Stores, a store, Records, a record,
    Commitments), taken in Chromium over demo data in a throwaway database."""
    saved = take_screenshots(out, width, height)
    click.echo(f"saved {len(saved)} screenshots in {out}")
