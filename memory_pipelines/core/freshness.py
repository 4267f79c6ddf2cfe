"""Whether a store's pipeline keeps up: a store that owes work due by its settings, with
nothing done for it for longer than its settings allow, is stale. A store owing nothing, or
waiting by its settings (a conversation not quiet yet), is fresh however old its last run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from croniter import croniter

from memory_pipelines.core.due import Owed
from memory_pipelines.core.settings import Extraction

GRACE = timedelta(minutes=30)  # beyond the store's own cadence, for a run to start and end


@dataclass(frozen=True)
class Freshness:
    stale: bool
    why: str
    minutes_late: float = 0.0


def allowance(settings: Extraction, now: datetime) -> timedelta:
    """How long owed work may wait for a run: the store's quiet period, then its cadence (every
    N minutes, or the gap between its cron's ticks), then GRACE. Embedding alone: GRACE."""
    if not settings.enabled:
        return GRACE
    if settings.cron:
        it = croniter(settings.cron, now.astimezone(ZoneInfo(settings.timezone)))
        first, second = it.get_next(datetime), it.get_next(datetime)
        cadence = second - first
    else:
        cadence = timedelta(minutes=settings.every_minutes)
    return timedelta(minutes=settings.quiet_minutes) + cadence + GRACE


def judge(
    settings: Extraction,
    owed: Owed | None,
    now: datetime,
    since: datetime | None,
    waiting: str | None = None,
) -> Freshness:
    """The verdict for one store. `since`: the later of when work was first seen owed and the
    store's last run that did its work (None: neither known); `waiting`: why the settings hold
    the work back now (e.g. "conversation not quiet for 5 minutes yet"), if they do."""
    if owed is None or not owed.any:
        return Freshness(False, "nothing owed")
    what = ", ".join(
        part
        for part in (
            f"{owed.unembedded} turns to embed" if owed.unembedded else "",
            f"{owed.windows} windows to extract" if owed.windows and settings.enabled else "",
        )
        if part
    )
    if not what:
        return Freshness(False, "nothing owed (extraction is off)")
    if waiting and not owed.unembedded:
        return Freshness(False, f"{what}, waiting: {waiting}")
    if since is None:
        return Freshness(True, f"{what} and no run has ever done the store's work")
    late = now - since - allowance(settings, now)
    if late <= timedelta(0):
        return Freshness(False, f"{what}, within {allowance(settings, now)} of {since:%H:%M} UTC")
    minutes = late.total_seconds() / 60
    return Freshness(
        True,
        f"{what}; nothing done since {since:%Y-%m-%d %H:%M} UTC, {minutes:.0f} minutes past what "
        "the store's settings allow: is the new_turns_sensor running, do its runs fail?",
        round(minutes, 1),
    )
