"""Whether a sentence only tells a mood: how somebody feels or what they resolve, in words that
name nothing ("It's tough but I'm determined"). A sentiment lexicon, not a list of sentences.
Pure Python."""

from __future__ import annotations

import re

from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.concrete import life_event

# How a person feels or what they resolve, in words that name nothing: "It's tough but I'm
# determined", "I won't quit on my dreams", "It's been a wild ride". A sentence with fewer than
# two other content words is a mood, no fact (a sentiment lexicon, not a list of sentences).
# fmt: off
MOOD_WORDS = frozenset([
    "good", "great", "awesome", "amazing", "cool", "nice", "fun", "tough", "hard", "easy",
    "difficult", "wild", "crazy", "rough", "scary", "exciting", "excited", "happy", "sad", "glad",
    "proud", "grateful", "thankful", "lucky", "blessed", "sure", "confident", "ready",
    "determined", "positive", "hopeful", "motivated", "inspired", "inspiring", "pumped", "stoked",
    "thrilled", "nervous", "scared", "worried", "stressed", "overwhelmed", "tired", "busy",
    "special", "best", "better", "worse", "worth", "feel", "feeling", "felt", "feels", "love",
    "loved", "loving", "hope", "hoping", "hoped", "give", "giving", "gave", "quit", "quitting",
    "stop", "keep", "keeping", "going", "gonna", "gotta", "wanna", "make", "making", "happen",
    "push", "pushing", "forward", "dream", "dreams", "goal", "goals", "passion", "journey",
    "ride", "way", "thing", "things", "stuff", "lot", "life", "moment", "moments", "time",
    "times", "really", "definitely", "totally", "super", "pretty", "kinda", "sorta", "truly",
    "honestly", "frankly", "seriously", "literally", "basically", "genuinely", "lot", "much",
    "still", "even", "always", "never", "anything", "everything", "something", "nothing", "can't",
    "won't", "don't", "isn't", "it's", "that's", "i'm", "i've", "i'll", "i'd", "ain't", "bit",
    "kind", "mix", "wait", "trying", "try", "tried", "stay", "staying", "work", "working", "today",
    "tonight", "lol", "haha", "ugh", "omg",
    "hardwork", "hardworking", "new", "more", "much", "though", "there", "each", "other",
    "whatever", "come", "comes", "looking", "chapter", "process", "ton", "tons", "memories",
    "memory", "vibes", "vibe", "upbeat", "hanging", "savor", "savour",
    # how the body feels this moment: "I'm still full", "it's so hot, I'm melting"
    "full", "stuffed", "starving", "hungry", "thirsty", "melting", "freezing", "boiling", "hot",
    "exhausted", "knackered", "wrecked", "shattered", "drained", "sleepy", "hungover", "doomed",
    "bored", "wiped", "destroyed", "same",
])
# fmt: on


def is_mood(sentence: str) -> bool:
    """Whether a sentence tells only how somebody feels or what they resolve."""
    words = sentence_kinds.content_words(sentence) - MOOD_WORDS
    if len(words) >= 2 or re.search(r"\d|\b[A-Z][a-z]+\b", sentence[1:]):
        return False
    # "I got engaged": a life changed, no feeling; "I'm working at the library now": a place
    places = (m["thing"].lower() for m in _PLACE.finditer(sentence))
    return not (life_event(sentence) or any(p not in MOOD_WORDS for p in places))


# A place somebody is at or in, named: "at the library", "in a bakery"; not a time ("at the
# moment", "in the end", "in a bit") nor a word of mood ("at work", "in life").
_PLACE = re.compile(
    r"\b(?:at|in|from) (?:the|a|an) (?!(?:moment|end|morning|afternoon|evening|night|day|week|"
    r"weekend|minute|second|bit|while|mo|meantime|mood|zone|way|past|future|long run|time)\b)"
    r"(?P<thing>[a-z][a-z-]{2,})\b",
    re.IGNORECASE,
)
