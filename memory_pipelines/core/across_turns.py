"""What is said across turns: a correction that puts right an earlier sentence, and a short
answer read with the question it answers. Pure Python.

Corrections: "March 10, not March 3" or "50 mg, sorry, 100 mg" fixes its own sentence; a bare
"May, not April" or "Actually no, 3.9" fixes the latest earlier sentence of the window holding
the old value, the speaker's own first, then whoever said it (core/corrections.py reads the
values).

Answers: in a chat a fact is often said in two turns: "How long have you played piano?" "Since
I was seven." The answer alone says nothing of piano, and the question alone says nothing at
all; together they are a fact about the one who answered. So an answer that is no sentence of
its own (a few words, no fact of its own kept from the turn) is kept with its question as
asked: 'Asked "How long have you played piano?", Hollis said: "Since I was seven."' Small
talk is left alone: a greeting asked ("How are you?"), an answer that only acknowledges, reacts
or guesses ("Good, thanks!", "Probably the sound").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from memory_pipelines.core import policy, sentence_kinds
from memory_pipelines.core.answer_kept import answer_kept, no_answer
from memory_pipelines.core.antecedents import elliptical, medicine_asked_of
from memory_pipelines.core.corrections import (
    Correction,
    apply_to_earlier,
    corrected,
    correction,
    is_number,
    named_values,
    repair,
    repair_earlier,
    without_old,
)
from memory_pipelines.core.plain_words import with_apostrophes
from memory_pipelines.core.proposed_times import agreed_time
from memory_pipelines.core.referents import who_was_asked_about
from memory_pipelines.core.respelled import misspelled_in, respelled
from memory_pipelines.core.restated import restated, without_cue
from memory_pipelines.core.retractions import taken_back, takes_back
from memory_pipelines.core.sentence_clauses import without_ask_of_listener
from memory_pipelines.core.sentence_forms import without_tag_question
from memory_pipelines.core.sentence_subject import with_subject
from memory_pipelines.core.speech_acts import SHOWN
from memory_pipelines.core.window_turn import PronounOf, WindowTurn

_Found = tuple[int, str] | None
MAX_WORDS = 8  # longer answers are sentences of their own, judged as such
# Questions that are greetings or checks on the chat, not about anything to remember.
_SMALL_TALK = re.compile(
    r"^\W*(?:how (?:are|r) (?:you|u)|how(?:'s| is| has) (?:it going|your day|life|everything|"
    r"things)|how have you been|what's up|wh?at'?s new|you ok(?:ay)?|are you (?:ok(?:ay)?|there|"
    r"sure)|does that (?:help|make sense|work)|any(?:thing)? (?:questions|else)|ready"
    # how something is going for the listener: "How's the first week going?"
    r"|how(?:'s| is| are) (?:\w+ ){1,3}going\b"
    # how a night out ended for the listener: "did you get home ok after the gig?"
    r"|did (?:you|u) (?:get|make it) (?:home|back)\b|did (?:you|u) have (?:a )?(?:good|nice|"
    r"great|fun)\b"
    # an offer: its answer says what to do now, nothing that lasts ("Want me to lay it out?" /
    # "nah not yet")
    r"|(?:(?:so|ok(?:ay)?|and)\W+)?(?:do you |would you |d'you )?(?:want|like|need) me to"
    r"|(?:shall|should) i\b(?! (?:be|have)\b)|would you like me to)\b",
    re.IGNORECASE,
)
_ONLY_AN_ANSWER = frozenset(["ack", "greeting", "meta", "hedge"])
# "yeah peanuts, pretty bad one" answering "Does she have any allergies?": a yes, and what it
# is, with no verb (not "yeah it was so much fun", which only agrees)
_YES = re.compile(r"^\W*(?:yes|yeah|yep|yup|yea|ya)\b\W*", re.IGNORECASE)


# A question that asks for a value: what, which, when, where, who, how old, how many ... (not
# "how was it?", whose answer is an opinion) or whether there is any.
_ASKS_VALUE = re.compile(
    r"^\W*(?:(?:so|and|ok(?:ay)?)\W+)?(?:(?:what|which|when|where|who|whose)\b"
    r"(?!\s+(?:do you do|are we|about)\b)|how (?:old|many|much|long|often|far|soon)\b"
    r"|(?:do|does|did|have|has|is|are) \w+ (?:\w+ )?any\b|any\b)",
    re.IGNORECASE,
)


def gives_value(question: str, answer: str) -> bool:
    """Whether `answer` gives the value `question` asks for: a note with no verb ("12.", "1st
    march.", "spicy stuff, thai, korean.", "yeah peanuts, pretty bad one"), not a sentence
    that goes on about something ("almost there, the numbers came in late")."""
    if not _ASKS_VALUE.match(question):
        return False
    yes = _YES.match(answer)
    rest = answer[yes.end() :] if yes else answer
    return _a_value(rest.split(",")[0])  # "maths mostly, science is fine"


def _yes_and_what(answer: str) -> bool:
    yes = _YES.match(answer)
    return yes is not None and _a_value(answer[yes.end() :])


def _a_value(note: str) -> bool:
    """A note of words that tell something, with no verb."""
    return bool(sentence_kinds.content_words(note) - _BARE) and elliptical(note)


# An exclamation, after a word or two of address or interjection: "what a goal!", "mate what a
# night", "omg what an ending".
_EXCLAIMS = re.compile(
    r"^\W*(?:(?:mate|man|dude|bro|omg|oh|ah|yeah|yes|yep|lol|haha|wow|god|honestly)\W+)*"
    r"what an?\b(?!\s+(?:\w+\s+)?(?:do|did|does|is|was|are|were|would|will|should|can)\b)",
    re.IGNORECASE,
)


def answer_asked(answer: str, question: str, role: str, names: Iterable[str] = ()) -> bool:
    """Whether `answer` (a turn's first sentence) is a short answer to `question` (the last
    sentence of the turn before, another speaker's) worth keeping with it. `names`: the
    speakers', which tell nothing in an answer ("Definitely, Maria!")."""
    if not question.rstrip().endswith("?") or _SMALL_TALK.match(question):
        return False
    # a question naming nothing ("u?", "and you?", "u in?", "wbu?") asks again what was asked
    # before, or only whether: its answer ("same lol, watched way too much telly") is chatter
    asks = sentence_kinds.content_words(with_apostrophes(question)) - _ASKS_NOTHING
    if not asks - {n.lower() for n in names}:
        return False
    if answer.rstrip().endswith("?") or len(answer.split()) > MAX_WORDS:
        return False
    kind = sentence_kinds.sentence_kind(answer, role)
    if (kind in _ONLY_AN_ANSWER and not _yes_and_what(answer)) or SHOWN.search(answer):
        return False  # nor "Here's a picture from the event!": the memory has no picture
    if _EXCLAIMS.match(answer):
        return False  # "mate what a goal in the 89th": a cheer at what was asked about
    if no_answer(answer):
        return False  # "I don't have information about that.": nothing was answered
    told = sentence_kinds.content_words(answer) | set(re.findall(r"\d+", answer))
    return bool(told - _BARE - {n.lower() for n in names})


# Chat's ways of asking the other's side back: "wbu?", "hbu?"
_ASKS_NOTHING = frozenset(["wbu", "hbu", "wby", "hby", "u", "you"])
# Words that answer nothing on their own ("Yes, definitely!", "Not really").
# fmt: off
_BARE = frozenset([
    "yes", "yeah", "yep", "yup", "yea", "ya", "no", "nope", "nah", "naw", "not", "really",
    "definitely", "absolutely", "sure",
    "totally", "maybe", "probably", "thanks", "thank", "great", "good", "fine", "ok", "okay",
    "nice", "cool", "awesome", "lol", "haha", "both", "neither", "all", "none", "sometimes",
    "please", "pls", "plz", "course", "glad", "happy", "welcome",
])
# fmt: on


def corrections_made(
    window: Sequence[WindowTurn], i: int, stale: set[str]
) -> list[tuple[str, str, WindowTurn]]:
    """(corrected sentence, its category, the turn whose speaker it is about) for each
    correction the turn makes: "March 10, not March 3" or "50 mg, sorry, 100 mg" fixes its own
    sentence; a bare "May, not April" or "Actually no, 3.9" fixes the latest earlier sentence of
    the window holding the old value (or a value of the new one's kind), and so does one that
    gives its new value only ("Sorry, I had it wrong, it leaves at 7:40": restated.restated).
    A sentence of this turn fixed so goes into `stale`: it is not saved as it was said; so does
    a correction whose value went into an earlier sentence."""
    out = []
    turn = window[i]
    own = sentence_kinds.sentences(turn.text)
    if i + 1 < len(window) and (new := agreed_time(window, i + 1)) is not None:
        # "can we say fri morning?" / "fine, fri morning works": the asker's own time put right
        theirs = [
            (s, t)
            for t in window[:i]
            if t.who == turn.who
            for s in sentence_kinds.sentences(t.text)
            if not s.rstrip().endswith("?")
        ]
        theirs += [(s, turn) for s in own if not s.rstrip().endswith("?")]
        moved = repair_earlier(new, [s for s, _ in theirs])
        if moved is not None:
            text, about = with_subject(with_apostrophes(moved[1])), theirs[moved[0]][1]
            if about is turn:
                stale.add(theirs[moved[0]][0])
            stale.add(own[-1])  # the asking, which the agreement after it answers
            out.append((text, policy.category_for(text, about.role), about))
    for n, sentence in enumerate(own):
        fix, fixed = correction(sentence), repair(sentence)
        # the first sentence answering another speaker's question is an answer, whatever
        # apology it ends with ("How old?" "They're 7 and 9, sorry.")
        answering = n == 0 and question_before(window, i) is not None
        again = restated(sentence, not answering) if fix is None and fixed is None else None
        name = respelled(sentence) if fix is None and fixed is None and again is None else None
        if fix is None and fixed is None and again is None and name is None:
            # "sorry cant do it after all": the speaker's own offer before it, taken back
            if not takes_back(sentence):
                continue
            mine = [
                s for t in window[:i] if t.who == turn.who for s in sentence_kinds.sentences(t.text)
            ]
            back = taken_back(sentence, mine + own[:n])
            if back is not None:  # what holds now, no promise: a fact
                stale.update((sentence, with_apostrophes(sentence)))
                out.append((back, "fact", turn))
            continue
        earlier = [(s, t) for t in window[:i] for s in sentence_kinds.sentences(t.text)]
        earlier += [(s, turn) for s in own[:n]]
        # a question states nothing to put right ("The 12th of May?" "No, June." made the fact
        # "The 12th of June, not May?"); a statement with a question tagged on does ("plumber
        # quoted 640 to fix the boiler, does that sound ok?")
        told = [without_tag_question(s) for s, _ in earlier]
        said = ["" if s.rstrip().endswith("?") else s for s in told]
        mine = [s if t.who == turn.who else "" for s, (_, t) in zip(said, earlier, strict=True)]

        found: tuple[int, str] | None = None
        if name is not None:  # "oops it's John Smith actually": the name spelled like it
            found = _own_first(partial(misspelled_in, name), said, mine)
            if found is not None:
                stale.add(sentence)
        elif again is not None:
            found = _own_first(partial(_put_right, *again), said, mine)
            if found is not None:
                stale.add(sentence)  # its value went into the sentence it put right
                # ... and what the turn says after it of the old value tells how the slip came
                # about ("wait no, the 23rd. the 21st was the option we didn't book")
                if named := without_old(found[1]):
                    stale.update(s for s in own[n + 1 :] if named[1] in s)
        elif fix is not None:
            # "Oh wait, the wedding is on June 21, not June 14" puts right the sentence that
            # told it ("My sister's wedding is in Utrecht on June 14"), which says whose.
            # "Hmm, actually it's Bruges, not Ghent" says nothing but its values: like a bare
            # one, it puts right whichever sentence said the old value.
            words = sentence_kinds.content_words
            about_it = words(without_cue(sentence)) - {fix.new.lower(), fix.old.lower()}
            told = [s if about_it & words(s) else "" for s in said]
            texts = said if fix.bare or not about_it else told
            found = _own_first(partial(apply_to_earlier, fix), texts, mine)
            if found is None and is_number(fix.old):
                # a number is specific enough to find alone ("I misread the confirmation,
                # it's 8:30, not 8" puts right "Booked dinner at Lupo for 8pm")
                found = _own_first(partial(apply_to_earlier, fix), said, mine)
        elif fixed is not None and fixed[1].bare:
            new = fixed[1].new
            # the turn may name the value it puts right ("Wait no, 41!! 14 was our old place")
            for old in named_values(new, own[n + 1 :]):
                put = partial(apply_to_earlier, Correction(new, old, True))
                found = _own_first(put, said, mine)
                if found is not None:
                    stale.update(s for s in own[n + 1 :] if old in s)  # how the slip came about
                    break
            else:
                # "scratch that on the chairs, 18": a sentence of the chairs
                stem = re.escape(fixed[1].about.lower().rstrip("s"))
                of = [s if re.search(rf"\b{stem}", s, re.I) else "" for s in said]
                found = _own_first(partial(repair_earlier, new), of if stem else said, mine)
        if found is not None:
            idx, text = found
            # "Booked dinner for 8:30pm" as its turn read it: "I booked"; and without the
            # help asked for after it ("exam on 25 nov, help me make a practice plan")
            text = with_subject(without_ask_of_listener(with_apostrophes(text)))
            about = earlier[idx][1]
            if about is turn:
                stale.add(earlier[idx][0])
            out.append((text, policy.category_for(text, about.role), about))
        elif fix is not None and not fix.bare:
            text = corrected(sentence, fix)
            out.append((text, policy.category_for(text, turn.role), turn))
        elif fixed is not None and not fixed[1].bare and len(fixed[0].split()) >= 4:
            # a repaired answer too short to stand alone ("Six years, no, seven") is read with
            # its question (answered)
            out.append((fixed[0], policy.category_for(fixed[0], turn.role), turn))
    return out


def echoed_values(
    window: Sequence[WindowTurn], made: Sequence[Sequence[tuple[str, str, WindowTurn]]]
) -> dict[int, set[str]]:
    """For each turn, the old values that a later turn of the window puts right in an earlier
    turn's sentence (`made`: corrections_made of each turn): what the turns between said of the
    value followed the slip ("I land at Heathrow" / the assistant's "From Heathrow the
    Elizabeth line is easiest" / "sorry, it's Gatwick not Heathrow"), so it is stale too."""
    seq = {id(t): n for n, t in enumerate(window)}
    out: dict[int, set[str]] = {}
    for j, fixes in enumerate(made):
        for text, _, about in fixes:
            put_right = without_old(text)
            if put_right is None or about is window[j]:
                continue
            for i in range(seq[id(about)] + 1, j):
                out.setdefault(i, set()).add(put_right[1])
    return out


def holds_any(sentence: str, values: Iterable[str]) -> bool:
    """Whether a sentence names any of the values, as a whole word."""
    return any(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", sentence, re.I) for v in values)


def _own_first(find: Callable[[list[str]], _Found], said: list[str], mine: list[str]) -> _Found:
    """What `find` finds among the speaker's own sentences (`mine`: the others blanked) first:
    one who puts themselves right ("sorry, it's Gatwick not Heathrow") means what they said,
    not the assistant's answer that repeated it; then among everyone's."""
    own = [s if m else "" for s, m in zip(said, mine, strict=True)]
    return (find(own) if any(own) else None) or find(said)


# The words a correction points back with: no part of what it is about.
_POINTERS = frozenset(["it's", "that's", "they're", "he's", "she's"])
# ... and the verbs that say the value changed, of whatever it is ("oh no wait, it moved to
# 5:30"): the sentence put right need not say them.
# ... and the words of a move said without a cue ("thanks, it got moved to 11 March", "they put
# it up to 39": restated._MOVED)
_CHANGED = frozenset(
    ["moved", "changed", "pushed", "shifted", "bumped", "rescheduled", "postponed", "got", "put"]
    + ["brought", "forward", "back", "gone", "went", "goes", "up", "down", "been", "actually"]
)


def _put_right(clause: str, values: list[str], said: list[str]) -> tuple[int, str] | None:
    """The latest sentence of `said` that a correction giving only its new value puts right
    ("Sorry, I had it wrong, it leaves at 7:40": "My flight leaves at 6:40 on Friday"), its
    value of the same kind replaced, the old one still named. What the clause says beside its
    values must be said there too ("it leaves at": "leaves"), unless it says nothing else
    ("No, it's June 21"); its first value whose kind an earlier sentence holds another of."""
    words = sentence_kinds.content_words
    about = words(clause) - words(" ".join(values)) - _POINTERS - _CHANGED
    about = {re.sub(r"['’]s$", "", w) for w in about}  # "the rent's 975": the rent
    told = [s if not about or about & words(s) else "" for s in said]
    for value in values:
        found = repair_earlier(value, told)
        if found is not None:
            return found
    return None


def question_before(
    window: Sequence[WindowTurn], i: int, unmarked: bool = False
) -> tuple[WindowTurn, str] | None:
    """The turn just before this one, when another speaker's, and the question it ends with;
    None when there is no such question. `unmarked`: a question typed without its mark counts
    too ("how's mum doing on the tablets")."""
    turn, before = window[i], window[i - 1] if i else None
    if before is None or (before.speaker or before.role) == (turn.speaker or turn.role):
        return None
    asked = sentence_kinds.sentences(before.text)
    if not asked:
        return None
    last = asked[-1].rstrip()
    low = sentence_kinds.norm(last)
    typed = unmarked and bool(sentence_kinds.QUESTION_ORDER.match(low)) and low[-1:].isalnum()
    return (before, asked[-1]) if last.endswith("?") or typed else None


def answered(window: Sequence[WindowTurn], i: int, value_only: bool = False) -> str:
    """A short answer with the question of the turn before, another speaker's, both quoted
    as said; "" when the turn is no such answer. `value_only`: only a value asked for and
    given (`gives_value`)."""
    turn, asked = window[i], question_before(window, i)
    said = sentence_kinds.sentences(turn.text)
    if asked is None or not said:
        return ""
    before, question = asked
    at = next(k for k, t in enumerate(window) if t is before)
    question = medicine_asked_of(question, [t.text for t in window[max(0, at - 2) : at]])
    answer = repair(said[0])
    reply = answer[0] if answer and not answer[1].bare else said[0]
    if not answer_asked(reply, question, turn.role, (before.who, turn.who)):
        return ""
    if value_only and not gives_value(question, reply):
        return ""
    # both as said, in quotes: the question's "you" is the one answering, its "I" the asker
    return answer_kept(question, turn.who, reply)


def is_stale(sentence: str, stale: set[str]) -> bool:
    """Whether a kept sentence (its opener taken off, its subject put back) is one a later
    sentence of its turn put right."""
    words = sentence_kinds.content_words(sentence)
    return any(words and words <= sentence_kinds.content_words(s) | {"i"} for s in stale)


def asked_about(
    window: Sequence[WindowTurn], i: int, pronoun_of: PronounOf | None, sure: bool = False
) -> Callable[[str], str] | None:
    """For a turn answering a question of another speaker's that names one person ("anything
    for Oskar's visit?"), what puts that person for a sentence's opening "he" or "she" ("and
    he's vegetarian now" -> "and Oskar's vegetarian now"; `sure`: only a name known to be of
    that gender, referents.who_was_asked_about); None when no question comes before."""
    asked = question_before(window, i, unmarked=True)
    if asked is None:
        return None
    before, question = asked
    speakers = (window[i].who, before.who)
    return lambda sentence: who_was_asked_about(sentence, question, speakers, pronoun_of, sure)
