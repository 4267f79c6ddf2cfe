"""`memory-pipelines commitments`: list commitments, mark one fulfilled or cancelled."""

from __future__ import annotations

import click

from memory_pipelines.core.types import Commitment
from memory_pipelines.core.vocabulary import COMMITMENT_STATUSES

DEFAULT_STORE = "default"
store_option = click.option(
    "--store", "-s", default=DEFAULT_STORE, show_default=True, help="Store (tenant) id."
)


def _line(c: Commitment) -> str:
    due = c.due_at.strftime("%Y-%m-%d %H:%M") if c.due_at else "no due time"
    flag = " OVERDUE" if c.overdue and c.state == "current" else ""
    who = c.person_id or "shared"
    owed = f" -> {c.owed_to}" if c.owed_to else ""
    return f"{c.item_id:>7} {c.status:9} {due:16}{flag:8} {who:10}{owed}  {c.context[:80]}"


@click.group("commitments", invoke_without_command=True)
@store_option
@click.option(
    "--status", type=click.Choice(COMMITMENT_STATUSES), default=None, help="Only this status."
)
@click.option("--overdue", is_flag=True, help="Only open commitments past their due time.")
@click.option("--person", default=None, help="Only this person's commitments.")
@click.option("--limit", default=100, show_default=True)
@click.pass_context
def commitments_group(
    ctx: click.Context,
    store: str,
    status: str | None,
    overdue: bool,
    person: str | None,
    limit: int,
) -> None:
    """List commitments, the one due soonest first (superseded wordings left out); or mark
    one fulfilled or cancelled with the subcommands."""
    if ctx.invoked_subcommand is not None:
        return
    from memory_pipelines.api.memory import Memory

    rows = Memory(store, create=False).commitments(
        status=status, overdue=overdue, person=person, limit=limit
    )
    for c in rows:
        click.echo(_line(c))
    click.echo(f"{len(rows)} commitment{'' if len(rows) == 1 else 's'}")


def _mark(verb: str, item: int, store: str, actor: str) -> None:
    from memory_pipelines.api.memory import Memory

    memory = Memory(store, create=False)
    record = memory.fulfil(item, actor) if verb == "fulfil" else memory.cancel(item, actor)
    click.echo(f"commitment {item} of store {store!r} is {record.status} (by {actor})")


@commitments_group.command("fulfil")
@click.argument("item", type=int)
@store_option
@click.option("--actor", required=True, help="Who marks it fulfilled (recorded).")
def fulfil(item: int, store: str, actor: str) -> None:
    """Mark the open commitment ITEM fulfilled (a version row and an event)."""
    _mark("fulfil", item, store, actor)


@commitments_group.command("cancel")
@click.argument("item", type=int)
@store_option
@click.option("--actor", required=True, help="Who cancels it (recorded).")
def cancel(item: int, store: str, actor: str) -> None:
    """Mark the open commitment ITEM cancelled (a version row and an event)."""
    _mark("cancel", item, store, actor)
