"""What the dedup judge is given and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class JudgeItem:
    context: str
    category: str
    confidence: int = 5
    origin: str = "user"  # 'user' or 'machine'
    valid_from: str | None = None  # ISO date
    owed_to: str | None = None  # a commitment's: whom it is owed to, when known
    # The person whose turn said it, by name, when it came from a chat between named people
    # (dedup shows the judge only that person's items): whom the case is about.
    said_by: str | None = None

    @property
    def speaker_words(self) -> frozenset[str]:
        """The words of the speaker's name, lower-cased (none when no speaker is known)."""
        return frozenset(w.lower() for w in (self.said_by or "").split())

    def unattributed(self, speaker: str | None) -> JudgeItem:
        """The item as the rules read it: without the speaker's name leading it, which
        extraction writes before a fact that names them nowhere ("Zainab: The tool rejects
        ...", core/sentence_people.attributed). Read as a subject, that name made every such
        pair look alike or apart (the tuning sets, each item so led: 0.885 -> 0.683)."""
        label = f"{(speaker or '').strip()}: "
        if label == ": " or not self.context.startswith(label):
            return self
        return replace(self, context=self.context[len(label) :])


@dataclass(frozen=True)
class JudgeDecision:
    action: str  # 'merge' | 'supersede' | 'create'
    target: int | None  # index into `existing` (never a database id), None for create
    reason: str  # short human-readable why (goes into run logs)
