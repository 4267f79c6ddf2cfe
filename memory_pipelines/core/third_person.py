"""First person rewritten into third person, so an extracted fact stands on its own.

"I wish I had more time" said by Caroline -> "Caroline wishes she had more time"; "It's like
therapy for me, letting me express myself" said by Melanie -> "It's like therapy for Melanie,
letting her express herself". The speaker's name comes once per sentence, pronouns after it
(she, he or they, as the extractor judged from the name), and a present-tense verb after the
new subject agrees with it ("I wish" -> "Caroline wishes", "I don't" -> "she doesn't").
"""

from __future__ import annotations

import re

PRONOUNS = {
    # subject, object, possessive, possessive pronoun, reflexive
    "she": ("she", "her", "her", "hers", "herself"),
    "he": ("he", "him", "his", "his", "himself"),
    "they": ("they", "them", "their", "theirs", "themself"),
}
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|[^A-Za-z]+")
# After a subject: words that do not change with it, so the verb after them agrees instead.
_ADVERBS = frozenset(
    [
        "just",
        "also",
        "still",
        "always",
        "never",
        "often",
        "even",
        "only",
        "already",
        "sometimes",
        "usually",
        "really",
        "actually",
        "totally",
        "truly",
        "finally",
        "recently",
        "definitely",
        "certainly",
        "probably",
        "mostly",
        "generally",
    ]
)
_ADVERB_LY = re.compile(r"[a-z]{3,}(?<!p)ly")  # slowly, finally; not apply, reply, rely
_PLURAL = {"was": "were", "am": "are", "wasn't": "weren't"}  # "I was" -> "they were"
# Words after a subject that never take -s ("Jon gotta", not "Jon gottas").
_MODALS = frozenset(
    [
        "will",
        "would",
        "can",
        "could",
        "should",
        "might",
        "must",
        "may",
        "shall",
        "did",
        "was",
        "gotta",
        "gonna",
        "wanna",
    ]
)
# Contractions and irregular present forms after I: (third person singular, plural "they").
_AGREE = {
    "am": ("is", "are"),
    "have": ("has", "have"),
    "do": ("does", "do"),
    "don't": ("doesn't", "don't"),
    "haven't": ("hasn't", "haven't"),
    "go": ("goes", "go"),
    "wanna": ("wants to", "want to"),  # "I wanna help" -> "Caroline wants to help"
    "gotta": ("has to", "have to"),
}
_CONTRACTED = {  # I'm -> Melanie is / she's ...
    "i'm": ("is", "are"),
    "i've": ("has", "have"),
    "i'll": ("will", "will"),
    "i'd": ("would", "would"),
}
# Past forms that take no -s (a regular past ends in -ed and is left alone).
_PAST = frozenset(
    [
        "went",
        "got",
        "became",
        "said",
        "paid",
        "put",
        "bought",
        "sold",
        "took",
        "left",
        "ran",
        "grew",
        "flew",
        "sat",
        "met",
        "felt",
        "found",
        "thought",
        "read",
        "wrote",
        "led",
        "spent",
        "taught",
        "made",
        "gave",
        "kept",
        "let",
        "set",
        "cut",
        "quit",
        "ate",
        "drank",
        "sang",
        "saw",
        "came",
        "knew",
        "told",
        "heard",
        "began",
        "won",
        "lost",
        "brought",
        "caught",
        "fell",
        "held",
        "stood",
        "understood",
        "was",
        "were",
        "had",
        "did",
        "built",
        "sent",
        "lent",
        "bent",
        "dealt",
        "meant",
        "slept",
        "burnt",
        "learnt",
        "dreamt",
        "shot",
        "hit",
        "hurt",
        "won",
        "drove",
        "rode",
        "wore",
        "broke",
        "chose",
        "spoke",
        "woke",
        "swam",
        "threw",
        "drew",
        "forgot",
    ]
)


def _third_singular(verb: str) -> str:
    low = verb.lower()
    if low in _AGREE:
        return _AGREE[low][0]
    if low in _PAST or low in _MODALS or low.endswith(("ed", "s")) or not low.isalpha():
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def third_person(text: str, speaker: str, pronoun: str = "they") -> str:
    """Text with the speaker's first-person words in third person. Sentences stay as they are
    otherwise; with no speaker the text is returned unchanged."""
    if not speaker:
        return text
    forms = PRONOUNS.get(pronoun, PRONOUNS["they"])
    subj, obj, poss, poss_pron, refl = forms
    out: list[str] = []
    plural = False  # the new subject is "they"
    named = False  # the name said once per sentence, pronouns after it
    agree_next = False  # the word after a new singular subject is its verb
    for tok in _TOKEN.findall(text):
        low = tok.lower().replace("’", "'")
        if re.fullmatch(r"[^A-Za-z]+", tok):
            out.append(tok)
            if re.search(r"[.!?]", tok):
                named = False
            continue
        if agree_next:
            if low in _ADVERBS or _ADVERB_LY.fullmatch(low):
                out.append(tok)
                continue
            agree_next = False
            if tok[:1].islower():
                out.append(_PLURAL.get(low, tok) if plural else _third_singular(tok))
                continue
        if low == "i" or low in _CONTRACTED:
            who = subj if named else speaker
            if low in _CONTRACTED:
                one, many = _CONTRACTED[low]
                out.append(f"{who} {many if who == 'they' else one}")
            else:
                out.append(who)
                agree_next = True  # "Caroline wishes", "they were"
                plural = who == "they"
            named = True
        elif low in ("me", "my", "mine", "myself"):
            if low == "myself":
                out.append(refl if named else speaker)
            elif low == "me":
                out.append(obj if named else speaker)
            elif low == "my":
                out.append(poss if named else f"{speaker}'s")
            else:
                out.append(poss_pron if named else f"{speaker}'s")
            named = True
        else:
            out.append(tok)
    return _capitalise_sentences("".join(out))


def _capitalise_sentences(text: str) -> str:
    """A pronoun that opens a sentence ("she has ...") takes a capital."""
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
