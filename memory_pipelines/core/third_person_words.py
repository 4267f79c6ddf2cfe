"""The words third_person reads: adverbs and helping verbs that stand between a subject and its
verb, the irregular present and past forms, the verbs said of one subject after "and", and what
"our" shares with everybody. Kept apart from the rewrite itself (core/third_person.py)."""

from __future__ import annotations

import re

from memory_pipelines.core.past_tense import NOT_PAST, SIMPLE_PAST

# After a subject: words that do not change with it, so the verb after them agrees instead.
# fmt: off
ADVERBS = frozenset([
    "just", "also", "still", "always", "never", "often", "even", "only", "already", "sometimes",
    "usually", "really", "actually", "totally", "truly", "finally", "recently", "definitely",
    "certainly", "probably", "mostly", "generally", "now", "seldom", "ever", "once", "soon",
    "no", "longer",  # "I no longer eat meat"
    "both",  # "I both love and hate it"
])
# fmt: on

ADVERB_LY = re.compile(r"[a-z]{3,}(?<!p)ly")  # slowly, finally; not apply, reply, rely

PLURAL = {"was": "were", "am": "are", "wasn't": "weren't"}  # "I was" -> "they were"

# Words after a subject that never take -s ("Jon gotta", not "Jon gottas").
# fmt: off
MODALS = frozenset([
    "will", "would", "can", "could", "should", "might", "must", "may", "shall", "did", "was",
    "gotta", "gonna", "wanna",
])
# fmt: on

# Contractions and irregular present forms after I: (third person singular, plural "they").
AGREE = {
    "am": ("is", "are"),
    "have": ("has", "have"),
    "do": ("does", "do"),
    "don't": ("doesn't", "don't"),
    "haven't": ("hasn't", "haven't"),
    "go": ("goes", "go"),
    "wanna": ("wants to", "want to"),  # "I wanna help" -> "Caroline wants to help"
    "gotta": ("has to", "have to"),
}

CONTRACTED = {  # I'm -> Melanie is / she's ...
    "i'm": ("is", "are"),
    "i've": ("has", "have"),
    "i'll": ("will", "will"),
    "i'd": ("would", "would"),
}

# Past forms that take no -s (a regular past ends in -ed and is left alone): the irregular
# ones ("swore" had become "swores") and the pasts that are their base too ("put", "read").
# fmt: off
PAST = SIMPLE_PAST | frozenset([
    "put", "read", "let", "set", "cut", "quit", "hit", "hurt", "was", "were",
])
# fmt: on

# A past with a prefix ("retook", "rebuilt"); "-ed" that is none is past_tense.NOT_PAST.
PREFIXES = ("re", "over", "under", "mis", "out", "fore", "with")


def third_singular(verb: str) -> str:
    """A verb said after I as it agrees with she or he ("wish" -> "wishes", "go" -> "goes");
    a past, a modal or a form with -s stays as said."""
    low = verb.lower()
    if low in AGREE:
        return AGREE[low][0]
    # "retook", "misread", "overslept": a prefix before a past
    past = low in PAST or any(low.startswith(p) and low[len(p) :] in PAST for p in PREFIXES)
    if past or low in MODALS or (low.endswith("ed") and low not in NOT_PAST):
        return verb
    if low.endswith("s") or not low.isalpha():
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# Words that open a clause of another subject: a verb after "and" there is not the speaker's.
NEW_CLAUSE = frozenset(["they", "he", "she", "we", "who", "which", "how", "what", "when", "where"])

# Words after a subject that are never its verb ("I and my team won": no "ands").
# fmt: off
NO_VERBS = frozenset([
    "and", "or", "nor", "but", "so", "then", "too", "to", "of", "in", "on", "at", "with", "for",
    "from", "by", "as", "if", "because", "when", "who", "that", "which", "the", "a", "an",
])
# fmt: on

# Verbs said of the same subject after "and" ("I stay positive and find a way"): only these
# are read as verbs there; "and happy", "and more" are not.
# fmt: off
COORDINATED = frozenset([
    "find", "remember", "make", "take", "keep", "try", "love", "feel", "get", "go", "know",
    "think", "want", "need", "see", "look", "give", "help", "use", "work", "play", "stay",
    "come", "say", "tell", "ask", "start", "learn", "enjoy", "spend", "hope", "plan", "bring",
    "write", "run", "watch", "move", "live", "like", "believe", "remind", "appreciate",
    "realize", "focus", "share", "buy", "cook", "paint", "teach", "call", "check", "visit",
    "travel", "practice", "hike", "walk", "swim", "dance", "sing", "volunteer", "wish", "miss",
    "have", "carry", "wear", "eat", "drink", "own", "sleep", "drive", "ride", "study", "speak",
    "hate", "prefer", "avoid", "sell", "build", "fix", "grow", "raise", "coach", "manage",
    "lead", "attend", "collect", "rent", "follow", "support", "train", "read", "do", "relax",
    "rest", "explore", "improve", "finish", "save", "pay", "meet",
])
# fmt: on

# ... and the verbs an infinitive after "to" may open ("want to be with my family and have").
INFINITIVES = COORDINATED | {"be", "become", "stay"}

# What "our" shares with everybody, not with the speaker's own people: "our military", "the
# state of our education" are the military and education, never "his military".
# fmt: off
PUBLIC = frozenset([
    "military", "country", "nation", "society", "world", "planet", "government", "education",
    "democracy", "economy", "environment", "generation", "species", "culture", "veterans",
])

MASS = frozenset(["education", "society", "democracy", "culture"])  # said with no article
# fmt: on

# Helping verbs a question puts before its subject ("should I", "do I"), and the form of each
# that agrees with a third person (the others stay as said: "should she", "did she").
# fmt: off
ASKING = frozenset([
    "should", "shall", "can", "could", "would", "will", "might", "may", "must", "do", "did",
    "am", "have", "had", "was", "don't", "didn't", "can't", "won't", "shouldn't", "wouldn't",
    "couldn't", "haven't", "wasn't",
])
# fmt: on

ASKING_AGREES = {"do": "does", "am": "is", "have": "has", "don't": "doesn't", "haven't": "hasn't"}

# Past participles that do not end in -ed: "I'd known", "I'd been".
# fmt: off
PARTICIPLES = frozenset([
    "been", "gone", "seen", "done", "known", "taken", "given", "eaten", "written", "begun",
    "grown", "flown", "driven", "ridden", "broken", "chosen", "spoken", "woken", "thrown",
    "drawn", "shown", "forgotten", "gotten", "fallen", "swum", "sung", "drunk", "better",
])
# fmt: on
