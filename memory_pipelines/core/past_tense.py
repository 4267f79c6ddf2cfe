"""Past-tense verb forms, for rules that tell what happened from what holds or is planned
("Never again: we lost a day" has a past mishap; "I never said that" narrates, it sets no rule).
Pure Python."""

from __future__ import annotations

# fmt: off
IRREGULAR_PAST = frozenset([
    "went", "got", "became", "took", "made", "bought", "sold", "ran", "met", "saw", "found",
    "gave", "won", "lost", "began", "wrote", "built", "left", "came", "grew", "flew", "sat",
    "spent", "taught", "kept", "had", "did", "felt", "thought", "heard", "told", "paid", "broke",
    "forgot", "fell", "ate", "chose", "caught", "drove", "sent", "said", "knew", "meant",
])
# fmt: on
# Words in -ed that are no past: "I need" -> "she needs", "Indeed, ...".
# fmt: off
NOT_PAST = frozenset([
    "need", "feed", "seed", "speed", "breed", "bleed", "proceed", "succeed", "indeed", "bed",
    "red", "shed", "wed",
])
# fmt: on
# A past-tense verb: irregular, or regular in -ed (a rough test: "need", "bed" slip through).
PAST_VERB = r"(?:\w+ed|" + "|".join(sorted(IRREGULAR_PAST)) + r")"
