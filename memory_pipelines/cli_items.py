"""`history` and `delete`: one memory item, by its id (unique across stores), in the store that
holds it unless --store says which."""

from __future__ import annotations

import click

from memory_pipelines.errors import NotFound

item_store_option = click.option(
    "--store",
    "-s",
    default=None,
    help="Store (tenant) id; by default the store that holds ITEM (ids are unique across stores).",
)


def _item_store(item: int, store: str | None) -> str:
    """The store given, or the one that holds the item (an error naming it when none does)."""
    if store is not None:
        return store
    from memory_pipelines.store import item_reads
    from memory_pipelines.store.db import get_database

    with get_database().connection() as conn:
        found = item_reads.store_of(conn, item)
    if found is None:
        raise NotFound(f"no store holds a memory item {item}")
    return found


@click.command()
@click.argument("item", type=int)
@item_store_option
def history(item: int, store: str | None) -> None:
    """Every version of ITEM, oldest first."""
    from memory_pipelines.api.memory import Memory

    for v in Memory(_item_store(item, store), create=False).history(item):
        snap = v.snapshot
        until = f"{snap.valid_until:%Y-%m-%d %H:%M}" if snap.valid_until else "still valid"
        valid = f"valid {snap.valid_from:%Y-%m-%d %H:%M} .. {until}"
        click.echo(
            f"{v.changed_at:%Y-%m-%d %H:%M} item {v.item_id} v{v.version}"
            f" {v.change:10} {snap.state:10} {valid:40} {snap.context}"
        )


@click.command()
@click.argument("item", type=int)
@item_store_option
@click.option("--actor", required=True, help="Who deletes it (recorded).")
@click.confirmation_option(prompt="Really delete this item and its history?")
def delete(item: int, store: str | None, actor: str) -> None:
    """Really delete ITEM with its versions and links (audited); --yes skips the question."""
    from memory_pipelines.api.memory import Memory

    store = _item_store(item, store)
    Memory(store, create=False).delete(item, actor=actor)
    click.echo(f"deleted item {item} of store {store!r}")
