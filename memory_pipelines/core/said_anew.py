"""Whether a turn says something of its own, read whole before its sentences are judged one
by one (core/extract.py): the save policy's verdict on the turn (core/policy.py), its learned
model's where the caller passes an embedder (core/policy_model.py). Pure Python."""

from __future__ import annotations

from collections.abc import Sequence

from memory_pipelines.core import policy, policy_model, sentence_kinds
from memory_pipelines.core.sentence_forms import without_telling
from memory_pipelines.core.window_turn import WindowTurn


def said_anew(
    turn: WindowTurn,
    earlier: Sequence[WindowTurn],
    similarity: policy.Similarity | None,
    embed: policy_model.Embed | None = None,
) -> bool:
    """Whether a turn says something of its own, before its sentences are judged one by one:
    not a recap or re-paste of the history, (said by the assistant) not an acknowledgement of
    what it was just told ("Noted: no chicken bones for Luna"), and (with embed) not a turn the
    learned model (core/policy_model.py) skips where the rules saved it."""
    recent = [f"{t.role}: {t.text}" for t in earlier]
    # read without a clause about the telling ("Maya's teacher is Mr. Osei, I don't think I
    # told you"): the learned model took the turn for talk about the chat
    said = sentence_kinds.sentences(turn.text)
    told = [without_telling(s, turn.role) for s in said]
    text = " ".join(told) if told != said else turn.text
    verdict = policy.judge_turn(text, turn.role, recent, similarity=similarity, embed=embed)
    # A person's turn the model skips is read again without its requests and questions to the
    # listener when it tells something besides ("My dad has type 1 diabetes. ... what should I
    # keep in the house?"): the model took the whole turn for the task it asks. Only then, as
    # the text read is no longer the turn's, whose stored vector the model had. (The
    # assistant's explanation before its question is no memory: "Anything you take
    # regularly, with the dose. Are you on anything?")
    person = turn.role.lower() != "assistant"
    if person and not verdict.save and verdict.reason.startswith("learned: "):
        stated = [s for s in told if sentence_kinds.sentence_kind(s, turn.role) != "meta"]
        if stated and stated != told:
            verdict = policy.judge_turn(
                " ".join(stated), turn.role, recent, similarity=similarity, embed=embed
            )
    if verdict.reason.startswith("learned: "):
        return verdict.save
    if verdict.reason == "already_in_history":
        return False
    return not (verdict.reason == "restatement" and turn.role.lower() == "assistant")
