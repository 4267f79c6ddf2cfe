"""A store's settings, one card each as in the memory console, with defaults and validation.

Stored as JSON per card in the `stores` table; an empty card means the defaults below.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

from memory_pipelines.core.records import CATEGORY_RE, show, text_field
from memory_pipelines.core.vocabulary import STABLE_CATEGORIES
from memory_pipelines.errors import ValidationError


@dataclass(frozen=True)
class DecayPerType:
    # Days after which salience has halved, per record type; a type not listed never decays.
    half_life_days: dict[str, float] = field(
        default_factory=lambda: {
            "fact": 180.0,
            "decision": 120.0,
            "preference": 365.0,
            "lesson": 365.0,
            "insight": 90.0,
        }
    )


@dataclass(frozen=True)
class Maintenance:
    enabled: bool = True
    cron: str = "0 3 * * *"
    timezone: str = "UTC"
    duplicate_threshold: float = 0.92
    archive_below: float = 0.2
    archive_idle_days: int = 90
    check_contradictions: bool = False


@dataclass(frozen=True)
class Search:
    knowledge_graph: bool = True
    reranker: str = ""  # empty: no reranking model (each rerank is a metered call)


@dataclass(frozen=True)
class Commitments:
    carry_open: bool = True
    most_carried: int = 3


@dataclass(frozen=True)
class Extraction:
    enabled: bool = True  # on by default, as agent-memory-and-recall.md says
    backend: str = "local"
    model: str = "local-rules-v1"
    instructions: str = ""
    types: tuple[str, ...] = STABLE_CATEGORIES
    every_minutes: int = 15
    cron: str = ""  # when set, used instead of every_minutes
    timezone: str = "UTC"
    keys: tuple[str, ...] = ()  # empty: every key's conversations
    min_messages: int = 2
    quiet_minutes: float = 0.0
    lookback_days: int = 0  # 0: no limit
    batch_size: int = 20


@dataclass(frozen=True)
class SavePolicy:
    budget_per_turn: int = 2


@dataclass(frozen=True)
class StoreSettings:
    decay_per_type: DecayPerType = DecayPerType()
    maintenance: Maintenance = Maintenance()
    search: Search = Search()
    commitments: Commitments = Commitments()
    extraction: Extraction = Extraction()
    save_policy: SavePolicy = SavePolicy()
    trust_envelope: bool = True


CARDS: dict[str, type] = {
    "decay_per_type": DecayPerType,
    "maintenance": Maintenance,
    "search": Search,
    "commitments": Commitments,
    "extraction": Extraction,
    "save_policy": SavePolicy,
}


# Bounds of every number, (lo, hi) inclusive. duplicate_threshold is the cosine similarity
# above which maintenance merges two records: cosines lie in [-1, 1], so above 1 nothing ever
# merges (5 was accepted and silently disabled it), and below 0.5 this model (all-MiniLM-L6-v2)
# calls unrelated sentences on one topic alike, so distinct facts would be merged away.
# archive_below is a salience, which lies in (0, 1] (core/decay.py).
BOUNDS: dict[tuple[str, str], tuple[float, float]] = {
    ("maintenance", "duplicate_threshold"): (0.5, 1.0),
    ("maintenance", "archive_below"): (0.0, 1.0),
    ("maintenance", "archive_idle_days"): (1, 3650),
    ("commitments", "most_carried"): (0, 20),
    ("extraction", "every_minutes"): (1, 10_080),  # up to a week
    ("extraction", "min_messages"): (1, 1000),
    ("extraction", "quiet_minutes"): (0, 10_080),
    ("extraction", "lookback_days"): (0, 3650),  # 0: no limit
    ("extraction", "batch_size"): (1, 500),
    ("save_policy", "budget_per_turn"): (0, 50),  # 0: no saves during turns
}
MAX_HALF_LIFE_DAYS = 36_500  # past a century, leave the type out: it then never decays
MAX_TEXT = {"instructions": 4000}  # any other string setting: one line of at most 200
MAX_LIST_SETTING = 100


def _number(where: str, value: Any, default: int | float, lo: float, hi: float) -> Any:
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError(where, f"must be an integer {lo:g}-{hi:g}, got {show(value)}")
    elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValidationError(where, f"must be a number {lo:g}-{hi:g}, got {show(value)}")
    if not lo <= value <= hi:
        raise ValidationError(where, f"must be {lo:g}-{hi:g}, got {value!r}")
    return type(default)(value)


def _check_value(card: str, name: str, value: Any, default: Any) -> Any:
    where = f"{card}.{name}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValidationError(where, f"must be true or false, got {show(value)}")
        return value
    if isinstance(default, int | float):
        return _number(where, value, default, *BOUNDS[(card, name)])
    if isinstance(default, str):
        limit = MAX_TEXT.get(name, 200)
        return text_field(where, value, max_len=limit, one_line=name not in MAX_TEXT)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ValidationError(where, f"must be a list of strings, got {show(value)}")
        if len(value) > MAX_LIST_SETTING:
            raise ValidationError(where, f"at most {MAX_LIST_SETTING} entries, got {len(value)}")
        for i, v in enumerate(value):
            text_field(f"{where}[{i}]", v, max_len=200, required=True, one_line=True)
        return tuple(value)
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise ValidationError(where, f"must be an object of type -> days, got {show(value)}")
        for k, v in value.items():
            if not isinstance(k, str) or not CATEGORY_RE.fullmatch(k):
                raise ValidationError(where, f"keys must be record types (slugs), got {show(k)}")
            _number(f"{where}.{k}", v, 1.0, 0.0, MAX_HALF_LIFE_DAYS)
            if v <= 0:
                raise ValidationError(f"{where}.{k}", f"must be a number of days > 0, got {v!r}")
        return {k: float(v) for k, v in value.items()}
    raise ValidationError(where, "unsupported setting")


@functools.cache
def _time_zones() -> frozenset[str]:
    """IANA zones, but "localtime" and "Factory": what those mean depends on the server."""
    return frozenset(zoneinfo.available_timezones()) - {"localtime", "Factory"}


@functools.lru_cache(maxsize=256)
def schedule_problem(cron: str, timezone: str) -> str | None:
    """Why Dagster could not run this cron in this time zone, or None. Asked of Dagster's own
    schedule definition, so what is saved is exactly what its sensor and schedules can run
    (Dagster vendors its cron parser privately; croniter is not among its dependencies)."""
    import dagster as dg

    try:
        dg.ScheduleDefinition(
            name="settings_check", cron_schedule=cron, job_name="check", execution_timezone=timezone
        )
    except dg.DagsterInvalidDefinitionError as exc:
        return str(exc)
    return None


def _check_card(card: str, value: Any, base: Any) -> None:
    """What one field alone cannot say: allowed values, a schedule Dagster can run."""
    if card in ("maintenance", "extraction"):
        if value.timezone not in _time_zones():
            raise ValidationError(
                f"{card}.timezone",
                f"must be an IANA time zone like Europe/Paris or UTC, got {show(value.timezone)}",
            )
        cron_needed = card == "maintenance"
        if cron_needed and not value.cron.strip():
            raise ValidationError(f"{card}.cron", "is required: a cron expression like 0 3 * * *")
        custom = (value.cron, value.timezone) != (base.cron, base.timezone)
        if value.cron and custom and schedule_problem(value.cron, value.timezone):
            raise ValidationError(
                f"{card}.cron",
                "must be a cron expression of 5 fields (minute hour day month "
                f"weekday) like 0 3 * * * or */15 * * * *, got {show(value.cron)}",
            )
    if card == "extraction":
        if value.backend not in ("local", "openai"):
            raise ValidationError(
                "extraction.backend", f"must be one of: local, openai, got {show(value.backend)}"
            )
        if value.enabled and not value.model.strip():
            raise ValidationError(
                "extraction.model", "is required once extraction is on: the extractor's model name"
            )
        if not value.types:
            raise ValidationError("extraction.types", "must name at least one record type")
        for i, t in enumerate(value.types):
            if not CATEGORY_RE.fullmatch(t):
                raise ValidationError(
                    f"extraction.types[{i}]", f"must be a record type (a slug), got {show(t)}"
                )


def parse_card(card: str, raw: dict[str, Any] | None) -> Any:
    """Build one card from its JSON, naming (as `card.field`) any unknown, ill-typed or
    out-of-range field; nothing is coerced."""
    cls = CARDS[card]
    base = cls()
    raw = raw or {}
    if not isinstance(raw, dict):
        raise ValidationError(card, f"must be an object of settings, got {show(raw)}")
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for name, value in raw.items():
        if name not in known:
            raise ValidationError(
                f"{card}.{name}", f"unknown setting; allowed: {', '.join(sorted(known))}"
            )
        values[name] = _check_value(card, name, value, getattr(base, name))
    parsed = dataclasses.replace(base, **values)
    _check_card(card, parsed, base)
    return parsed


def parse_settings(row: dict[str, Any]) -> StoreSettings:
    """StoreSettings from a `stores` row (or any dict holding the cards)."""
    cards = {card: parse_card(card, row.get(card)) for card in CARDS}
    return StoreSettings(**cards, trust_envelope=bool(row.get("trust_envelope", True)))


def card_to_json(card_value: Any) -> dict[str, Any]:
    return {
        k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(card_value).items()
    }
