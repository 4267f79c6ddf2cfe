"""When a store is due for extraction: new turns, a quiet conversation, and the schedule."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from croniter import croniter

from memory_pipelines.core.settings import Extraction

# (cron, timezone, since, now) -> whether a cron tick falls in (since, now]
CronTicked = Callable[[str, str, datetime, datetime], bool]


def cron_ticked(cron: str, timezone: str, since: datetime, now: datetime) -> bool:
    """Whether a tick of `cron`, read in `timezone`, falls in (since, now]."""
    nxt: datetime = croniter(cron, since.astimezone(ZoneInfo(timezone))).get_next(datetime)
    return nxt <= now


def extraction_due(
    settings: Extraction,
    now: datetime,
    last_turn_at: datetime,
    last_request_at: datetime | None,
    cron_ticked: CronTicked,
) -> tuple[bool, str]:
    """Whether to request an extraction run now, and why (or why not)."""
    if not settings.enabled:
        return False, "extraction is off for this store"
    quiet = timedelta(minutes=settings.quiet_minutes)
    if now - last_turn_at < quiet:
        return False, f"conversation not quiet for {settings.quiet_minutes:g} minutes yet"
    if last_request_at is None:
        return True, "new turns, never extracted"
    if settings.cron:
        if cron_ticked(settings.cron, settings.timezone, last_request_at, now):
            return True, f"new turns and cron {settings.cron!r} ({settings.timezone}) ticked"
        return False, f"waiting for the next tick of {settings.cron!r}"
    if now - last_request_at >= timedelta(minutes=settings.every_minutes):
        return True, f"new turns and {settings.every_minutes} minutes since the last run"
    return False, f"ran less than {settings.every_minutes} minutes ago"
