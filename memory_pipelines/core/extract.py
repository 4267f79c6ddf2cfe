"""The local extractor: stable-fact candidates from a window of turns, by the save policy.

Each turn the policy would save yields its durable sentences, rewritten to name the speaker
("I adopted a dog" said by Ana -> "Ana adopted a dog") with relative dates resolved against
when the turn was said. A correction puts right the sentence that told the old value (whoever
says it); a short answer is kept with the question it answers (core/across_turns.py). Confidence is
capped at 6: a machine proposes, a person states.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from memory_pipelines.core import policy, policy_model, sentence_kinds
from memory_pipelines.core.across_turns import (
    answered,
    asked_about,
    corrections_made,
    echoed_values,
    holds_any,
    is_stale,
    question_before,
)
from memory_pipelines.core.agreed import agreed_pledge
from memory_pipelines.core.antecedents import (
    POINTS_BACK,
    dose_of,
    elliptical,
    joined,
    medicine_named,
)
from memory_pipelines.core.candidates import MAX_CONFIDENCE, MAX_PER_TURN
from memory_pipelines.core.corrections import correction, repair, without_old
from memory_pipelines.core.dates import annotate
from memory_pipelines.core.due_dates import due_date
from memory_pipelines.core.extract_parts import durable_parts, fixes_earlier
from memory_pipelines.core.judge_lexicon import wordlist
from memory_pipelines.core.plain_words import plain_words, without_laughter
from memory_pipelines.core.promised_thing import the_thing_promised
from memory_pipelines.core.promises import as_pledge, pledged_at, promise
from memory_pipelines.core.proposed_times import agreed_time
from memory_pipelines.core.reasons_asked import decision_asked_why, the_reason
from memory_pipelines.core.referents import (
    what_it_is,
    who_is_meant,
    whom_it_means,
)
from memory_pipelines.core.said_anew import said_anew
from memory_pipelines.core.sentence_forms import (
    in_confidence,
    without_label,
    without_opener,
    without_own_name,
    without_vocative,
)
from memory_pipelines.core.sentence_people import (
    CAPITALISED,
    NOT_ENTITIES,
    all_of_you,
    answer_fragment,
    attributed,
    listener_named,
)
from memory_pipelines.core.sentence_subject import for_the_speaker
from memory_pipelines.core.third_person import third_person
from memory_pipelines.core.window_talk import (
    deadline_after,
    listener_of,
    listeners,
    requests_before,
    said_before,
    talk_before,
    thanked_after,
    to_person,
)
from memory_pipelines.core.window_turn import PronounOf, WindowTurn

MAX_CONTEXT = 300


# Words of a closed class (pronouns, auxiliaries, negations, openers) capitalised only because
# they open a sentence or a quote: "Her name is Janine", 'Asked "Are you in?"', "Still on for
# Friday": no entity (they had been, and a question opening with "Are" or "Does" found every
# item holding one through the graph). Mid-sentence, "May" and "Will" stay names.
_OPENERS = frozenset(
    wordlist(
        "Her His Him Its Their Them Us Me Mine Hers Theirs Ours Yours Is Are Was Were Be Been Do"
        " Does Did Have Has Had Will Would Can Could Should Shall May Might Must Not Never Nothing"
        " None Still Around About Maybe Perhaps Actually Anyway Then Now Here There Today Tomorrow"
        " Yesterday Fine Update Asked Said Told Please Sorry Hello Lol Ugh Ah Um Hmm Honestly"
        " Basically Apparently Finally Luckily Sadly Totally Definitely Probably Either"
        " Neither Both Some Any Every Each Other Another Such Same Since Because If Though Although"
        " While After Before Until Once Again Almost Already Always Often Sometimes Usually"
    )
)
_OPENS_AT = re.compile(r"""(?:^|[.!?:;"“(]\s*)$""")


def entities_of(text: str, speaker: str) -> list[str]:
    found = [speaker] if speaker else []
    for m in CAPITALISED.finditer(text):
        words = m.group(1).split()
        if words[0] in _OPENERS and _OPENS_AT.search(text[: m.start(1)]):
            words = words[1:]  # "Still Priya ...": the opener off, the name kept
        name = " ".join(words)
        if words and words[0] not in NOT_ENTITIES and name not in found:
            found.append(name)
    return found[:10]


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_CONTEXT else text[: MAX_CONTEXT - 1].rstrip() + "…"


def _referent_turn(window: Sequence[WindowTurn], i: int, sentence: str) -> WindowTurn | None:
    """The speaker's own turn before this one, when the sentence opens the turn and points back
    to what they told there (the other person's reply between): the item is said across both,
    so its provenance starts there. A fix ("... fixes that") starts at the turn before, whose
    problem it fixes."""
    if fixes_earlier(sentence) and i >= 1 and not to_person(window, i):
        # "Stripping the BOM before parsing fixes that": the problem it fixes was told in the
        # turn before, by the other side.
        before = window[i - 1]
        if (before.speaker or before.role) != (window[i].speaker or window[i].role):
            return before
    if not POINTS_BACK.match(sentence) or i < 2:
        return None
    told = [s for s in sentence_kinds.sentences(window[i].text) if len(s.split()) > 3]
    if not told or sentence.rstrip(".!?")[-20:] not in told[0]:
        return None  # a sentence after another: it may point to that one
    before, mine = window[i - 1], window[i - 2]
    same = (mine.speaker or mine.role) == (window[i].speaker or window[i].role)
    other = (before.speaker or before.role) != (window[i].speaker or window[i].role)
    return mine if same and other else None


def _kept_in(sentence: str, kept: Sequence[tuple[str, str]]) -> bool:
    """Whether a sentence of the turn went into one of its kept parts: half its words or more
    are there (a kept part is reworded: "cant do cream, im lactose intolerant" is kept as
    "can't do cream, I'm lactose intolerant")."""
    said = sentence_kinds.content_words(sentence) - {"i"}
    return any(2 * len(said & sentence_kinds.content_words(text)) >= len(said) for text, _ in kept)


def _fragment(sentence: str, said: str) -> bool:
    """Whether a kept sentence is only a time or a place, said in answer (short, no clause), a
    clause of time or reason alone ("Since I was 17 or so."), or a short note with no verb
    that is all its turn's first sentence (`said`) says ("My brother Idris, 07700 900412."
    answering "Do you want to leave an emergency contact on file?"; not with a note of the
    next sentence joined to it): each means what it answers."""
    if answer_fragment(sentence):
        return True  # "Since I was 17 or so." answering "How long have you been creating art?"
    words = sentence_kinds.content_words
    return elliptical(sentence) and words(sentence) <= words(said)


# What a correction's turn says of the slip itself ("I keep confusing the two", "Just checked
# the school letter", "I had my sister's date in my head"): short, no value or name of its own.
_OWN_VALUE = re.compile(r"\d|\b(?:[A-Z][a-z]+)\b")


def _how_it_went_wrong(sentence: str) -> bool:
    """Whether a sentence of a turn that corrects itself only tells how the slip came about:
    eight words or fewer, with no number and no capitalised word but its first."""
    words = sentence.split()
    return len(words) <= 8 and not _OWN_VALUE.search(" ".join(words[1:]))


def extract_window(
    window: Sequence[WindowTurn],
    types: Sequence[str] = (),
    similarity: policy.Similarity | None = None,
    pronoun_of: PronounOf | None = None,
    embed: policy_model.Embed | None = None,
) -> list[dict[str, Any]]:
    """Candidates (memory item dicts plus provenance) from the turns of one window. A
    commitment is kept only when it is a promise to someone (core/promises.py), with its due
    time when the text gives one; a plan of one's own becomes a fact. embed (the embedder's):
    the learned save policy has the last word on whether a turn says something anew."""
    allowed = set(types) if types else None
    out: list[dict[str, Any]] = []
    stales: list[set[str]] = [set() for _ in window]
    made = [
        [] if t.context else corrections_made(window, j, stales[j]) for j, t in enumerate(window)
    ]
    echoes = echoed_values(window, made)
    for j in range(1, len(window)):
        last = sentence_kinds.sentences(window[j - 1].text)[-1:]
        if last and last[0] in stales[j - 1] and agreed_time(window, j) is not None:
            # "fine, fri morning works": the time it agrees to went into the asker's sentence
            stales[j].update(sentence_kinds.sentences(window[j].text))
    for i, turn in enumerate(window):
        if turn.context:
            continue  # read by the turns after it, extracted by its own window
        stale = stales[i]
        parts: list[tuple[str, str, WindowTurn]] = list(made[i])
        fixes = {sentence for sentence, _, _ in parts}
        earlier = window[max(0, i - 3) : i]
        listener = listener_of(window, i)
        requests = requests_before(window, i)  # the turn answers a request of the speaker's
        requested = bool(requests) or thanked_after(window, i)  # ... or is thanked for a favour
        # The learned policy was fitted on chats with the assistant; between people (LoCoMo) it
        # skipped turns whose sentences held facts (coverage 0.6147 -> 0.6013), so there the
        # rules alone decide.
        person = to_person(window, i)  # the turn is said to a person, not the assistant
        # "How old is Pepper?" / "She's a border collie": whom a question before it asked about
        resolve_asked = asked_about(window, i, pronoun_of)
        learned = None if person else embed
        pledge = agreed_pledge(turn.text, requests)  # "can you ...?" / "sure, will do"
        if said_anew(turn, earlier, similarity, learned):

            def is_promise(
                s: str,
                who: str = listener,
                t: WindowTurn = turn,
                n: int = i,
                asked: bool = requested,
                to_one: bool = person,
            ) -> bool:
                said = the_thing_promised(as_pledge(s), talk_before(window, n, s), t.who, who)
                return promise(said, t.speaker, who, t.created_at, asked, to_one) is not None

            kept = durable_parts(
                turn.text,
                turn.role,
                [t.text for t in earlier],
                listener,
                to_person=person,
                is_promise=is_promise,
                asked_about=asked_about(window, i, pronoun_of, sure=True),
                pronoun_of=pronoun_of,
                own_earlier=[t.text for t in window[:i] if t.who == turn.who][-2:],
            )
            first = sentence_kinds.sentences(turn.text)[:1]
            if (
                kept
                and first
                and _fragment(kept[0][0], first[0])
                and (asked := answered(window, i))
            ):
                # "On the 3rd of April." answering "When do you start?": kept with its question
                kept[0] = (asked, "fact")
            corrected_here = bool(fixes) or bool(stale)
            own = [  # fixes come first
                (s, c, turn)
                for s, c in kept
                if not correction(s)
                and not repair(s)
                and not is_stale(s, stale)
                and not holds_any(s, echoes.get(i, ()))
                and not (corrected_here and _how_it_went_wrong(s))
            ]
            # a short answer is kept with its question, beside a correction of the same turn
            # too ("Boosters in September. Oh, and it's Dr. Mbatha, not Mbeki")
            if fixes:  # the answer comes first, the correction after it
                answer_alone = bool(first) and not (
                    correction(first[0]) or repair(first[0]) or first[0] in stale
                )
            else:
                answer_alone = not kept
            # (a request agreed to is the promise below, no answer)
            answer_alone = answer_alone and not (first and is_stale(first[0], stale))
            if not own and answer_alone and not pledge and (asked := answered(window, i)):
                own.append((asked, "fact", turn))
            elif (
                own
                and first
                and not (fixes or stale or pledge)
                and not _kept_in(first[0], kept)
                and (asked := answered(window, i, value_only=True))
            ):
                # the turn goes on after a value its rules left out ("12. the vet put her on a
                # renal diet" answering "How old is Pickle?"): the answer too, after what the
                # turn's rules chose (MAX_PER_TURN may leave it out)
                own.append((asked, "fact", turn))
            parts += own
        if pledge and not any(category == "commitment" for _, category, _ in parts):
            parts.append((pledge, "commitment", turn))
        decided = decision_asked_why(window, i, out)
        if decided is not None and (reason := the_reason(turn)):
            # "What tipped it?" / "bundle size mostly, ...": the decision's why, joined to it
            why = sentence_kinds.content_words(reason)
            parts = [(reason, "reason", turn)] + [
                p for p in parts if not sentence_kinds.content_words(p[0]) <= why
            ]
        for sentence, category, about in parts[:MAX_PER_TURN]:
            speaker = about.who
            pronoun = pronoun_of(speaker) if pronoun_of else "they"
            promised, said = None, sentence
            if category == "commitment":
                # "I'll drop it off Saturday": the thing just talked about ("my drill's still
                # at ur place", the listener's: a promise to them)
                talk = talk_before(window, i, sentence)
                said = the_thing_promised(as_pledge(sentence), talk, speaker, listener)
                answers = requested and about is turn
                promised = promise(said, speaker, listener, turn.created_at, answers, person)
                if promised is not None and sentence == pledge:  # owed to whoever asked
                    promised = replace(promised, owed_to=listener)
                if promised is not None and promised.due_at is None and answers:
                    # "can you send me the slides by Thursday?" / "sure, will do": by Thursday
                    asked = " ".join(requests)
                    due = due_date(asked, window[i - 1].created_at) or deadline_after(window, i)
                    promised = replace(promised, due_at=due)
                category = "commitment" if promised else "fact"
            if allowed is not None and category not in allowed and category != "reason":
                continue
            group = about.role.lower() == "user" and bool(about.speaker)  # a named person's "we"
            plain = without_vocative(without_label(without_opener(said)), listener)
            plain = without_own_name(plain, speaker)
            plain, confided = in_confidence(plain)
            plain, everyone = all_of_you(plain, listeners(window, i))
            if promised is not None and everyone:  # "I'll remind you both": owed to both
                promised = replace(promised, owed_to=everyone)
            if promised is not None and promised.owed_to.lower() in ("her", "him", "them"):
                # "I promised her I'd ...": the one just named, or nobody known
                # ... or named in the sentence itself ("Mum's surgery is on the 14th, I
                # promised I'd drive her")
                at = pledged_at(sentence)
                head = [sentence[:at]] if at is not None else []
                before = [*said_before(window, about, sentence), *head]
                whom = whom_it_means(promised.owed_to, before, pronoun_of)
                promised = replace(promised, owed_to=whom or "")
            theirs = said_before(window, about, sentence)
            plain = dose_of(medicine_named(who_is_meant(plain, theirs, pronoun_of), theirs), theirs)
            question = question_before(window, i) if about is turn else None
            answer = what_it_is(plain, question[1]) if question else plain
            # "How old is Pepper?" / "She's a border collie"; asked without its mark too ("how's
            # mum doing on the tablets" / "she says they make her a bit sick")
            resolve = resolve_asked if about is turn else None
            if answer == plain and resolve is not None:
                answer = resolve(plain)
            answers, plain = answer != plain, answer
            told = for_the_speaker(plain) if speaker else plain
            text = without_laughter(plain_words(third_person(told, speaker, pronoun, group)))
            if confided:  # the memory keeps that it was told in confidence
                text = f"{text.rstrip(' .!')} (told in confidence)."
            if promised is not None:  # "send you the report": you are the one it is owed to
                text = re.sub(r"\byour\b", f"{listener}'s", re.sub(r"\byou\b", listener, text))
            else:
                text = listener_named(text, listener)
                if group and category != "reason":  # a named person's: their name in it
                    text = attributed(text, about.speaker)
            # A correction is kept as what is true now ("... in May, not April, ..." -> "... in
            # May, ..."); the dedup judge reads it as said, the old value named, to find the
            # record it replaces (api/dedup), and the item's metadata keeps what it corrects.
            put_right = without_old(text) if sentence in fixes else None
            judged_as = None
            if put_right is not None:
                judged_as, (text, old) = text, put_right
            dated, dates = annotate(text[:1].upper() + text[1:], about.created_at)
            if category == "reason" and decided is not None:
                joined_to = out[decided]
                joined_to["context"] = _clip(joined(joined_to["context"], dated))
                joined_to["to_seq"] = turn.seq
                joined_to["keywords"] = [*joined_to["keywords"], *dates]
                joined_to.pop("embedding", None)  # its text changed: embedded anew
                continue
            cand: dict[str, Any] = {
                "category": category,
                "context": _clip(dated),
                "confidence": min(MAX_CONFIDENCE, 6 if turn.role == "user" else 5),
                "entities": entities_of(sentence, speaker),
                "keywords": dates,
                "valid_from": turn.created_at.isoformat(),
                "source": "machine",
                "from_seq": turn.seq,
                "to_seq": turn.seq,
            }
            # A fix of another turn's sentence was told there and put right here.
            referent = _referent_turn(window, i, sentence) if about is turn else about
            if answers and question:  # said in answer to the question just before
                referent = question[0]
            if referent is not None:
                cand["from_seq"] = referent.seq
            if sentence in turn.sentences:
                cand["embedding"] = turn.sentences[sentence]  # not embedded a second time
            if put_right is not None and judged_as is not None:
                said, _ = annotate(judged_as[:1].upper() + judged_as[1:], about.created_at)
                cand["metadata"] = {"corrects": old, "judged_as": _clip(said)}
            if promised is not None:
                cand["status"] = "open"
                if promised.due_at is not None:
                    cand["due_at"] = promised.due_at.isoformat()
                cand["owed_to"] = promised.owed_to or None
                cand["metadata"] = {
                    **cand.get("metadata", {}),
                    "owner": promised.owner,
                    "what": promised.what,
                }
            out.append(cand)
    return out
