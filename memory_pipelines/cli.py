"""`memory-pipelines`: the command line over the Python API."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from memory_pipelines.cli_access import keys_group, orgs_group, serve
from memory_pipelines.cli_admins import admins_group
from memory_pipelines.cli_commitments import commitments_group
from memory_pipelines.cli_eval import eval_group
from memory_pipelines.cli_jobs import feed, jobs_group
from memory_pipelines.errors import MemoryPipelinesError

DEFAULT_STORE = "default"
LOCOMO_DEV = Path(__file__).resolve().parent.parent / "benchmarks/data/locomo/locomo_dev.json"


def _print(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, default=str, ensure_ascii=False))


class _Cli(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemoryPipelinesError as exc:
            click.secho(f"error: {exc}", fg="red", err=True)
            sys.exit(2)
        except OSError as exc:  # e.g. a read-only MEMORY_HOME for the embedded server
            where = f" ({exc.filename})" if exc.filename else ""
            click.secho(f"error: {exc.strerror or exc}{where}", fg="red", err=True)
            sys.exit(2)


store_option = click.option(
    "--store", "-s", default=DEFAULT_STORE, show_default=True, help="Store (tenant) id."
)


@click.group(cls=_Cli)
def main() -> None:
    """Long-term memory for AI agents on Postgres. With no MEMORY_PG_DSN set, an embedded
    Postgres under MEMORY_HOME (default ~/.memory_pipelines) is started and reused."""


@main.command()
@store_option
def init(store: str) -> None:
    """Create or migrate the schema (harmless to repeat) and create the store."""
    from memory_pipelines.store import stores as stores_db
    from memory_pipelines.store.db import get_database
    from memory_pipelines.store.migrate import migrate

    db = get_database()
    with db.connection() as conn:
        migrate(conn)
        stores_db.ensure_store(conn, store)
        versions = [r["version"] for r in conn.execute("SELECT version FROM schema_migrations")]
    click.echo(f"schema at version {max(versions)}; store {store!r} ready")


@main.command()
@click.argument("file", type=click.Path(path_type=Path))  # read_text names a bad file
@store_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "locomo", "jsonl"]),
    default="auto",
    show_default=True,
    help="LoCoMo JSON or JSON Lines of turns (auto: by extension).",
)
def ingest(file: Path, store: str, fmt: str) -> None:
    """Ingest conversations from FILE: LoCoMo JSON, or JSON Lines with one turn per line
    ({"chat", "text", "role", "speaker", "created_at", "external_id", "trace_ref"})."""
    from memory_pipelines.api.ingest import ingest_chats
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.core.conversations import load_chats

    chats, _ = load_chats(file, fmt)  # every line checked: a bad one writes nothing
    memory = Memory(store)
    total = sum(len(c.turns) for c in chats)
    with click.progressbar(length=total, label="ingesting turns", file=sys.stderr) as bar:
        summary = ingest_chats(memory, chats, progress=bar.update)
    click.echo(summary.line())


@main.command("ingest-docs")
@click.argument("file", type=click.Path(path_type=Path))  # read_text names a bad file
@store_option
@click.option(
    "--kind",
    type=click.Choice(["basic", "email"]),
    default="basic",
    show_default=True,
    help="basic: documents; email: messages.",
)
def ingest_docs(file: Path, store: str, kind: str) -> None:
    """Add documents or emails from JSON Lines, one per line: {"id", "text" (or "body"),
    "title" (or "subject"), "sender" (or "from"), "to": [...], "created_at" (or "sent_at"),
    "person"}. Re-adding an id replaces it. All lines are added, or none."""
    from memory_pipelines.api.ingest import ingest_documents, read_documents
    from memory_pipelines.api.memory import Memory

    docs = read_documents(file, kind)  # every line checked: a bad one writes nothing
    passages = ingest_documents(Memory(store), docs)
    added = len(docs)
    click.echo(
        f"added {added} {'emails' if kind == 'email' else 'documents'}"
        f" ({passages} passages) to store {store!r}"
    )


@main.command()
@store_option
@click.option("--category", required=True, help="Slug: preference, decision, fact, lesson, ...")
@click.option("--context", "context_", required=True, help="The one-line fact.")
@click.option("--confidence", type=int, default=5, show_default=True, help="1-10.")
@click.option("--person", default=None, help="Whom it is for (default: shared).")
@click.option("--json", "extra", default=None, help="Other fields as a JSON object.")
@click.option(
    "--origin",
    type=click.Choice(["explicit", "outside"]),
    default="explicit",
    show_default=True,
    help="explicit is trusted; outside is not.",
)
@click.option("--by", "written_by", default="cli", show_default=True, help="Who writes it.")
def save(
    store: str,
    category: str,
    context_: str,
    confidence: int,
    person: str | None,
    extra: str | None,
    origin: str,
    written_by: str,
) -> None:
    """Save a memory item under the save policy; prints the result."""
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.core.records import validate_item
    from memory_pipelines.errors import ValidationError

    try:
        item: dict[str, Any] = json.loads(extra) if extra else {}
    except json.JSONDecodeError as exc:
        raise ValidationError("--json", f"not valid JSON ({exc.msg})") from None
    if not isinstance(item, dict):
        raise ValidationError("--json", "must be a JSON object of item fields")
    item.update(category=category, context=context_, confidence=confidence)
    if person:
        item["person"] = person
    validate_item(item)  # before Memory() creates the store: a bad item writes nothing
    _print(Memory(store).save(item, origin=origin, written_by=written_by))


@main.command()
@click.argument("query")
@store_option
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    default=("agent", "history"),
    show_default=True,
    help="agent (memory items) and/or history (turns, chunks).",
)
@click.option("--person", default=None, help="Recall as this person (default: shared only).")
@click.option("-k", default=10, show_default=True, help="How many hits.")
def search(query: str, store: str, scopes: tuple[str, ...], person: str | None, k: int) -> None:
    """Search a store: lexical and vector candidates, fused."""
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.api.recall import Recall

    memory = Memory(store, create=False)
    for h in Recall(store, db=memory.db).search(query, scopes, person=person, k=k):
        when = h.at.date().isoformat() if h.at else ""
        click.echo(f"{h.kind:5} {h.id:>7} {h.score:.4f} {when}  {h.text[:110]}")


@main.command()
@store_option
@click.option(
    "--state",
    type=click.Choice(["current", "superseded", "archived", "all"]),
    default="current",
    show_default=True,
)
@click.option("--category", default=None)
@click.option("--person", default=None)
@click.option("--min-confidence", type=int, default=None)
@click.option("--limit", default=50, show_default=True)
def items(
    store: str,
    state: str,
    category: str | None,
    person: str | None,
    min_confidence: int | None,
    limit: int,
) -> None:
    """List memory items with filters, newest change first."""
    from memory_pipelines.api.memory import Memory

    rows = Memory(store, create=False).items(
        state=None if state == "all" else state,
        category=category,
        person=person,
        min_confidence=min_confidence,
        limit=limit,
    )
    for r in rows:
        who = r["person_id"] or "shared"
        click.echo(
            f"{r['item_id']:>7} {r['state']:10} {r['category']:11} c{r['confidence']:<2}"
            f" {who:10} {r['context'][:90]}"
        )
    click.echo(f"{len(rows)} items")


@main.command()
@click.argument("item", type=int)
@store_option
def history(item: int, store: str) -> None:
    """Every version of ITEM, oldest first."""
    from memory_pipelines.api.memory import Memory

    for v in Memory(store, create=False).history(item):
        snap = v["snapshot"]
        click.echo(
            f"{v['changed_at']:%Y-%m-%d %H:%M} item {v['item_id']} v{v['version']}"
            f" {v['change']:10} {snap['state']:10} {snap['context']}"
        )


@main.command()
@click.argument("item", type=int)
@store_option
@click.option("--actor", required=True, help="Who deletes it (recorded).")
@click.confirmation_option(prompt="Really delete this item and its history?")
def delete(item: int, store: str, actor: str) -> None:
    """Really delete ITEM with its versions and links (audited)."""
    from memory_pipelines.api.memory import Memory

    Memory(store, create=False).delete(item, actor=actor)
    click.echo(f"deleted item {item} of store {store!r}")


@main.command()
@click.option(
    "--data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=LOCOMO_DEV,
    show_default=True,
    help="LoCoMo JSON file.",
)
@click.option("--store", "-s", default="locomo-demo", show_default=True)
def demo(data: Path, store: str) -> None:
    """The main job: ingest and embed the LoCoMo dev conversations, run extraction and dedup
    through Dagster, print the pass statistics and a recall."""
    from memory_pipelines.cli_demo import run_demo

    run_demo(data, store)


@main.command()
@click.option("--port", "-p", default=3000, show_default=True)
@click.option("--host", "-h", default="127.0.0.1", show_default=True)
def dev(port: int, host: str) -> None:
    """Start the Dagster UI and daemon on the store (embedded by default); Ctrl-C stops both."""
    from memory_pipelines.cli_dev import run_dev

    run_dev(port, host)


main.add_command(eval_group)
main.add_command(commitments_group)
main.add_command(jobs_group)
main.add_command(feed)
main.add_command(orgs_group)
main.add_command(keys_group)
main.add_command(serve)
main.add_command(admins_group)


if __name__ == "__main__":
    main()
