"""Which sentences of a turn become memory items, judged sentence by sentence.

A turn between people mixes small talk and news: "Hey Jon, congrats on the fair! Oh, and BTW,
I started my own online clothing store." The greeting, the reaction and the question are no
memory; the news is, whatever the turn opens with. So each sentence is taken on its own: its
opener ("Yeah,", "Thanks, Mel!", "Oh, and BTW,") taken off, its dropped subject put back
("Took a trip to Rome" -> "I took a trip to Rome"), then kept when it is a save reason or a
statement about somebody, and not a hedge, a question, an echo of what was just said or a
remark to the listener. Health and safety sentences are always kept. Of the rest, the most
informative come first (core/extract.py keeps the spec's one or two per turn).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory_pipelines.core import policy, sentence_kinds
from memory_pipelines.core.antecedents import with_antecedents
from memory_pipelines.core.chat_asides import aside
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.promises import bookkeeping
from memory_pipelines.core.sentence_clauses import without_chat_time, without_mood_clause
from memory_pipelines.core.sentence_forms import (
    is_mood,
    with_subject,
    without_opener,
    without_picture_frame,
)
from memory_pipelines.core.speech_acts import SHOWN

CAPITALISED = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")
# fmt: off
NOT_ENTITIES = frozenset([
    "I", "The", "A", "An", "And", "But", "So", "Oh", "Hey", "Hi", "Yes", "No", "Yeah", "Wow",
    "Thanks", "Thank", "That", "This", "It", "What", "When", "Where", "How", "Why", "Who",
    "Which", "We", "You", "He", "She", "They", "My", "Our", "Your", "Just", "Well", "Okay", "Ok",
    "Sure", "Also", "Really", "Great", "Good", "Nice", "Awesome", "Cool", "Sounds",
])
# fmt: on


def without_bookkeeping(sentence: str) -> str:
    """The sentence without clauses that only keep a note ("...; I'll note it")."""
    clauses = re.split(r"(?<=[;,:])\s+|\s+(?=(?:and|so) (?:i|we)\b)", sentence)
    kept = [c for c in clauses if not bookkeeping(c)]
    if len(kept) == len(clauses):
        return sentence
    return " ".join(kept).strip(" ;,:") + ("." if kept else "")


# Cheering the listener on, or both: "Let's keep going!", "We'll get through this!".
_CHEER = re.compile(
    r"^\W*(?:let's|let us)\b|^\W*we(?:'ll| will) (?:get|make it|pull) through\b", re.I
)
# Small talk aimed at the listener ("Your kids look so happy!", "Sorry that happened to you")
# or about the conversation itself says nothing durable about anybody.
_LISTENER = re.compile(r"\b(?:you|your|you're|you've|yours|yourself|y'all)\b", re.IGNORECASE)
_SPEAKER = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b", re.IGNORECASE
)
_REACTION = re.compile(
    r"^\W*(?:wow|aw+|oh|ooh|haha|lol|yay|omg|that's|that is|sounds|so glad|glad|sorry|congrats|"
    r"congratulations|good luck|thanks|thank you|love (?:that|it|this)|what a|how|"
    r"that (?:really |truly )?means)\b",
    re.IGNORECASE,
)


# Advice or cheer to a person: "Don't give up!", "Keep going!", "Believe in yourself". Said to
# the assistant an instruction is a preference about the service ("Always use metric"); said to
# another person it is encouragement, no fact about anybody.
_IMPERATIVE = re.compile(
    r"^\W*(?:please\s+)?(?:don't|do not|never|always|keep|stay|remember|believe|take|go|make|"
    r"enjoy|let|try|hang|hold|stick|focus|trust|follow|chase|embrace|cherish|treat|give|tell|ask|"
    r"say)\b",
    re.IGNORECASE,
)


# "you" inside a relative clause only mentions the listener: "the book you recommended".
_YOU_MENTIONED = re.compile(
    rf"\b(?:the|that|this|those|these)\s+(?:[\w-]+\s+){{1,3}}you\s+{PAST_VERB}\b|"
    r"\bwhat you (?:said|suggested|told me|recommended|mentioned|showed me)\b",
    re.I,
)


def listener_named(sentence: str, listener: str) -> str:
    """The sentence with the listener it only mentions named: "the camera you recommended" ->
    "the camera Jon recommended" (read later, "you" would be nobody)."""
    return _YOU_MENTIONED.sub(lambda m: re.sub(r"\byou\b", listener, m.group(0)), sentence)


def addresses(sentence: str, listener: str) -> bool:
    """Whether a sentence speaks to the listener: "you", or their name set off by a comma
    ("Glad I could help, Jon!", "Mel, that's great"; not "We moved to Austin, Texas")."""
    if _LISTENER.search(_YOU_MENTIONED.sub(" ", sentence)):
        return True
    # the listener's name, or a short form of it ("Mel" for Melanie), set off by a comma
    called = re.search(r",\s*([A-Z][a-z]{2,})\W*$", sentence) or re.match(
        r"^\W*(?:\w+,\s*)?([A-Z][a-z]{2,})\s*,", sentence
    )
    return bool(called and listener[:3] == called.group(1)[:3])


_ME = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself)\b", re.IGNORECASE)
# "We" doing something: its verb, past ("We went", "we all donated", "We've got a pup"), right
# after it. A participle elsewhere ("It helps us stay connected", "reaching our goals keeps us
# motivated") is no event of theirs.
_HAPPENED = re.compile(
    r"\bwe(?:'ve| have| had)?\s+(?:(?:all|just|even|finally|both|also|recently|already|"
    r"then|actually|really)\s+)?(?:was|were|had|did|went|got|made|took|saw|met|\w+ed)\b"
    r"(?<!\bneed)",
    re.IGNORECASE,
)


_CONCRETE = re.compile(r"\d|\b[A-Z][A-Za-z]+\b")
# "Our import fails on ...", "Our landlord is ...": the speaker's own thing as the subject. Not
# "reaching our goals keeps us going" (no subject of theirs) or "our time together" (the two
# talking, a mood).
_OURS = re.compile(r"^\W*our\s+(?!own\b|time\b|talks?\b|chats?\b|friendship\b)\w+", re.I)
# A fix for what the turn before told: "Stripping the BOM before parsing fixes that", "Pinning
# the version solved it". The problem and its solution are one memory; the item's provenance
# starts at the problem (core/extract.py).
_FIX = re.compile(
    r"\b(?:fix(?:es|ed)?|solve[sd]?|resolve[sd]?|cure[sd]?|gets? rid of|works? around|"
    r"worked around)\s+(?:that|it|this|the (?:problem|issue|error|bug|crash|failure))\b",
    re.IGNORECASE,
)


def fixes_earlier(sentence: str) -> bool:
    """Whether a sentence gives the fix for a problem told before it ("... fixes that")."""
    return bool(_FIX.search(sentence)) and not sentence.rstrip().endswith("?")


def names_somebody(sentence: str) -> bool:
    """The speaker (first person) or a name after the first word: who the fact is about. A
    "we" alone is people in general or the two talking ("We make a great team", "It helps us
    grow") unless it tells what happened ("We went to the beach") or names something ("We
    meet at Dino's on Fridays")."""
    if _ME.search(sentence) or _OURS.match(sentence):
        return True
    if _SPEAKER.search(sentence) and (
        _HAPPENED.search(sentence) or _CONCRETE.search(sentence, len(sentence.split()[0]))
    ):
        return True
    return any(
        m.group(1).split()[0] not in NOT_ENTITIES
        for m in CAPITALISED.finditer(sentence, len(sentence.split()[0]))
    )


def _about_somebody(clause: str) -> bool:
    """Whether a clause names somebody, its dropped subject put back."""
    return names_somebody(with_subject(without_opener(clause)))


# What the speaker is, however short: "I'm a bridesmaid", "I'm an electrician".
# Not how they feel: "I'm a mess", "I'm a wreck".
_WHAT_I_AM = re.compile(
    r"^\W*(?:i'm|i am)\s+(?:a|an)\s+(?!(?:mess|wreck|fan|bit|lot)\b)[\w-]+\W*$", re.IGNORECASE
)


_I_AM = re.compile(r"^\W*(?:i'm|i am)\s", re.IGNORECASE)


def stands_alone(sentence: str, strong: bool, kind: str = "", listener: str = "") -> bool:
    """Whether a sentence could be a memory on its own: not a bare image caption, not a
    reaction, long enough to say something, and (unless it carries an explicit save reason)
    about somebody: "It was so vibrant" or "Cherish the moments" say nothing durable."""
    words = sentence.split()
    if sentence.lstrip().startswith("[image:"):
        return False
    if len(words) < 4 and not (_WHAT_I_AM.match(sentence) or (strong and _I_AM.match(sentence))):
        return False  # short, unless what the speaker is ("I'm vegetarian": a preference)
    if _REACTION.search(sentence):
        return False
    if addresses(sentence, listener) and (
        kind not in ("commitment", "decision_with_why", "hard_lesson")
        or not names_somebody(sentence)
    ):
        # Said to the listener ("I'm always here for you", "you've got this"): about the
        # conversation between them; a promise or a decision to the listener stays.
        return False
    if _CHEER.search(sentence):
        return False
    return strong or names_somebody(sentence)


def _antecedent(raw: str, sentence: str, role: str, listener: str) -> bool:
    """Whether a statement of the turn may be what a sentence after it points back to: not
    thanks or agreement ("Thanks, Caroline!" would leave "Caroline; it was Matt"), not a
    reaction, cheer or word to the listener ("You should try it" is no thing "it" stands for)."""
    return (
        len(sentence.split()) >= 3
        and sentence_kinds.sentence_kind(raw, role) not in ("ack", "greeting", "meta")
        and not _REACTION.search(sentence)
        and not _CHEER.search(sentence)
        and not addresses(sentence, listener)
    )


def is_echo(sentence: str, earlier: Sequence[str]) -> bool:
    """Whether a sentence only repeats what the earlier turns stated ("Right, the blue one")
    and adds no number. An answer to a question is no echo ("Any allergies?" "I'm allergic
    to peanuts"): only statements are compared."""
    said = [s for t in earlier for s in sentence_kinds.sentences(t) if not s.endswith("?")]
    words = sentence_kinds.content_words(sentence)
    if len(words) < 2 or not said:
        return False
    before = " ".join(said)
    if set(re.findall(r"\d+", sentence)) - set(re.findall(r"\d+", before)):
        return False
    return len(words & sentence_kinds.content_words(before)) / len(words) >= 0.8


_DETAIL = re.compile(r"\d|\b[A-Z][a-z]+\b")


def _informative(sentence: str, kind: str) -> float:
    """How much a sentence tells: its content words, a person it is about, names and
    numbers, a concrete kind."""
    words = sentence_kinds.content_words(sentence)
    score = min(len(words), 12) + 3 * bool(_SPEAKER.search(sentence))
    score += 2 * min(len(_DETAIL.findall(sentence, 1)), 2) + 2 * (kind == "fact")
    return float(score)


def _without_tag(sentence: str) -> str:
    """A statement with a question tagged on, without it: "I finished another pottery project -
    want to see a pic?" -> "I finished another pottery project."."""
    m = re.match(r"^(?P<head>.+?)\s+[-–—]\s+[^-–—]*\?$", sentence)
    return m.group("head").rstrip(" ,;") + "." if m else sentence


def durable_parts(
    text: str,
    role: str,
    earlier: Sequence[str] = (),
    listener: str = "",
    to_person: bool = False,
    is_promise: Callable[[str], bool] | None = None,
    plain: int = 2,
) -> list[tuple[str, str]]:
    """The sentences of a turn worth keeping, with their category: health and safety first,
    then explicit save reasons (lesson, commitment, decision, ...), then the `plain` most
    informative statements of fact, each in the turn's order. `earlier`: the texts of the
    turns before, so an echo of them is not kept; `listener`: whom the turn speaks to, and
    `to_person` when that is a person, not the assistant (advice to a person is no
    preference); `is_promise`: whether a future is a promise to someone (a future that is
    none is judged as a plain statement)."""
    safety: list[tuple[str, str]] = []
    strong: list[tuple[int, str, str]] = []
    facts: list[tuple[float, int, str]] = []
    told: dict[int, str] = {}  # the turn's statements, which a sentence after may point to
    role = role.lower()
    for n, raw in enumerate(sentence_kinds.sentences(text)):
        sentence = without_chat_time(without_bookkeeping(_without_tag(raw)))
        sentence = without_picture_frame(without_opener(sentence))
        sentence = with_subject(without_mood_clause(sentence, _about_somebody))
        if not sentence:
            continue
        kind = sentence_kinds.sentence_kind(sentence, role)
        if sentence_kinds.SAFETY.search(sentence) and kind in ("fact", "durable_fact"):
            safety.append((sentence, "fact"))  # never crowded out, however short or said again
            continue
        if kind == "commitment" and is_promise is not None and not is_promise(sentence):
            if role == "assistant":
                continue  # "I'll plan gentle climbs": the assistant's next step, owed to no one
            kind = "fact"  # "I'm going to paint this weekend": a person's plan, no promise
        if kind in ("meta", "ack", "greeting", "hedge") or sentence.endswith("?"):
            continue
        if is_echo(sentence, earlier) or (to_person and _IMPERATIVE.search(sentence)):
            continue
        if to_person and (SHOWN.search(sentence) or SHOWN.search(raw)):
            continue  # presents a picture the memory will not have
        if to_person and aside(sentence):
            continue  # "Can't wait to see the vid!", "Gotta stay focused": no fact of theirs
        if _antecedent(raw, sentence, role, listener):
            told[n] = sentence
        # Between people a save reason must be about somebody too ("Meal times are always fun"
        # is an opinion, no preference), and only a promise may speak to the listener.
        # The fix for the problem just told, in a chat with the assistant (between people,
        # "that fixed it" is small talk more often than not).
        fix = bool(earlier) and not to_person and kind in ("plain", "fact")
        fix = fix and fixes_earlier(sentence)
        strong_alone = kind in policy.SAVE_REASONS and not (to_person and kind != "commitment")
        # The assistant's "always" or "never" of nobody ("It's never too late; small amounts
        # add up") is advice, no one's preference: it must name somebody like any statement.
        strong_alone = strong_alone and not (role == "assistant" and kind == "stable_preference")
        if not stands_alone(sentence, strong_alone or fix, kind if strong_alone else "", listener):
            continue
        if kind in policy.SAVE_REASONS:
            strong.append((n, sentence, policy.SAVE_REASONS[kind]))
        elif fix:
            strong.append((n, sentence, "fact"))
        elif is_mood(sentence) and not _WHAT_I_AM.match(sentence):
            continue
        elif kind == "fact" or (kind == "plain" and sentence_kinds.plain_statement(sentence)):
            facts.append((_informative(sentence, kind), n, sentence))
    best = sorted(sorted(facts, key=lambda f: -f[0])[:plain], key=lambda f: f[1])
    kept = strong + [(n, s, "fact") for _, n, s in best]
    # "It made me feel connected" kept with what "it" is
    texts = with_antecedents(kept, told, pictured="[image:" in text)
    return safety + [(texts[n], category) for n, _, category in kept if n in texts]
