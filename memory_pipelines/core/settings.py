"""A store's settings, one card each as in the memory console, with defaults and validation.

Stored as JSON per card in the `stores` table; an empty card means the defaults below.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

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


def _coerce(card: str, name: str, value: Any, default: Any) -> Any:
    where = f"settings.{card}.{name}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValidationError(where, f"must be true or false, got {value!r}")
        return value
    if isinstance(default, int | float):
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ValidationError(where, f"must be a number >= 0, got {value!r}")
        return type(default)(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ValidationError(where, f"must be a string, got {value!r}")
        return value
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ValidationError(where, f"must be a list of strings, got {value!r}")
        return tuple(value)
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise ValidationError(where, f"must be an object of type -> days, got {value!r}")
        for k, v in value.items():
            if isinstance(v, bool) or not isinstance(v, int | float) or v <= 0:
                raise ValidationError(f"{where}.{k}", f"must be a number of days > 0, got {v!r}")
        return {str(k): float(v) for k, v in value.items()}
    raise ValidationError(where, "unsupported setting")


def parse_card(card: str, raw: dict[str, Any] | None) -> Any:
    """Build one card from its JSON, naming any unknown or ill-typed field."""
    cls = CARDS[card]
    base = cls()
    raw = raw or {}
    if not isinstance(raw, dict):
        raise ValidationError(f"settings.{card}", f"must be an object, got {raw!r}")
    known = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for name, value in raw.items():
        if name not in known:
            raise ValidationError(
                f"settings.{card}.{name}", f"unknown setting; allowed: {', '.join(sorted(known))}"
            )
        values[name] = _coerce(card, name, value, getattr(base, name))
    if card == "extraction" and values.get("backend", base.backend) not in ("local", "openai"):
        raise ValidationError("settings.extraction.backend", "must be one of: local, openai")
    return dataclasses.replace(base, **values)


def parse_settings(row: dict[str, Any]) -> StoreSettings:
    """StoreSettings from a `stores` row (or any dict holding the cards)."""
    cards = {card: parse_card(card, row.get(card)) for card in CARDS}
    return StoreSettings(**cards, trust_envelope=bool(row.get("trust_envelope", True)))


def card_to_json(card_value: Any) -> dict[str, Any]:
    return {
        k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(card_value).items()
    }
