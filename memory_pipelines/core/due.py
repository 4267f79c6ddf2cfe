"""When a store is due for extraction (work owed, a quiet conversation, the schedule, how long
to wait after failed runs) and for maintenance (its own cron in its own time zone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from croniter import croniter

from memory_pipelines.core.settings import Extraction, Maintenance

# (cron, timezone, since, now) -> whether a cron tick falls in (since, now]
CronTicked = Callable[[str, str, datetime, datetime], bool]


def cron_ticked(cron: str, timezone: str, since: datetime, now: datetime) -> bool:
    """Whether a tick of `cron`, read in `timezone`, falls in (since, now]."""
    nxt: datetime = croniter(cron, since.astimezone(ZoneInfo(timezone))).get_next(datetime)
    return nxt <= now


def latest_tick(cron: str, timezone: str, now: datetime) -> datetime:
    """The newest tick of `cron`, read in `timezone`, at or before `now`."""
    local = now.astimezone(ZoneInfo(timezone))
    if croniter.match(cron, local.replace(second=0, microsecond=0)):
        return local.replace(second=0, microsecond=0)
    tick: datetime = croniter(cron, local).get_prev(datetime)
    return tick


def maintenance_due(
    settings: Maintenance, now: datetime, since: datetime
) -> tuple[datetime | None, str]:
    """The tick of the store's own maintenance cron (its time zone) to run for now, or None,
    and why: due when a tick fell after `since` (the last pass, or the last request)."""
    if not settings.enabled:
        return None, "maintenance is off for this store"
    tick = latest_tick(settings.cron, settings.timezone, now)
    if tick > since:
        return tick, f"cron {settings.cron!r} ({settings.timezone}) ticked at {tick.isoformat()}"
    return None, f"waiting for the next tick of {settings.cron!r} ({settings.timezone})"


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


@dataclass(frozen=True)
class Owed:
    """The work a store's turns still need, read from the store itself (never from what was
    requested before, so a failed or cancelled run leaves it owed)."""

    top_turn: int
    # The newest turn of the owing conversation quiet the longest (the quiet period is each
    # conversation's); the store's newest turn when none owes a window.
    last_turn_at: datetime
    unembedded: int  # turns without their embedding
    windows: int  # windows planned but not applied, plus those the settings would plan now

    @property
    def any(self) -> bool:
        return self.unembedded > 0 or self.windows > 0


# After this many failed (or cancelled) runs in a row a store is reported as failing, and its
# work is asked for again only after a wait that doubles with each further failure.
FAILING_AFTER = 3
RETRY_WAIT = timedelta(minutes=5)
RETRY_WAIT_MAX = timedelta(hours=6)


def retry_wait(failures: int) -> timedelta:
    """How long after its latest failed run a store's owed work is requested again: at once
    for the first failures, then 5 minutes, doubling, at most 6 hours."""
    if failures < FAILING_AFTER:
        return timedelta(0)
    return min(RETRY_WAIT * 2 ** min(failures - FAILING_AFTER, 16), RETRY_WAIT_MAX)
