"""`memory-pipelines`: the command line over the Python API."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
import psycopg
from pydantic import BaseModel
from tqdm import tqdm

from memory_pipelines.cli_access import keys_group, orgs_group, serve
from memory_pipelines.cli_admins import admins_group
from memory_pipelines.cli_commitments import commitments_group
from memory_pipelines.cli_console import console_screenshots
from memory_pipelines.cli_dev import dev, sql, stop_db
from memory_pipelines.cli_eval import eval_group
from memory_pipelines.cli_items import delete, history
from memory_pipelines.cli_jobs import feed, jobs_group, reembed, run_command
from memory_pipelines.cli_persons import persons_group
from memory_pipelines.errors import MemoryPipelinesError

DEFAULT_STORE = "default"
LOCOMO_DEV = Path(__file__).resolve().parent.parent / "benchmarks/data/locomo/locomo_dev.json"


def _print(obj: BaseModel | dict[str, Any]) -> None:
    """A result as JSON, as the HTTP API serves it."""
    data = obj.model_dump(mode="json") if isinstance(obj, BaseModel) else obj
    click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))


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
        except UnicodeError:
            # An argument the terminal did not send as UTF-8 (Python keeps its bytes as lone
            # surrogates) that a command passed on unchecked.
            click.secho(
                "error: an argument is not valid UTF-8: set the terminal to UTF-8 (e.g."
                " LANG=C.UTF-8) and type it again",
                fg="red",
                err=True,
            )
            sys.exit(2)
        except psycopg.DataError as exc:  # text Postgres cannot hold, e.g. a NUL character
            first = str(exc).splitlines()[0]
            click.secho(f"error: a value cannot be stored: {first}", fg="red", err=True)
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
    from memory_pipelines.store.migrate import migrate, schema_version

    db = get_database()
    with db.connection() as conn:
        migrate(conn)
        stores_db.ensure_store(conn, store)
        version = schema_version(conn)
    click.echo(f"schema at version {version}; store {store!r} ready")


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
    # tqdm shows the count, the rate and the time left on stderr; the summary line ends it
    with tqdm(total=total, desc="ingesting", unit="turn", file=sys.stderr) as bar:
        try:
            summary = ingest_chats(memory, chats, progress=bar.update)
        except KeyboardInterrupt:  # each batch is whole: what was written stays
            raise click.ClickException(
                f"ingest interrupted after {bar.n} of {total} turns were written. Run the same"
                " ingest again to resume: turns already written are skipped"
            ) from None
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
    "person"}; "id" and "text" are required. Re-adding an id replaces it, for the same person
    or a shared document's (another person's id refuses the file). All lines are added, or
    none."""
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
@click.option("--confidence", type=int, default=None, help="1-10 (default: --json's, else 5).")
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
@click.option(
    "--dedup/--no-dedup",
    default=True,
    show_default=True,
    help="Recall the nearest items first and let the judge merge, supersede or create.",
)
def save(
    store: str,
    category: str,
    context_: str,
    confidence: int | None,
    person: str | None,
    extra: str | None,
    origin: str,
    written_by: str,
    dedup: bool,
) -> None:
    """Save a memory item under the save policy, deduplicated against the person's items
    unless --no-dedup; prints the result (`deduplicated` and `mergedInto` when the fact was
    already known)."""
    from memory_pipelines.api.memory import Memory
    from memory_pipelines.core.records import validate_item
    from memory_pipelines.errors import ValidationError

    try:
        item: dict[str, Any] = json.loads(extra) if extra else {}
    except json.JSONDecodeError as exc:
        raise ValidationError("--json", f"not valid JSON ({exc.msg})") from None
    if not isinstance(item, dict):
        raise ValidationError("--json", "must be a JSON object of item fields")
    if confidence is not None and item.get("confidence", confidence) != confidence:
        raise ValidationError(
            "--confidence", f"is {confidence} but --json says {item['confidence']!r}: give one"
        )
    item.update(category=category, context=context_)
    item.setdefault("confidence", 5 if confidence is None else confidence)
    if person:
        item["person"] = person
    validate_item(item)  # before Memory() creates the store: a bad item writes nothing
    memory = Memory(store)
    write = memory.save_with_dedup if dedup else memory.save
    _print(write(item, origin=origin, written_by=written_by))


@main.command()
@click.argument("query")
@store_option
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    default=("agent", "history"),
    show_default=True,
    type=click.Choice(["agent", "history", "basic", "email"]),
    help="Repeat for several: agent (memory items), history (turns, chunks), basic"
    " (documents), email (emails).",
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
@click.option(
    "--min-confidence", type=float, default=None, help="at least this confident, from 0 to 1"
)
@click.option("--limit", default=50, show_default=True)
def items(
    store: str,
    state: str,
    category: str | None,
    person: str | None,
    min_confidence: float | None,
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
        who = r.person_id or "shared"
        click.echo(
            f"{r.item_id:>7} {r.state:10} {r.category:11} c{r.confidence:<2}"
            f" {who:10} {r.context[:90]}"
        )
    click.echo(f"{len(rows)} items")


@main.command()
@click.option("--store", "-s", "store", default=None, help="One store (default: every store).")
@click.option("--since", default=None, help="From this date or time (ISO), inclusive.")
@click.option("--until", default=None, help="Up to this date or time (ISO), exclusive.")
def calls(store: str | None, since: str | None, until: str | None) -> None:
    """Metered model calls per store, task and model in a period (JSON), then a total."""
    from memory_pipelines.api.calls import metered_calls
    from memory_pipelines.store.db import get_database

    rows = metered_calls(get_database(), store, since, until)
    for r in rows:
        _print(r)
    n = sum(r["calls"] for r in rows)
    tokens = sum(r["tokens_in"] + r["tokens_out"] for r in rows)
    click.echo(f"{n} model call{'' if n == 1 else 's'}, {tokens} tokens", err=True)


@main.command("delete-store")
@store_option
@click.option("--actor", required=True, help="Who deletes it (recorded).")
@click.confirmation_option(prompt="Really delete this store and everything in it?")
def delete_store(store: str, actor: str) -> None:
    """Really delete a store with all its records, turns and settings. Refused while its
    extraction is on: switch extraction off first."""
    from memory_pipelines.api.memory import Memory

    Memory(store, create=False).delete_store(actor=actor)
    click.echo(f"deleted store {store!r}")


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
@click.option("--store", "-s", required=True, help="The store whose save policy it teaches.")
def skill(store: str) -> None:
    """Print the _memory skill (Markdown): the store's save policy as an agent is taught it,
    to put in the agent's instructions. Also GET /v1/stores/STORE/skills/_memory."""
    from memory_pipelines.api import Memory

    click.echo(Memory(store, create=False).skill(), nl=False)


main.add_command(history)
main.add_command(delete)
main.add_command(eval_group)
main.add_command(persons_group)
main.add_command(commitments_group)
main.add_command(jobs_group)
main.add_command(feed)
main.add_command(run_command)
main.add_command(reembed)
main.add_command(orgs_group)
main.add_command(keys_group)
main.add_command(serve)
main.add_command(stop_db)
main.add_command(dev)
main.add_command(sql)
main.add_command(admins_group)
main.add_command(console_screenshots)


if __name__ == "__main__":
    main()
