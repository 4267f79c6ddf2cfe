"""`memory-pipelines persons`: the persons a store's records can be for (list, add)."""

from __future__ import annotations

import click

store_required = click.option("--store", "-s", required=True, help="Store (tenant) id.")


@click.group("persons")
def persons_group() -> None:
    """The persons a store's records, chats and keys can be for."""


@persons_group.command("list")
@store_required
def persons_list(store: str) -> None:
    """The store's persons, one per line (id, then name). Also GET /v1/stores/STORE/persons."""
    from memory_pipelines.api.memory import Memory

    rows = Memory(store, create=False).persons()
    for row in rows:
        click.echo(f"{row['person']}\t{row['name']}".rstrip())
    click.echo(f"{len(rows)} person{'' if len(rows) == 1 else 's'}", err=True)


@persons_group.command("add")
@store_required
@click.argument("person")
@click.option("--name", default="", help="A display name.")
def persons_add(store: str, person: str, name: str) -> None:
    """Add PERSON to the store, so records, chats and keys can be for them (again: kept, the
    name replaced when one is given). Also PUT /v1/stores/STORE/persons/PERSON."""
    from memory_pipelines.api.memory import Memory

    Memory(store, create=False).add_person(person, name)
    click.echo(f"person {person!r} is in store {store!r}")
