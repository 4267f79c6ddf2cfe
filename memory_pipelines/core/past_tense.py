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

# fmt: off
# Irregular verbs: base -> (past, participle).
_IRREGULAR = {
    "pay": ("paid", "paid"), "send": ("sent", "sent"), "buy": ("bought", "bought"),
    "bring": ("brought", "brought"), "make": ("made", "made"), "give": ("gave", "given"),
    "take": ("took", "taken"), "write": ("wrote", "written"), "get": ("got", "gotten"),
    "tell": ("told", "told"), "find": ("found", "found"), "do": ("did", "done"),
    "go": ("went", "gone"), "leave": ("left", "left"), "put": ("put", "put"),
    "set": ("set", "set"), "read": ("read", "read"), "meet": ("met", "met"),
    "lend": ("lent", "lent"), "build": ("built", "built"), "drive": ("drove", "driven"),
    "ring": ("rang", "rung"), "sell": ("sold", "sold"), "teach": ("taught", "taught"),
    "show": ("showed", "shown"), "cut": ("cut", "cut"),
    "hold": ("held", "held"), "feed": ("fed", "fed"),
    "draw": ("drew", "drawn"), "let": ("let", "let"),
    "speak": ("spoke", "spoken"), "sing": ("sang", "sung"), "win": ("won", "won"),
    "hang": ("hung", "hung"), "sweep": ("swept", "swept"), "lay": ("laid", "laid"),
    "throw": ("threw", "thrown"), "see": ("saw", "seen"),
    "keep": ("kept", "kept"), "run": ("ran", "run"), "come": ("came", "come"),
}
# fmt: on
_VOWELS = "aeiou"


def past_forms(verb: str) -> frozenset[str]:
    """The past and the participle of a verb: irregular ones from the table, else the regular
    -ed ("book" -> "booked", "file" -> "filed", "copy" -> "copied", "drop" -> "dropped")."""
    verb = verb.lower()
    if verb in _IRREGULAR:
        return frozenset(_IRREGULAR[verb])
    if verb.endswith("e"):
        return frozenset([verb + "d"])
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in _VOWELS:
        return frozenset([verb[:-1] + "ied"])
    forms = {verb + "ed"}
    # one short syllable ending consonant-vowel-consonant doubles: drop -> dropped
    if (
        len(verb) >= 3
        and verb[-1] not in _VOWELS + "wxy"
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
    ):
        forms.add(verb + verb[-1] + "ed")
    return frozenset(forms)
