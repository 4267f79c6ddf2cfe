"""Chat shorthand written out, so a memory reads plainly and is found by the words a question
uses: "took my fam camping" -> "took my family camping", "a pic of the new biz" -> "a picture
of the new business", "gonna" -> "going to". Whole words only; pure Python.
"""

from __future__ import annotations

import re

# fmt: off
_PLAIN = {
    "fam": "family", "biz": "business", "pic": "picture", "pics": "pictures", "vid": "video",
    "vids": "videos", "cuz": "because", "coz": "because", "'cause": "because", "bday": "birthday",
    "peeps": "people", "kinda": "kind of", "sorta": "sort of", "lemme": "let me",
    "gonna": "going to", "wanna": "want to", "tho": "though", "thru": "through",
    "convo": "conversation", "fave": "favorite", "faves": "favorites", "'bout": "about",
    "pls": "please",
}
# fmt: on
_WORD = re.compile(
    r"(?<![\w'])("
    + "|".join(re.escape(w) for w in sorted(_PLAIN, key=len, reverse=True))
    + r")(?!\w|'\w\w)",  # a possessive may follow: "the biz's website"
    re.IGNORECASE,
)


def plain_words(text: str) -> str:
    """Text with chat shorthand written out (a capital kept at the start of a word)."""

    def full(m: re.Match[str]) -> str:
        word = _PLAIN[m.group(1).lower()]
        return word[:1].upper() + word[1:] if m.group(1)[:1].isupper() else word

    return _WORD.sub(full, text)


# Contractions typed without their apostrophe, and "u" for "you": casual chat ("ok ok ill send
# u the slides by wednesday", "im off sugar", "dont give him ibuprofen"). Read as written
# out, the rules that know "I'll", "I'm" and "don't" read the sentence.
# fmt: off
_CONTRACTED = {
    "im": "I'm", "ive": "I've", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't",
    "cant": "can't", "wont": "won't", "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't",
    "werent": "weren't", "couldnt": "couldn't", "shouldnt": "shouldn't", "wouldnt": "wouldn't",
    "havent": "haven't", "hasnt": "hasn't", "hadnt": "hadn't", "youre": "you're",
    "theyre": "they're", "thats": "that's", "whats": "what's", "hows": "how's",
    "wheres": "where's", "u": "you", "i": "I",
    # the days of chat, spelled short: "i'll pick the car up tmrw after 5" is due tomorrow
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrow": "tomorrow", "2moro": "tomorrow",
    "2morrow": "tomorrow", "tomoz": "tomorrow", "tonite": "tonight", "2nite": "tonight",
    "2night": "tonight",
}
# "ill" is "I'll" before a verb ("ill send"), else the word ("I'm ill", "ill health")
_ILL_VERBS = (
    "be|do|send|get|bring|call|ring|text|email|let|check|pick|grab|drop|come|go|see|try|make"
    "|take|give|pay|sort|look|ask|tell|have|write|book|fix|finish|post|return|pop|swing|meet"
    "|buy|cover|handle|order|put|keep|remind|help|need|definitely|probably|just|also"
)
# fmt: on
_LOOSE = re.compile(r"(?<![\w'’-])(" + "|".join(_CONTRACTED) + r")(?![\w'’-])")
# ... or before any verb taking a person or a thing next: "ill venmo u", "ill toss it", "ill
# toss the advil" (not a preposition or a quantity: "ill with the flu", "ill most of the time")
_NOT_VERB = (
    "with|in|at|for|all|most|of|from|during|since|after|before|over|again|about|because|on|so"
    "|and|or|but|like|as|to|by|until|till|this|that|last|every|much|half|health|effects|will"
    "|feeling|feelings|treatment|advised|repute|temper|fortune|luck|intent"
)
_ILL = re.compile(
    rf"(?<![\w'’-])ill(?= (?:{_ILL_VERBS})\b| [a-z]+ (?:u|you|him|her|them|it)\b"
    rf"| (?!(?:{_NOT_VERB})\b)[a-z]+ (?:the|a|an|my|your|his|her|our|their|some)\b)"
)


# A name's "'s" before an age is "is" ("and Miso's 14 now", "Gran's 90 next week"), not whose:
# the number ends the clause or a word of time follows it ("Tom's 2 cats" stays).
_AGED = re.compile(
    r"(?<![\w'’])(?!(?:It|That|This|There|Here|What|Where|Who|He|She|Let)\b)([A-Z][a-z]+)['’]s"
    r"(?= \d{1,3}(?:\s*(?:$|[,.;:!?)]|(?:now|years?|yrs?|months?|weeks?|today|tomorrow|next"
    r"|this|in|on|and|but|so|already|soon|at)\b)))"
)


def with_apostrophes(text: str) -> str:
    """Casual chat's contractions written out ("im" -> "I'm", "ill send u" -> "I'll send
    you"); lower-case only, whole words only, so "IM", "Dont" as a name and "ill" as an
    adjective stay as they are. A name's "'s" before an age is "is" ("Miso's 14 now")."""
    text = _AGED.sub(r"\1 is", text)
    return _LOOSE.sub(lambda m: _CONTRACTED[m.group(1)], _ILL.sub("I'll", text))


# Laughter and emoji closing a message ("... so keep that in mind lol", "... all over the desk
# 🙃"): how it was said, nothing a memory keeps.
_LAUGH_TAIL = re.compile(
    r"(?:[\s,;:.!-]*(?:\b(?:lol|lmao|lmfao|rofl|ha(?:ha)+|he(?:he)+|xd)\b"
    r"|[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+))+[\s.!]*$",
    re.IGNORECASE,
)


# ... or closing a clause: "finally started the new job lol, data analyst at Kestrel"
_LAUGH_CLAUSE = re.compile(r"\s+(?:lol|lmao|ha(?:ha)+)(?=\s*[,;])", re.IGNORECASE)


def without_laughter(text: str) -> str:
    """The text without the laughter and emoji it ends on, or a clause of it ends on; the text
    itself when that is all."""
    text = _LAUGH_CLAUSE.sub("", text)
    m = _LAUGH_TAIL.search(text)
    if m is None or not text[: m.start()].strip(" ,;:-"):
        return text
    return text[: m.start()].rstrip(" ,;:-")
