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
from memory_pipelines.core.antecedents import (
    bare_note,
    elliptical,
    joined,
    medicine_named,
    points_back,
    them_named,
    with_antecedents,
)
from memory_pipelines.core.called_off import calls_something_off
from memory_pipelines.core.chat_asides import aside
from memory_pipelines.core.episodes import is_recap
from memory_pipelines.core.health_safety import PROTECTIVE, SAFETY
from memory_pipelines.core.hedges import is_hedged, without_hedged_tail
from memory_pipelines.core.moods import is_mood
from memory_pipelines.core.note_keeping import without_bookkeeping
from memory_pipelines.core.plain_words import with_apostrophes
from memory_pipelines.core.referents import who_is_meant
from memory_pipelines.core.sentence_clauses import (
    without_apology,
    without_ask_of_listener,
    without_chat_time,
    without_mood_clause,
    without_request_first,
)
from memory_pipelines.core.sentence_forms import (
    SUBJECT_FIRST,
    without_opener,
    without_picture_frame,
    without_tag_question,
    without_telling,
)
from memory_pipelines.core.sentence_people import (
    SPEAKER,
    WHAT_I_AM,
    about_somebody,
    may_be_pointed_to,
    name_then_verb,
    own_thing,
    stands_alone,
)
from memory_pipelines.core.sentence_subject import with_subject_after
from memory_pipelines.core.speech_acts import SHOWN
from memory_pipelines.core.window_talk import ASKED_TO

# Advice or cheer to a person: "Don't give up!", "Keep going!", "Believe in yourself". Said to
# the assistant an instruction is a preference about the service ("Always use metric"); said to
# another person it is encouragement, no fact about anybody.
_IMPERATIVE = re.compile(
    r"^\W*(?:please\s+)?(?:don't|do not|never|always|keep|stay|remember|believe|take|go|make|"
    r"enjoy|let|try|hang|hold|stick|focus|trust|follow|chase|embrace|cherish|treat|give|tell|ask|"
    r"say)\b",
    re.IGNORECASE,
)


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


# Asked to be kept, what follows is the fact: "Remind me that ...", "Please remember that ...",
# "Note: ...". Not "Remind me to call mum" (a request, no fact).
_KEEP_THAT = re.compile(
    r"^\W*(?:please\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
    r"(?:remember|remind me|don't forget|do not forget|keep in mind|bear in mind|note|"
    # "that" or a colon, or a statement of the speaker's own right after it ("Please remember
    # my wife's name is Ingrid"; not "remember our first holiday in Crete?", which reminisces)
    # ... or a comma before one ("remind me, I have to file my tax return by 31 January")
    r"make a note|take note)\s*(?:that\b|:|,?\s*(?=(?:my|our)\s[^?]*$)"
    r"|,\s*(?=(?:i|i'm|i've|i have|we|we're|we've)\s[^?]*$))\s*",
    re.IGNORECASE,
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


# A label that announces news of a thing: "Party update:", "Update on the card:", "Flight news:".
_UPDATE = re.compile(r"^\W*(?:(?:\w+\s+){0,2}(?:update|news)|update on [^:]{1,40})\s*:\s*\S", re.I)

_DETAIL = re.compile(r"\d|\b[A-Z][a-z]+\b")


def _informative(sentence: str, kind: str) -> float:
    """How much a sentence tells: its content words, a person it is about, names and
    numbers, a concrete kind."""
    words = sentence_kinds.content_words(sentence)
    score = min(len(words), 12) + 3 * bool(SPEAKER.search(sentence))
    score += 2 * min(len(_DETAIL.findall(sentence, 1)), 2) + 2 * (kind == "fact")
    return float(score)


_ASSISTANT_KEEPS = ("commitment", "hard_lesson", "shipped_outcome")
_QUOTED = re.compile(r'"[^"]{3,}"|“[^”]{3,}”')


def durable_parts(
    text: str,
    role: str,
    earlier: Sequence[str] = (),
    listener: str = "",
    to_person: bool = False,
    is_promise: Callable[[str], bool] | None = None,
    plain: int = 2,
    asked_about: Callable[[str], str] | None = None,
    pronoun_of: Callable[[str], str] | None = None,
    own_earlier: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """The sentences of a turn worth keeping, with their category: health and safety first,
    then explicit save reasons (lesson, commitment, decision, ...), then the `plain` most
    informative statements of fact, each in the turn's order. `earlier`: the texts of the
    turns before, so an echo of them is not kept; `listener`: whom the turn speaks to, and
    `to_person` when that is a person, not the assistant (advice to a person is no
    preference); `is_promise`: whether a future is a promise to someone (a future that is
    none is judged as a plain statement); `asked_about`: the sentence with an opening "he" or
    "she" put as the one person the question before the turn asked about ("anything for Oskar's
    visit?" / "and he's vegetarian now"): such a sentence is about somebody; `own_earlier`: the
    speaker's own turns before, oldest first, whose one medicine a bare "it" stands for ("I'm
    on metformin, 500mg twice a day" ... "doc just doubled it": a change of a dose, kept as the
    health fact it is), and whose one relative an opening "he" or "she" may be."""
    safety: list[tuple[str, str]] = []
    safety_at = -2  # the index of the last safety sentence
    strong: list[tuple[int, str, str]] = []
    facts: list[tuple[float, int, str]] = []
    told: dict[int, str] = {}  # the turn's statements, which a sentence after may point to
    statements: dict[int, str] = {}
    said: dict[int, str] = {}  # each sentence as read, a safety note's lead (below)
    noted: set[int] = set()  # sentences a safety note was joined to, kept in it
    role = role.lower()
    answering = role == "assistant" and bool(earlier) and "?" in earlier[-1]
    text = with_apostrophes(text)  # "ill send u the slides" is read as "I'll send you ..."
    for n, raw in enumerate(sentence_kinds.sentences(text)):
        sentence = without_chat_time(without_bookkeeping(without_tag_question(raw)))
        sentence = without_picture_frame(without_opener(sentence))
        sentence = without_ask_of_listener(without_request_first(sentence))
        sentence = without_mood_clause(sentence, about_somebody)
        sentence = without_apology(sentence)
        sentence = with_subject_after(sentence, said.get(n - 1))
        sentence = without_hedged_tail(without_telling(sentence, role), role)
        if n - 1 in said:  # "mushrooms. can't stand them": what "them" is
            sentence = them_named(sentence, said[n - 1])
        sentence = medicine_named(sentence, [*own_earlier, *said.values()])
        # the person the question asked about is somebody (put in by the caller, who keeps
        # the question as part of what the answer says)
        resolved = asked_about is not None and asked_about(sentence) != sentence
        # ... and so is the one relative or person the turn just named ("my sister Claire just
        # moved to Lisbon. she's working for a startup there")
        # ... or in the speaker's own turns just before ("my brother luca flies in friday" ...
        # "he's a chef")
        told_before = [*own_earlier, *said.values()]
        resolved = resolved or (
            bool(told_before) and who_is_meant(sentence, told_before, pronoun_of) != sentence
        )
        asked = _KEEP_THAT.match(sentence)  # "Remind me that my passport expires in May"
        # a statement with its subject follows, not a thing ("Remember that guy from the gym?")
        if asked and SUBJECT_FIRST.match(sentence, asked.end()):
            fact = sentence[asked.end() :].rstrip()
            fact = fact[:-1].rstrip() + "." if fact.endswith("?") else fact  # "Can you ...?"
            sentence = fact[:1].upper() + fact[1:]
        else:
            asked = None
        if not sentence:
            continue
        said[n] = sentence
        kind = sentence_kinds.sentence_kind(sentence, role)
        called = re.match(rf"\W*{re.escape(listener)}\b,?\s+", sentence, re.I) if listener else None
        if called and sentence_kinds.sentence_kind(sentence[called.end() :], role) == "meta":
            continue  # "mirela are the wedding pics ever gonna see daylight": asked of her
        if kind == "commitment" and _QUOTED.search(sentence):
            # "I'll be there by seven" inside quotes is words to send or somebody's said
            # (a draft: 'Here is a draft: "Thanks, I'll be there by seven."'), no promise
            kind = sentence_kinds.sentence_kind(_QUOTED.sub("it", sentence), role)
        # A person's health and safety, told however it is told ("They asked about allergies -
        # penicillin, and he reacts to plasters too"; "I think he's allergic to latex"): never
        # crowded out, however short or said again.
        # ... and a person's rule or plain words about it ("Don't give Dad any ibuprofen, he's
        # on warfarin now"; "Nobody goes in the kiln room without a respirator").
        stated = kind in ("fact", "durable_fact") or (
            role != "assistant" and kind in ("meta", "hedge", "plain", "stable_preference")
        )
        # ... but the assistant answering what was just asked gives advice, of nobody's health
        # ("what should I keep in the house?" / "Some fast-acting glucose like juice ..."), and
        # so does its suggestion ("Taking it with food usually helps the side-effects")
        advice = answering or (role == "assistant" and is_hedged(sentence, role))
        safe = (SAFETY.search(sentence) and not advice) or (
            role != "assistant" and PROTECTIVE.search(sentence)
        )
        if stated and safe and not sentence.endswith("?"):
            if safety and safety_at == n - 1 and (elliptical(sentence) or points_back(sentence)):
                # "Don't give Dad ibuprofen, he's on warfarin. Paracetamol only." is one rule,
                # and "I'm on sertraline 50mg. my doc wants to up it to 100mg" one fact
                safety[-1] = (joined(safety[-1][0], sentence), "fact")
            elif bare_note(sentence) and n - 1 in said and not said[n - 1].endswith("?"):
                # a note with no verb says what the sentence before it is ("peanuts. like
                # epipen-level allergy", "that heater tripped the breaker twice. fire
                # hazard"): kept alone it is a danger of nothing
                safety.append((joined(said[n - 1], sentence), "fact"))
                noted.add(n - 1)
            else:
                safety.append((sentence, "fact"))
            safety_at = n
            continue
        if stated and safety and safety_at == n - 1 and points_back(sentence):
            # "I carry an EpiPen. I never leave the house without it": the health fact just
            # said is what "it" is
            safety[-1] = (joined(safety[-1][0], sentence), "fact")
            safety_at = n
            continue
        # "Party update: it's now Saturday 21 November": news of something the speaker
        # follows, whoever the sentence names.
        # ... and a thing called off ("The museum trip got cancelled, so no need to pay"):
        # what it cancels may be a promise the memory holds (core/called_off.py).
        update = role != "assistant" and (
            bool(_UPDATE.match(sentence)) or calls_something_off(sentence)
        )
        if kind == "commitment" and is_promise is not None and not is_promise(sentence):
            if role == "assistant":
                continue  # "I'll plan gentle climbs": the assistant's next step, owed to no one
            kind = "fact"  # "I'm going to paint this weekend": a person's plan, no promise
            if SAFETY.search(sentence):  # "... his new inhaler by Friday"
                safety.append((sentence, "fact"))
                continue
        if kind == "stable_preference" and role == "user" and not to_person:
            # "can u keep answers short from now on?", "can you always use metric?": a way of
            # working asked of the assistant for good is the person's preference
            wanted = ASKED_TO.match(sentence)
            if wanted and sentence.endswith("?"):
                sentence = (
                    f"I'd like the assistant to {sentence[wanted.start('act') :].rstrip(' ?')}."
                )
        if kind in ("meta", "ack", "greeting", "hedge") or sentence.endswith("?"):
            continue
        if kind in ("fact", "plain") and not sentence.startswith("[image:"):
            # a reason a decision before it may give (_with_reasons); a picture's caption is
            # what the picture shows, no reason of the speaker's
            statements[n] = sentence
        if is_echo(sentence, earlier) or (to_person and _IMPERATIVE.search(sentence)):
            continue
        if to_person and (SHOWN.search(sentence) or SHOWN.search(raw)):
            continue  # presents a picture the memory will not have
        if to_person and aside(sentence):
            continue  # "Can't wait to see the vid!", "Gotta stay focused": no fact of theirs
        if may_be_pointed_to(raw, sentence, role, listener):
            told[n] = sentence
        # Between people a save reason must be about somebody too ("Meal times are always fun"
        # is an opinion, no preference), and only a promise may speak to the listener.
        # The fix for the problem just told, in a chat with the assistant (between people,
        # "that fixed it" is small talk more often than not).
        fix = bool(earlier) and not to_person and kind in ("plain", "fact")
        fix = fix and fixes_earlier(sentence)
        # The assistant's own words are its advice, suggestions, drafts and asides ("Twelve is
        # a lot of bed, nice.", "Diggers it is: a ride-on digger ...", "Here's a short one:
        # ..."): kept in history, no memory of anyone's. What it promises, the lesson or
        # outcome it reports and the fix for what was just told are kept (safety above).
        if role == "assistant" and not (fix or kind in _ASSISTANT_KEEPS):
            continue
        strong_alone = kind in policy.SAVE_REASONS and not (to_person and kind != "commitment")
        # The assistant's "always" or "never" of nobody ("It's never too late; small amounts
        # add up") is advice, no one's preference: it must name somebody like any statement.
        strong_alone = strong_alone and not (role == "assistant" and kind == "stable_preference")
        # told to the assistant about someone by name ("Leo takes 5ml of cetirizine")
        named = not to_person and name_then_verb(sentence)
        # ... or a thing of the speaker's own with its value, told to the assistant with the
        # owner left out, as chat is typed ("car insurance renews 12th of next month, £640")
        own_matter = not to_person and role == "user" and kind == "fact" and own_thing(sentence)
        own_matter = own_matter and not elliptical(sentence)  # "Mochi, 10 weeks old, tabby"
        if not stands_alone(
            sentence,
            strong_alone or fix or bool(asked) or update or named or resolved or own_matter,
            kind if strong_alone else "",
            listener,
            to_assistant=not to_person,
        ):
            if elliptical(sentence) and n - 1 in told and _DETAIL.search(sentence, 1):
                # "we adopted a dog! Biscuit, 4 years old, beagle mix": a note of details on
                # the statement before it, about nobody alone, kept joined to it
                facts.append((_informative(sentence, kind), n, sentence))
            continue
        if is_recap(sentence):  # what the conversation was about: the history keeps it
            continue
        if kind in policy.SAVE_REASONS:
            strong.append((n, sentence, policy.SAVE_REASONS[kind]))
        elif fix or asked or (update and kind in ("fact", "plain")):
            strong.append((n, sentence, "fact"))
        elif is_mood(sentence) and not WHAT_I_AM.match(sentence):
            continue
        elif kind == "fact" or (kind == "plain" and sentence_kinds.plain_statement(sentence)):
            facts.append((_informative(sentence, kind), n, sentence))
    strong, used = _with_reasons(strong, statements)
    strong = [k for k in strong if k[0] not in noted]
    facts = [f for f in facts if f[1] not in used | noted]
    best = sorted(sorted(facts, key=lambda f: -f[0])[:plain], key=lambda f: f[1])
    kept = strong + [(n, s, "fact") for _, n, s in best]
    # "It made me feel connected" kept with what "it" is
    texts = with_antecedents(kept, told, pictured="[image:" in text)
    return safety + [(texts[n], category) for n, _, category in kept if n in texts]


# A decision that gives its reason in its own words ("..., because ...", "since ...").
_GIVES_WHY = re.compile(
    r"(?:\b|')(?:because|'?cause|cos|since|so that|so (?:i|we) can|due to|as (?:it|we|they|i))\b",
    re.I,
)


def _with_reasons(
    strong: list[tuple[int, str, str]], statements: dict[int, str]
) -> tuple[list[tuple[int, str, str]], set[int]]:
    """The spec saves decisions with the why: a decision said without its reason, followed in
    the turn by a statement ("We're dropping the tablet layout. Under 2% of sessions come from
    tablets"), is kept with it as one item. Returns the kept sentences and the indexes of the
    statements joined into them."""
    out, used = [], set()
    for n, sentence, category in strong:
        why = statements.get(n + 1)
        if category == "decision" and why and not _GIVES_WHY.search(sentence):
            sentence = joined(sentence, why)
            used.add(n + 1)
        out.append((n, sentence, category))
    return [k for k in out if k[0] not in used], used
