"""A sentence that points back is kept with the sentence it points to.

"I loved 'Becoming Nicole' by Amy Ellis Nutt. It made me feel connected and gave me hope."
Kept alone, the second sentence becomes "It made Caroline feel connected": a memory that
cannot say what "it" is. So a kept sentence whose subject points back (it, this, that, they,
these, those; not the "it" of "It's great to ...") is joined to the statement before it in the
same turn, and to the one before that when that one points back too. When the statement it
points to is kept itself, both become one item, of that one's category. A promise and a safety
fact are left as they are (core/promises.py reads who owes what to whom from the promise
alone; a safety fact is never changed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from memory_pipelines.core.corrections import correction
from memory_pipelines.core.health_safety import MEDICINE
from memory_pipelines.core.judge_lexicon import SENTENCE_VERBS, STOPWORDS, words

# A sentence that opens with a pronoun or a demonstrative points back: "It reminds me why I love
# being a mom". Not a dummy "it" ("It's great to ..."). core/extract.py reads it too: such a
# sentence opening a turn points to the speaker's turn before.
POINTS_BACK = re.compile(
    r"^\W*(?:it|this|that|they|these|those|he|she)\b(?!(?:'s| is| was) (?:\w+ ){0,2}(?:to|that|how|"
    r"when|seeing|being|having)\b)",
    re.IGNORECASE,
)
# "This necklace is ...", "These figurines remind me ...": a demonstrative with its own noun
# names what it speaks of; only a bare one points back ("This reminds me", "These remind me").
_DEMONSTRATIVE = re.compile(r"^\W*(?:this|that|these|those)\s+[a-z]", re.IGNORECASE)
_ADVERB = r"(?:(?:really|always|just|also|all|truly|still|definitely|never)\s+)?"
_MODAL = r"is|was|are|were|has|have|had|will|would|can|could|might|must|should"
_BARE = re.compile(
    rf"^\W*(?:(?:this|that)\s+{_ADVERB}(?:{_MODAL}|\w+s|\w+ed|made|gave|kept|took|brought|"
    rf"felt|meant|got)|(?:these|those)\s+{_ADVERB}(?:{_MODAL}|\w+ed|remind|make|help|give|keep|"
    r"mean|show|bring|get|feel|look|sound|seem|let|take|stand|represent|are))\b",
    re.IGNORECASE,
)
# Only he or she said of a person named before is no loose end: those stay as they are.
_PERSON = re.compile(r"^\W*(?:he|she)\b", re.IGNORECASE)
MAX_JOINED = 2  # statements joined before one that points back
MAX_CHARS = 320


# A note with no verb of its own ("And I got the promotion! Senior analyst from January 1st.")
# says more of the statement before it: kept alone it is about nobody.
_AUXILIARIES = frozenset(
    [
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "'s",
        "'re",
        "'ve",
        "'ll",
        "'d",
    ]
)
_NOTE_WORDS = 8


def elliptical(sentence: str) -> bool:
    """Whether a short sentence has no verb: a note that continues the one before it. A word
    in -ed or -ing counts as a verb ("Something happened", "adding it"), as does a contraction."""
    toks = [t.lower().replace("’", "'") for t in words(sentence)]
    if not toks or len(toks) > _NOTE_WORDS:
        return False
    return not any(
        (t in SENTENCE_VERBS or t in _AUXILIARIES or t.endswith(_VERB_ENDS))
        and not _NAMING.match(" ".join(toks[i - 1 : i + 1]))
        for i, t in enumerate(toks)
    )


_VERB_ENDS = ("'s", "'m", "'re", "'ve", "'ll", "'d", "n't", "ed", "ing")
# "a cocker spaniel called Fig": a name given after a noun, no verb of the note's own (not "she
# called", "was named")
_NAMING = re.compile(
    r"^(?!(?:i|we|you|he|she|they|it|who|was|were|is|are|be|been|being|got|get)\s)"
    r"\w+\s(?:called|named)$"
)


_SUBJECTS = frozenset(["i", "you", "he", "she", "we", "they", "it", "this", "that", "there"])
_NOTE_MAX = 5


def bare_note(sentence: str) -> bool:
    """Whether a sentence is a short note with neither subject nor auxiliary ("fire hazard",
    "like epipen-level allergy"), which says what the sentence before it is. Its words may be
    forms of verbs too ("fire", "like"), so it is read by what it lacks, not by `elliptical`'s
    verb list."""
    toks = [t.lower().replace("’", "'") for t in words(sentence)]
    return 0 < len(toks) <= _NOTE_MAX and not any(
        t in _SUBJECTS or t in _AUXILIARIES or "'" in t for t in toks
    )


# "them" ending a clause ("I can't stand them, the texture is just wrong"): its object
_THEM = re.compile(r"\bthem\b(?=\s*(?:[,.;:!?]|$))", re.IGNORECASE)
# A plural said of things in general: the whole of a short answer ("mushrooms.", "raw
# onions") or after a preposition ("stuff with mushrooms"); not one's own things ("I bought new
# running shoes. Love them": not every shoe), which "them" would make a taste for all of them.
_PLURAL = re.compile(
    r"(?:^\W*(?P<whole>(?:[a-z-]+\s+)?[a-z-]{2,}s)|\b(?:with|of|about|like|without|any|no|and|or)"
    r"\s+(?P<after>[a-z-]{2,}s))(?:\W+(?:please|pls|plz))?\W*$",
    re.IGNORECASE,
)
_LIKED = re.compile(r"^(?:love|hate|adore|loathe|detest)\b", re.IGNORECASE)


def them_named(sentence: str, before: str) -> str:
    """The sentence with a "them" that ends its clause put as the things in general its turn's
    sentence just before ends on (`_PLURAL`): "mushrooms. can't stand them" -> "can't stand
    mushrooms" ("pls stop suggesting stuff with mushrooms 🤢 I can't stand them"). Kept alone,
    the dislike was of nothing. Unchanged when "them" is said twice or the sentence before
    ends on no such plural (a verb, "this", one's own things)."""
    at = _THEM.search(sentence)
    plural = _PLURAL.search(before)
    if at is None or len(re.findall(r"\bthem\b", sentence, re.I)) != 1 or plural is None:
        return sentence
    noun = plural.group("whole") or plural.group("after")
    low = noun.lower().split()[-1]
    if low in STOPWORDS or low in SENTENCE_VERBS or low.endswith(("ss", "us", "is")):
        return sentence
    said = sentence[: at.start()] + noun.lower() + sentence[at.end() :]
    if _LIKED.match(said):  # "hate them": the speaker's, said without "I"
        return f"I {said[:1].lower()}{said[1:]}"
    return said


# "Playing it helps me get my emotions out", "I also use it to speak up", "I haven't tried them
# yet": the thing is named only before the sentence. An "it" or "them" in the sentence's first
# clause with no noun phrase before it there (no determiner, no name: "I bought a guitar and
# love it" names its own) points back as a bare subject does. Not the "it" of a clause or an
# idiom: "find it hard to", "love it when", "made it to the final", "we'll make it", "get it";
# nor the subject of a clause joined on ("I'm passionate about dancing and it brings me joy").
_OBJECT_BACK = re.compile(
    r"(?:(?:my|our)\s+[a-z]+\s+)?"  # the speaker's own one does it ("my doc wants to up it")
    r"(?:(?!(?:a|an|the|this|that|these|those|my|our|his|her|their|your|its|some|every|each|"
    r"one|what|which|who|if|when|because|there|it|them|they)\b)[a-z][a-z']*\s+){1,7}"
    r"(?<!\band )(?<!\bbut )(?<!\bso )(?<!\bor )(?<!\bas )(?:it|them)\b"
    r"(?!\s+(?:\w+\s+)?(?:that|how|when|if|seeing|being|having)\b|\s+\w+\s+to\b)"
    r"(?!'s|'ll|\s+(?:is|was|all)\b)",
)
_OPENER = re.compile(r"^\W*(?:(?:yeah|yes|yep|oh|and|so|but|well|honestly|actually|also)\W+)*")
_IDIOM = re.compile(
    r"\b(?:mak(?:e|es|ing)|made)\s+it(?:\s+(?:to|through|back|home|work|happen)\b|\W*$)"
    r"|\b(?:get|got)\s+it\W*$|\b(?:on|at)\s+it\W*$|\bthat'?s\s+it\b",
    re.IGNORECASE,
)


# ... and after a preposition whatever comes before: "I never leave the house without it"
_AFTER_PREPOSITION = re.compile(
    r"^(?:i|we)\b(?:(?!\band\b)[^,;])*?\b(?:without|with|about|of|for|from|into|on|in|at)\s+"
    r"(?:it|them)\b(?!'s|\s+(?:is|was)\b)"
)


def object_points_back(sentence: str) -> bool:
    """Whether the first clause's object is a bare "it" or "them" standing for what was said
    before the sentence (`_OBJECT_BACK`, `_AFTER_PREPOSITION`)."""
    said = sentence[_OPENER.match(sentence.lower()).end() :]  # type: ignore[union-attr]
    first = re.split(r"[,;:\u2013\u2014]|\s-\s", said, maxsplit=1)[0].lower()
    at = _OBJECT_BACK.match(first) or _AFTER_PREPOSITION.match(first)
    return at is not None and not _IDIOM.search(first[: at.end() + 12])


def medicine_named(sentence: str, before: Sequence[str]) -> str:
    """The sentence with the bare "it" its first clause takes as object put as the one medicine
    the speaker named just before (`before`, oldest first): "I've been on sertraline 50mg for a
    year" ... "my doc wants to up it to 100mg" -> "my doc wants to up sertraline to 100mg". A
    change of a dose kept as "wants to up it" says of nothing what changed. Unchanged when the
    nearest of `before` that names a medicine names two, or none does."""
    if not object_points_back(sentence):
        return sentence
    clause = re.split(r"[,;:\u2013\u2014]|\s-\s", sentence, maxsplit=1)[0]
    it = re.search(r"\bit\b", clause, re.IGNORECASE)
    if it is None:
        return sentence
    medicine = _medicine_before(before)
    return (
        sentence if medicine is None else sentence[: it.start()] + medicine + sentence[it.end() :]
    )


def _medicine_before(before: Sequence[str]) -> str | None:
    """The one medicine the nearest of `before` (oldest first) that names any names, as first
    said there; None when it names two, or none does."""
    for text in reversed(before):
        named = [m.group() for m in MEDICINE.finditer(text)]
        if named:
            return named[0] if len({n.lower() for n in named}) == 1 else None
    return None


# A dose: "50mg", "0.625 mg", "2 ml", "100 mcg" (not the old one a correction names: "100mg,
# not 50mg")
_DOSE = re.compile(r"(?<!not )\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|g|iu|units?)\b", re.I)


def dose_of(sentence: str, before: Sequence[str]) -> str:
    """A dose said without its medicine, with the one medicine the speaker named just before:
    "could sertraline mess with sleep?" / "I take 50mg every morning" -> "I take 50mg of
    sertraline every morning". Unchanged when the sentence names a medicine itself, or the
    nearest of `before` (oldest first) that names one names two."""
    dose = _DOSE.search(sentence)
    if dose is None or MEDICINE.search(sentence) or re.match(r"\s+of\b", sentence[dose.end() :]):
        return sentence
    medicine = _medicine_before(before)
    return (
        sentence
        if medicine is None
        else f"{sentence[: dose.end()]} of {medicine}{sentence[dose.end() :]}"
    )


def medicine_asked_of(question: str, before: Sequence[str]) -> str:
    """A question's one "it" put as the one medicine the turn before it named: "doc bumped my
    sertraline to 100mg" / "Did they say when to take it?" is asked of sertraline, and the
    answer kept with it ("mornings w food") is then a fact of the drug. Unchanged when the
    question holds no "it" or more than one, or the nearest of `before` (oldest first) that
    names a medicine names two."""
    its = list(re.finditer(r"\bit\b(?!['’])", question, re.IGNORECASE))
    if len(its) != 1:
        return question
    medicine, it = _medicine_before(before), its[0]
    return (
        question if medicine is None else question[: it.start()] + medicine + question[it.end() :]
    )


# "been there since march", "we lived there till 2019": a "there" after a verb is a place said
# before the sentence. Not the "there" of being ("there's four", "is there"), nor of a greeting
# or an idiom ("hi there", "out there", "here and there"), nor one whose place the clause names
# before it ("moved to Leeds and love it there").
_THERE = re.compile(
    r"^(?P<before>[^,;:]*?[a-z']\s+)there\b"
    r"(?!['’]s|\s+(?:is|are|was|were|will|would|has|have|had|must|might|may|seems?|used)\b)",
    re.IGNORECASE,
)
_NO_PLACE = re.compile(
    r"\b(?:out|hi|hey|hello|so|and|here|is|are|was|were|isn't|aren't)\s+$", re.IGNORECASE
)
_PLACE_NAMED = re.compile(r"\b(?:to|in|at|from|near|into|on)\s+(?:the\s+)?[A-Z]")


def place_points_back(sentence: str) -> bool:
    """Whether the sentence's first clause says "there" of a place it does not name (`_THERE`)."""
    said = sentence[_OPENER.match(sentence.lower()).end() :]  # type: ignore[union-attr]
    at = _THERE.match(said)
    return at is not None and not (
        _NO_PLACE.search(at["before"]) or _PLACE_NAMED.search(at["before"])
    )


def points_back(sentence: str) -> bool:
    """Whether the sentence's subject is a bare pronoun or demonstrative standing for what was
    said before it, its first clause's object is a bare "it" or "them" (`_OBJECT_BACK`), or
    its place a bare "there" (`place_points_back`)."""
    if _PERSON.match(sentence):
        return False
    if not POINTS_BACK.match(sentence):
        return object_points_back(sentence) or place_points_back(sentence)
    return not _DEMONSTRATIVE.match(sentence) or bool(_BARE.match(sentence))


def _speaker_clause(sentence: str) -> bool:
    """Whether "I" or "we" and a word after it say something of the speaker, whatever the verb
    ("btw i wfh mondays and fridays"): no note on the sentence before it."""
    toks = [t.lower() for t in words(sentence)]
    return any(
        t in ("i", "we") and n not in ("and", "or") for t, n in zip(toks, toks[1:], strict=False)
    )


def joined(first: str, then: str) -> str:
    """Two sentences as one item ("A. B." -> "A; b.")."""
    head = first.rstrip().rstrip(".!")
    if re.match(r"I\b(?!')|I'(?:m|ve|ll|d)\b", then):  # "I" keeps its capital
        return f"{head}; {then}"
    return f"{head}; {then[:1].lower() + then[1:]}"


def with_antecedents(
    kept: Sequence[tuple[int, str, str]], told: Mapping[int, str], pictured: bool = False
) -> dict[int, str]:
    """`kept`: (index in the turn, sentence, category) of the sentences to keep; `told`: index ->
    each statement of the turn that a sentence after it may point to. Returns index -> the text
    to keep for it, each sentence that points back joined to what it points to; a sentence
    joined into the kept one it points to has no entry of its own. `pictured`: the turn shows a
    picture, which "this" or "that" most likely stands for ("This was my trip last year")."""
    texts: dict[int, str] = {}
    holder: dict[int, int] = {}  # index -> the kept entry its words went into
    promised = {n for n, _, category in kept if category == "commitment"}
    for n, sentence, category in sorted(kept):
        loose = points_back(sentence) and not (pictured and _DEMONSTRATIVE.match(sentence))
        # "it's Dr. Mbatha, not Mbeki" puts a value right (core/corrections): it points back
        # to the sentence that said the old one, which is no antecedent to join it to
        loose = loose and correction(sentence) is None
        loose = loose or (elliptical(sentence) and not _speaker_clause(sentence))
        if category == "commitment" or not loose or n - 1 not in told:
            texts[n] = sentence
            holder[n] = n
            continue
        into = holder.get(n - 1)
        if into in promised:  # a promise keeps its own words: this one stays alone
            texts[n] = sentence
            holder[n] = n
            continue
        if into is not None and len(texts[into]) + len(sentence) <= MAX_CHARS:
            texts[into] = joined(texts[into], sentence)  # what it points to is kept: one item
            holder[n] = into
            continue
        first = n - 1
        while (
            n - first < MAX_JOINED
            and first - 1 in told
            and first - 1 not in holder
            and points_back(told[first])
        ):
            first -= 1
        text = sentence
        for i in range(n - 1, first - 1, -1):
            if len(told[i]) + len(text) > MAX_CHARS:
                break
            text = joined(told[i], text)
        texts[n] = text
        holder[n] = n
    return texts
