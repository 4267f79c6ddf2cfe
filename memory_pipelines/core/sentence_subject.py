"""A chat sentence said without its subject, given one back: "Took a trip to Rome" -> "I took
a trip to Rome", "Excited for the trip!" -> "I'm excited for the trip!"; and a sentence led by
a gerund said for the speaker ("Losing my job was tough" -> "For me, losing my job was tough").
core/sentence_forms.py takes off what is no part of a sentence (openers, labels, asides).
Pure Python.
"""

from __future__ import annotations

import re

from memory_pipelines.core.past_tense import IRREGULAR_PAST, NOT_PAST

# Participles that describe a state of mind ("Excited for the trip!" -> "I'm excited ...").
# fmt: off
_AFFECT = frozenset([
    "excited", "thrilled", "stoked", "tired", "bored", "scared", "worried", "pleased", "amazed",
    "blessed", "interested", "obsessed", "surprised", "delighted", "exhausted", "stressed",
    "overwhelmed", "inspired", "motivated", "impressed", "honored", "honoured", "touched",
    "relieved", "glad", "proud", "happy", "sad", "bummed",
])
# fmt: on
# -ing words that are adjectives ("Exciting but scary!"), and words after an -ing word that
# show it is no verb with an object ("Amazing how ...", "Refreshing, really").
# fmt: off
_ADJECTIVE_ING = frozenset([
    "amazing", "exciting", "interesting", "inspiring", "relaxing", "rewarding", "boring",
    "annoying", "amusing", "touching", "stunning", "refreshing", "challenging", "overwhelming",
    "surprising", "satisfying", "fascinating", "encouraging", "heartwarming", "terrifying",
    "frustrating", "exhausting", "charming", "thrilling", "calming", "soothing", "nerve-wracking",
    "breathtaking", "humbling",
])
# fmt: on
# fmt: off
_NOT_OBJECT = frozenset([
    "but", "and", "or", "how", "what", "that", "so", "too", "as", "if",
])
# fmt: on
_LEAD_ADVERB = r"(?:(?:still|just|also|recently|finally|really|totally|actually)\s+)?"
_FIRST = re.compile(
    rf"^(?P<adv>{_LEAD_ADVERB})(?P<word>[A-Za-z]+)\b(?P<rest>.*)$", re.DOTALL | re.I
)
# A verb after a gerund subject: "Seeing my kids smile was awesome", "Painting helps me",
# "Stripping the BOM fixes that".
_FINITE = re.compile(
    r"\b(?:is|was|are|were|has|have|had|does|did|can|could|will|would|should|must|makes?|"
    r"helps?|means?|gives?|keeps?|feels?|seems?|brings?|takes|needs|requires|costs|pays|matters|"
    r"sounds|looks|gets|goes|reminds|relaxes|calms|saves|changes|teaches|builds|shows|proves|"
    r"creates)\b|\b\w+n't\b|"
    # a past with its object: "Having support really helped me out", "filled me with hope"
    r"\b\w+ed (?:me|us|him|her|them)\b|"
    r"\b(?!(?:it|that|there|here|he|she|we|they|you|i|what|who)')\w+'(?:s|re|ve|ll|d)\b|"
    r"\b\w+s (?:me|my|us|our|him|his|her|them|their|it|you|your|that|this|the|a|an)\b|"
    # an adverb before a verb in -s: "Networking really pays off"
    r"\b(?:really|always|never|just|totally|definitely|also|often|usually)\s+\w+[^s\W]s\b",
    re.IGNORECASE,
)


# A sentence that opens with a negated auxiliary or a verb of wishing and thanking, its "I"
# left out: "Won't let anything hold me back", "Wish I was that resilient", "Appreciate the
# support". Not "Don't ..." (an imperative) nor "Wasn't easy" (its subject is "it").
_DROPPED_I = re.compile(
    r"^(?:(?:won't|can't|didn't|haven't|hadn't|couldn't|wouldn't|shouldn't)\s+(?!be\b)[a-z]+|"
    r"(?:wish|appreciate|miss)\s+(?:i|my|the|that|it|this|those|these|all|every|having|being)\b)",
    re.IGNORECASE,
)


# Verbs in -s before "me" whose left-out subject is no "it": "Sounds like", "Looks like" and
# "Thanks" are reactions, "Is" and "Does" ask.
_NOT_IT = frozenset(["is", "was", "has", "does", "sounds", "looks", "thanks", "seems", "guess"])


_RESUMED = re.compile(r"\s[-\u2013\u2014]+\s+(?:it|that)\s+was\b", re.I)
_FOR_ME = re.compile(r"\bfor me\b", re.IGNORECASE)
# Pasts whose left-out subject, before "me", is what the speaker just told ("Made me think",
# "Taught me patience"); before any other past ("Told me he's moving") it is somebody unsaid.
_DID_TO_ME = frozenset(["made", "got", "helped", "taught", "reminded", "inspired", "kept"])
# What a person is, for good or for now, said without "I'm" ("Allergic to penicillin btw",
# "Diabetic, type 1", "Single again lol"), when what follows is no noun it qualifies ("Vegan
# food is great").
# fmt: off
_CONDITION = frozenset([
    "allergic", "intolerant", "diabetic", "asthmatic", "epileptic", "coeliac", "celiac", "vegan",
    "vegetarian", "pescatarian", "pregnant", "married", "engaged", "divorced", "separated",
    "single", "widowed", "retired", "sober", "teetotal", "deaf", "blind", "colourblind",
    "colorblind", "afraid", "terrified", "unemployed", "self-employed", "redundant",
])
# fmt: on
_AFTER_CONDITION = re.compile(
    r"\s*(?:$|[,.!;:\u2013\u2014-]|(?:to|of|with|since|for|from|again|now|btw|too|as|and|but|lol|"
    r"tbh|haha|though|these|at|in|already|yet|still|like)\b)",
    re.IGNORECASE,
)
_NOT_A_COMPLEMENT = frozenset(
    ["a", "an", "the", "some", "my", "his", "her", "their", "our", "this", "that", "to", "home"]
)


# A question typed without its mark: an auxiliary, then who it asks about ("did mum get her
# 400", "does he know"); not "did my first 5k today" (the speaker's doing, its "I" left out)
_ASKED_UNMARKED = re.compile(
    r"^\W*(?i:did|does|do|can|could|will|would|should|has|have|is|are|was|were)\s+"
    r"(?:(?i:you|u|he|she|they|we|it|i|mum|mom|mam|dad|papa|your|ur)|(?-i:[A-Z][a-z]+))\b"
)


def with_subject(sentence: str) -> str:
    """A sentence whose subject (I) was left out, with it put back: "Took a trip to Rome" ->
    "I took a trip to Rome", "Still working on the studio" -> "I'm still working on the
    studio". Questions, a gerund that is the subject ("Painting helps me relax") and an
    adjective ("Exciting but scary") are left alone."""
    m = _FIRST.match(sentence)
    if m is None or sentence.rstrip().endswith("?") or _ASKED_UNMARKED.match(sentence):
        return sentence
    if _DROPPED_I.match(sentence):
        return f"I {sentence[:1].lower()}{sentence[1:]}"  # "Won't let anything stop me"
    adv, word, rest = m.group("adv").lower(), m.group("word"), m.group("rest")
    low = word.lower()
    after = rest.split()[:1]
    # "Jared went", "Fred and I": the first word is the subject (not "Got promoted")
    subject_first = r"and|is|was|has|had|will|would|said|says" + ("" if low == "got" else r"|\w+ed")
    if after and re.fullmatch(subject_first, after[0].lower()):
        return sentence
    if after and after[0].lower() in IRREGULAR_PAST:
        return sentence
    clause = re.split(r"[;:—–]| - ", rest, maxsplit=1)[0]
    said = f"{adv}{low}{rest}"
    if low == "been" and after:
        for_me = _FOR_ME.search(clause) and not after[0].lower().endswith("ing")
        if after[0].lower() in ("a", "an", "the", "so", "such") or for_me:
            return f"It's {said}"  # "Been a long road, but ...", "Been hectic for me": it has
        return f"I've {said}"  # "Been busy with the studio"
    if low.endswith("s") and after and after[0].lower() in ("me", "us") and low not in _NOT_IT:
        return f"It {said}"  # "Reminds me how much I love performing": it (the picture) does
    if rest[:1] in ("'", "’"):
        return sentence  # "Parenting's such a big responsibility": the word is the subject
    if low == "gonna" and re.match(r"\s+be (?:a|an|the|so|such|\w+er)\b", rest, re.I):
        return f"It's {said}"  # "Gonna be a big change": what is coming, not the speaker
    if low in _AFFECT or low == "gonna" or (low in _CONDITION and _AFTER_CONDITION.match(rest)):
        return f"I'm {said}"  # "Excited for the trip", "Gonna volunteer next month"
    if low in ("gotta", "wanna"):
        return f"I {said}"
    past = low in IRREGULAR_PAST or (low.endswith("ed") and len(low) >= 5 and low not in NOT_PAST)
    # "Roasted chicken is my favourite": a participle before its noun, and "is" the verb
    adjective = re.match(r"\s+[a-z-]+\s+(?:is|are|was|were)\b", rest, re.IGNORECASE)
    if past and after and after[0].lower() == "me":
        # "Really made me proud": what was told did it to the speaker, never the speaker; a
        # thing given ("Gave me a hug") or a place ("Took me to dinner") says not what did it
        object_next = rest.split()[1:2] and rest.split()[1].lower() in _NOT_A_COMPLEMENT
        return f"It {said}" if low in _DID_TO_ME and not object_next else sentence
    if past and not adjective:
        return f"I {said}"
    verb_ing = (
        low.endswith("ing")
        and len(low) >= 6
        and low not in _ADJECTIVE_ING
        and not low.endswith("thing")  # "Nothing beats a good meal": no gerund, its own subject
    )
    finite = _FINITE.search(clause) or IRREGULAR_PAST & set(clause.lower().split())
    # "Just seeing the sun dip below the horizon - it was amazing": the doing is the subject,
    # taken up again by "it" after the dash
    resumed = _RESUMED.search(rest)
    if verb_ing and after and after[0].lower() not in _NOT_OBJECT and not finite and not resumed:
        return f"I'm {said}"
    return sentence


_THIRD_OPENS = re.compile(r"^\W*(?P<pronoun>he|she)(?:['’]s\b|\s)", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|myself|mine)\b", re.IGNORECASE)
# The one a "he" or "she" is, as the owner of something in the sentence: "his gf"; "with her
# old boss" (not "told her", where she is the one told)
_OWNER = {
    "he": re.compile(r"\bhis\b", re.IGNORECASE),
    "she": re.compile(r"\b(?:with|to|for|in|at|of|on|from|and|by)\s+her\s+\w", re.IGNORECASE),
}


def with_subject_after(sentence: str, before: str | None) -> str:
    """`with_subject`, but a sentence that goes on from the "he" or "she" opening the sentence
    `before` it, and owns a thing as that one ("he's moved to bristol! got a flat with his gf":
    whose gf, were it the speaker's?), has that one for its subject, not the speaker; one that
    says the speaker ("told her I'm busy") keeps the speaker's."""
    given = with_subject(sentence)
    if before is None or not given.startswith("I ") or sentence.lower().startswith("i "):
        return given
    opens = _THIRD_OPENS.match(before)
    if opens is None or _FIRST_PERSON.search(sentence):
        return given
    pronoun = opens["pronoun"].lower()
    return pronoun.capitalize() + given[1:] if _OWNER[pronoun].search(sentence) else given


# Words in -ing that are nouns: no doing of anybody's.
_NOUN_ING = frozenset([
    "morning", "evening", "spring", "king", "ring", "wedding", "building", "ceiling", "clothing",
    "meeting", "ending", "pudding", "string", "sibling", "darling", "sing", "wing",
])  # fmt: skip
_TO_ME = re.compile(r"\b(?:to|for) me\b", re.IGNORECASE)
_GERUND_HEAD = re.compile(r"^\W*(?P<word>[A-Za-z]+ing)(?:'s)?\b")


def for_the_speaker(sentence: str) -> str:
    """A sentence led by a gerund in which the speaker is first met as "my", framed as
    said for the speaker: "Losing my job was tough" -> "For me, losing my job was tough", so
    that in third person it reads "For Jon, losing his job was tough", not "Losing Jon's job
    was tough" (whose job?). Anything else is left as it is."""
    head = _GERUND_HEAD.match(sentence)
    if head is None:
        return sentence
    word = head.group("word").lower()
    if word in _ADJECTIVE_ING or word in _NOUN_ING or word.endswith("thing"):
        return sentence  # "Amazing how ...", "Morning!", "Nothing beats ..."
    first = _FIRST_PERSON.search(sentence)
    if first is None or first.group().lower() != "my" or _TO_ME.search(sentence):
        return sentence  # "Dancing is second nature to me": said to whom, it names them
    start = head.start("word")
    return f"For me, {sentence[start].lower()}{sentence[start + 1 :]}"
