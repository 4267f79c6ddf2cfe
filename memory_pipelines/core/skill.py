"""The _memory skill: the save policy as an agent is taught it (agent-memory-and-recall.md: "Save
policy, taught by the _memory skill and enforced by the write path"). Written from the same
names the write path enforces (core/policy.py's reasons, the store's budget per turn, the
confidence under which a save is speculation), so what an agent is told and what the write path
does cannot drift apart: every reason the policy gives has its line here (a test holds it)."""

from __future__ import annotations

from memory_pipelines.core.policy import SAVE_REASONS, SKIP_REASONS

NAME = "_memory"

SAVE_LINES: dict[str, str] = {
    "stable_preference": "stable preferences (how someone likes things done, what they avoid)",
    "decision_with_why": "decisions, with the why ('picked sqlite for the importer: simpler ops')",
    "durable_fact": "durable facts of the domain or the person (an allergy, who manages whom)",
    "hard_lesson": "hard lessons (what went wrong and what to do instead)",
    "shipped_outcome": "shipped outcomes (what was released, finished or decided for good)",
    "commitment": "commitments: who promised what to whom, with the due time when one is said",
}
SKIP_LINES: dict[str, str] = {
    "greeting": "greetings and thanks",
    "meta_chatter": "meta-chatter about the conversation itself ('let me check', 'good question')",
    "restatement": "restatements of what was just said",
    "already_in_history": "anything already in the conversation word for word: history keeps every"
    " turn and can be drilled into; and episodes or session summaries (history's job)",
    "speculation": "low-confidence speculation (confidence {low} or less)",
}


def memory_skill(budget_per_turn: int, low_confidence: int, categories: tuple[str, ...]) -> str:
    """The skill's text (Markdown) for a store: its budget of saves per turn, the confidence at or
    under which a save is skipped as speculation, and the record types extraction writes."""
    if set(SAVE_LINES) != set(SAVE_REASONS) or set(SKIP_LINES) != set(SKIP_REASONS):
        raise RuntimeError("the _memory skill does not teach every reason the save policy gives")
    save = "\n".join(f"- {SAVE_LINES[r]}" for r in SAVE_REASONS)
    skip = "\n".join(f"- {SKIP_LINES[r].format(low=low_confidence)}" for r in SKIP_REASONS)
    saves = "save" if budget_per_turn == 1 else "saves"
    return f"""# {NAME}: what to remember

Memory holds distilled, stable facts, one line each. History already keeps every turn
verbatim, so memory is only for what should still be true and useful later.

## Save
{save}

## Skip
{skip}

## How
- At most {budget_per_turn} {saves} per turn; a save past that is skipped (`budget`).
- One fact per record: `category` (one of {", ".join(categories)}, or another slug) and
  `context`, one line that reads on its own ("Ana is allergic to kiwi", not "she is allergic").
- `confidence` 1-10: what the user said outright ranks above what you inferred.
- Save with dedup (`save_with_dedup`, or `POST /v1/stores/{{store}}/records/dedup`): the judge
  merges a restatement, supersedes a corrected value and keeps every version.
- A skipped save is not an error: the answer says why (`skipped`), and nothing was written.
"""
