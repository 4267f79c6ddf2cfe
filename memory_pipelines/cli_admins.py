"""`memory-pipelines admins ...`: administrator accounts of the console (create, link, password,
list, disable). A sign-in link is printed once; a password is asked for, never an argument."""

from __future__ import annotations

import os
from typing import Any

import click

CONSOLE_URL = "http://127.0.0.1:8080"
url_option = click.option(
    "--url",
    default=lambda: os.environ.get("MEMORY_CONSOLE_URL", CONSOLE_URL),
    show_default=f"MEMORY_CONSOLE_URL or {CONSOLE_URL}",
    help="Where the console is served, for the printed link.",
)


def _db() -> Any:
    from memory_pipelines.store.db import get_database

    return get_database()


def _link(url: str, token: str) -> str:
    return f"{url.rstrip('/')}/console/link/{token}"


def _ask_password() -> str:
    # prompt reads stdin when it is not a terminal, so a script can pipe the password in twice
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))


@click.group("admins")
def admins_group() -> None:
    """Administrator accounts of an organisation: they see its stores in the console."""


@admins_group.command("create")
@click.option("--org", required=True, help="The organisation administered.")
@click.option("--name", required=True, help="The administrator's sign-in name.")
@click.option("--password", "ask", is_flag=True, help="Also set a password (asked for twice).")
@click.option("--by", "created_by", default="", help="Who creates it (recorded).")
@url_option
def admins_create(org: str, name: str, ask: bool, created_by: str, url: str) -> None:
    """Create an administrator; prints a one-time sign-in link (valid 24 hours)."""
    from memory_pipelines.api.accounts import LINK_VALID, create_admin

    password = _ask_password() if ask else None
    row, token = create_admin(_db(), org, name, password=password, created_by=created_by)
    hours = int(LINK_VALID.total_seconds() // 3600)
    click.echo(f"administrator {name!r} of {org!r} created (account {row['account_id']}).")
    click.echo(f"One-time sign-in link, valid {hours} hours:")
    click.echo(_link(url, token))


@admins_group.command("link")
@click.option("--org", required=True)
@click.option("--name", required=True)
@url_option
def admins_link(org: str, name: str, url: str) -> None:
    """Print a new one-time sign-in link for an administrator (a lost password); links
    printed before it stop working."""
    from memory_pipelines.api.accounts import issue_link

    click.echo(_link(url, issue_link(_db(), org, name)))


@admins_group.command("password")
@click.option("--org", required=True)
@click.option("--name", required=True)
def admins_password(org: str, name: str) -> None:
    """Set an administrator's password (asked for twice); its sessions end and its unused
    sign-in links stop working."""
    from memory_pipelines.api.accounts import set_password

    set_password(_db(), org, name, _ask_password())
    click.echo(f"password of {name!r} of {org!r} set; its sessions and unused links ended")


@admins_group.command("list")
@click.option("--org", default=None, help="Only this organisation's administrators.")
def admins_list(org: str | None) -> None:
    """Administrators with their state (never a password or a link)."""
    from memory_pipelines.api.accounts import list_admins

    rows = list_admins(_db(), org)
    for r in rows:
        state = f"disabled {r['disabled_at']:%Y-%m-%d %H:%M}" if r["disabled_at"] else "active"
        how = "password and links" if r["has_password"] else "links only"
        click.echo(f"{r['account_id']:>6} {r['org_id']:16} {r['name']:24} {state:24} {how}")
    click.echo(f"{len(rows)} administrators")


@admins_group.command("disable")
@click.option("--org", required=True)
@click.option("--name", required=True)
def admins_disable(org: str, name: str) -> None:
    """Disable an administrator: signed out everywhere at once, links void."""
    from memory_pipelines.api.accounts import disable_admin

    row = disable_admin(_db(), org, name)
    click.echo(f"administrator {name!r} of {org!r} disabled at {row['disabled_at']:%Y-%m-%d %H:%M}")
