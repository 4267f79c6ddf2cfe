"""`history` and `delete`: one memory item by its id (unique across stores); `history` finds its
store, `delete` needs it named."""

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
    """The store given, or the one that holds the item (NotFound naming it when none does)."""
    if store is not None:
        return store
    from memory_pipelines.store import items as items_db
    from memory_pipelines.store.db import get_database

    with get_database().connection() as conn:
        return items_db.get_item(conn, item).store_id


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
@click.option("--store", "-s", required=True, help="Store (tenant) id: the store that holds ITEM.")
@click.option("--actor", required=True, help="Who deletes it (recorded).")
@click.confirmation_option(prompt="Really delete this item and its history?")
def delete(item: int, store: str, actor: str) -> None:
    """Really delete ITEM of STORE with its versions and links (audited); --yes skips the
    question. The store is named, so a mistyped id never deletes another store's item."""
    from memory_pipelines.api.memory import Memory

    memory = Memory(store, create=False)  # an unknown store: "does not exist", first
    if (holder := _item_store(item, None)) != store:
        raise NotFound(f"memory item {item} is in store {holder!r}, not {store!r}")
    memory.delete(item, actor=actor)
    click.echo(f"deleted item {item} of store {store!r}")
