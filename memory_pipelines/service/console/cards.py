"""The settings cards of a store's page: which fields each card shows, a card's values as the
form shows them, and a posted card's form read back into the JSON its settings validate.

A posted form is read into values of the setting's type where it can be (a number typed as
one); anything else is passed on as typed, so that core/settings.py refuses it with the words
it uses everywhere (`maintenance.duplicate_threshold: must be a number 0.5-1, got 'high'`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from memory_pipelines.core.records import CATEGORY_RE
from memory_pipelines.core.settings import card_to_json
from memory_pipelines.errors import ValidationError

Kind = Literal["switch", "number", "text", "textarea", "list", "choice"]


@dataclass(frozen=True)
class Field:
    name: str  # the setting's name in its card
    label: str
    kind: Kind
    help: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    name: str  # the settings card (core/settings.CARDS)
    title: str
    intro: str
    fields: tuple[Field, ...] = ()


MAINTENANCE = Card(
    "maintenance",
    "Maintenance",
    "A periodic pass that merges duplicates and archives records that have faded and not been "
    "used. Nothing is deleted: a merged or archived record stays readable under Records.",
    (
        Field("enabled", "Maintenance on", "switch"),
        Field(
            "duplicate_threshold",
            "Duplicate threshold",
            "number",
            "How alike (cosine, 0.5-1) two records of the same person and type must be to count "
            "as one fact; the weaker is replaced by the stronger.",
        ),
        Field(
            "check_contradictions",
            "Check for contradictions",
            "switch",
            "The organisation's helper model judges near records; each judgement is a metered "
            "model call. Core only flags a contradiction, never settles it.",
        ),
        Field("archive_below", "Archive below salience", "number", "0-1"),
        Field("archive_idle_days", "Archive after idle days", "number"),
        Field("cron", "Runs at (cron)", "text", "Five fields, like 0 3 * * *"),
        Field("timezone", "Time zone", "text", "An IANA name, like Europe/Paris or UTC"),
    ),
)
SEARCH = Card(
    "search",
    "Search",
    "How a search ranks the records.",
    (
        Field(
            "knowledge_graph",
            "Knowledge graph",
            "switch",
            "Entities found in the question rank the records that name them.",
        ),
        Field(
            "reranker",
            "Reranker model",
            "text",
            "A model that reranks the best hits, a metered model call per search; empty: none.",
        ),
    ),
)
COMMITMENTS = Card(
    "commitments",
    "Commitments",
    "Whether a turn always carries its person's open commitments, and how many, the one due "
    "soonest first.",
    (
        Field("carry_open", "Carry open commitments", "switch"),
        Field("most_carried", "Most carried", "number", "0-20"),
    ),
)
EXTRACTION = Card(
    "extraction",
    "Extraction",
    "Core reads this organisation's conversations on a schedule, lets a model pick out what is "
    "worth remembering and writes it as records. While it is on, the store cannot be deleted.",
    (
        Field("enabled", "Extraction on", "switch"),
        Field(
            "backend",
            "Backend",
            "choice",
            "local: offline rules; openai: a chat API",
            ("local", "openai"),
        ),
        Field(
            "model",
            "Model",
            "text",
            "The chat model that reads the conversations with the openai backend (required"
            " once on); the local backend is offline rules and records itself as the model.",
        ),
        Field(
            "instructions",
            "Instructions",
            "textarea",
            "What is worth remembering for your organisation, given to the chat model (openai"
            " backend); the local backend's rules read none. Empty leaves that to the model.",
        ),
        Field(
            "types",
            "Types",
            "list",
            "Which kinds of record it may write, separated by commas; commitment adds a status, "
            "a due time and who it is owed to.",
        ),
        Field("every_minutes", "Every (minutes)", "number"),
        Field("cron", "Cron", "text", "Five fields, like */30 8-18 * * 1-5"),
        Field("timezone", "Time zone", "text", "Of the cron; an IANA name"),
        Field("keys", "Only these keys", "list", "Key ids separated by commas; empty: every key."),
        Field("min_messages", "Minimum messages", "number"),
        Field(
            "quiet_minutes",
            "Quiet for (minutes)",
            "number",
            "How long a conversation must have been quiet.",
        ),
        Field("lookback_days", "Look back (days)", "number", "0: no limit"),
        Field("batch_size", "Messages per read", "number"),
    ),
)
SHOWN: dict[str, Card] = {c.name: c for c in (MAINTENANCE, SEARCH, COMMITMENTS, EXTRACTION)}
CARD_NAMES = ("decay_per_type", *SHOWN)
EMPTY_DECAY_ROWS = 2  # blank rows under a store's types, to add a type


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".")
    if isinstance(value, list | tuple):
        return ", ".join(value)
    return str(value)


def form_values(card: str, value: Any) -> dict[str, Any]:
    """A saved card as its form shows it: each field's text ("on" for a switch that is on);
    the decay card as rows of (type, days) and the extraction card with its `schedule`."""
    if card == "decay_per_type":
        rows = [(t, _shown(d)) for t, d in sorted(value.half_life_days.items())]
        return {"rows": rows + [("", "")] * EMPTY_DECAY_ROWS}
    out = {f.name: _shown(getattr(value, f.name)) for f in SHOWN[card].fields}
    if card == "extraction":
        out["schedule"] = "cron" if value.cron else "every"
    return out


def posted_values(card: str, form: dict[str, str]) -> dict[str, Any]:
    """A posted card's fields as the form shows them again (with the error beside one)."""
    if card == "decay_per_type":
        rows = [(form.get(f"type_{i}", ""), form.get(f"days_{i}", "")) for i in _row_numbers(form)]
        return {"rows": rows + [("", "")] * EMPTY_DECAY_ROWS}
    out: dict[str, Any] = {f.name: form.get(f.name, "") for f in SHOWN[card].fields}
    if card == "extraction":
        out["schedule"] = form.get("schedule", "every")
    return out


def _row_numbers(form: dict[str, str]) -> list[int]:
    numbers = {int(k[5:]) for k in form if k.startswith("type_") and k[5:].isdigit()}
    return sorted(numbers)


def _typed(text: str, default: Any) -> Any:
    """The text of a number field as a number where it is one, else as typed (to be refused
    by the settings' own check, which names the field and the allowed range)."""
    text = text.strip()
    try:
        return int(text) if isinstance(default, int) else float(text)
    except ValueError:
        try:  # 2.5 where an integer is wanted: the check says "must be an integer"
            return float(text)
        except ValueError:
            return text


def card_json(card: str, current: Any, form: dict[str, str]) -> dict[str, Any]:
    """The JSON to save for a posted card: its saved values with the form's fields over them
    (a setting the card does not show is kept). Raises ValidationError, naming the field as
    `card.field`, for what only the form can get wrong (a cron chosen and none given, a type
    listed twice)."""
    if card == "decay_per_type":
        return {"half_life_days": _decay_rows(form)}
    raw = card_to_json(current)
    for f in SHOWN[card].fields:
        text = form.get(f.name, "")
        default = getattr(type(current)(), f.name)
        if f.kind == "switch":
            raw[f.name] = f.name in form
        elif f.kind == "number":
            raw[f.name] = _typed(text, default)
        elif f.kind == "list":
            raw[f.name] = [v.strip() for v in text.split(",") if v.strip()]
        elif f.kind == "textarea":
            raw[f.name] = text.replace("\r\n", "\n").strip()
        else:
            raw[f.name] = text.strip()
    if card == "extraction":
        schedule = form.get("schedule", "every")
        if schedule not in ("every", "cron"):
            raise ValidationError("extraction.schedule", "must be every or cron")
        if schedule == "every":
            raw["cron"] = ""
        elif not raw["cron"]:
            raise ValidationError(
                "extraction.cron",
                "is required when extraction runs on a cron: five fields like 0 */2 * * *",
            )
    return raw


def _decay_rows(form: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in _row_numbers(form):
        kind, days = form.get(f"type_{i}", "").strip(), form.get(f"days_{i}", "")
        if not kind:
            continue  # a row without a type is ignored
        where = f"decay_per_type.half_life_days.{kind}"
        if not CATEGORY_RE.fullmatch(kind):
            raise ValidationError(
                where, "must be a record type: lowercase letters, digits, '_' or '-'"
            )
        if kind in out:
            raise ValidationError(where, f"type {kind!r} is listed twice; keep one row")
        out[kind] = _typed(days, 1.0)
    return out


def error_target(card: str, field: str) -> str:
    """The form field an error of this card is shown beside: `extraction.types[2]` beside
    types, `decay_per_type.half_life_days.fact` beside the row of fact."""
    rest = field.split(".", 1)[1] if field.startswith(f"{card}.") else field
    if card == "decay_per_type":
        return rest.split(".", 1)[1] if rest.startswith("half_life_days.") else ""
    return rest.split("[", 1)[0].split(".", 1)[0]
