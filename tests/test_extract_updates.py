"""News of a change said in passing, in a chat with the assistant, is kept: a new price, a
share raised, someone fired or leaving, a date moved, an allergy told while telling something
else (found by a helper who wrote four chats as a new user: each of these turns gave no item,
so the old value stayed current)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.hedges import without_hedged_tail
from memory_pipelines.core.sentence_forms import without_opener
from memory_pipelines.core.sentence_people import names_somebody, stands_alone

SAID = datetime(2026, 11, 3, 10, tzinfo=UTC)


def _items(speaker: str, *texts: str) -> list[str]:
    turns = [WindowTurn(n, "user", speaker, text, SAID) for n, text in enumerate(texts, start=1)]
    return [c["context"] for c in extract_window(turns, pronoun_of=lambda _: "she")]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "Niamh's upped her share to €700 a month btw, after seeing the fees",
            "Niamh's upped her share to €700 a month",
        ),
        ("well. we fired Mike. he didn't show up for 4 days straight", "fired Mike"),
        (
            "party update: the boathouse double-booked the 14th, so it's now saturday 21 november",
            "saturday 21 november",
        ),
        ("update on the card: down to £2,100. paid the ring deposit", "down to £2,100"),
        (
            "morning. news: Jamal's leaving at the end of september, he got into culinary school",
            "Jamal's leaving at the end of september",
        ),
        (
            "pricing. our sourdough loaf is £4.20 and I think we're losing money on it",
            "sourdough loaf is £4.20",
        ),
        (
            "they asked about allergies - penicillin, and I remembered he also reacts to "
            "elastoplast, so latex/plasters too",
            "latex/plasters",
        ),
    ],
)
def test_news_said_in_passing_is_kept(said: str, kept: str) -> None:
    items = _items("Rosa", said)
    assert any(kept in item for item in items), items


def test_a_firm_statement_loses_only_the_belief_after_it() -> None:
    assert (
        without_hedged_tail("Our loaf is £4.20 and I think we're losing money on it", "user")
        == "Our loaf is £4.20."
    )
    for unchanged in (
        "I think our loaf is £4.20 and we're losing money",  # the hedge governs it all
        "It is and I think so",  # too short a statement to stand
        "Our loaf is £4.20 and we're losing money on it",  # no belief
    ):
        assert without_hedged_tail(unchanged, "user") == unchanged


@pytest.mark.parametrize(
    ("sent", "firm"),
    [
        # a hedge word in the clause after "and"
        (
            "My daughter Ines turned 4 in May and is apparently a vegetarian now",
            "My daughter Ines turned 4 in May.",
        ),
        # ... after "but": the allergy is sure, the second one is not
        (
            "Tomasz is allergic to sesame but maybe not to poppy seeds",
            "Tomasz is allergic to sesame.",
        ),
        # the first joint after a firm statement: "so you know" is no joint of it
        (
            "just so you know I'm coeliac, so maybe skip the pasta ideas",
            "just so you know I'm coeliac.",
        ),
    ],
)
def test_a_firm_statement_loses_a_hedged_clause_after_it(sent: str, firm: str) -> None:
    assert without_hedged_tail(sent, "user") == firm


def test_names_opening_a_sentence_and_short_deeds() -> None:
    assert names_somebody("Jamal's leaving at the end of september")
    assert names_somebody("Niamh's upped her share")
    for nobody in (
        "Pottery's so relaxing and creative",
        "There's been a lot going on",
        "Work's been mad",
    ):
        assert not names_somebody(nobody), nobody
    assert stands_alone("We fired Mike.", strong=False)
    assert stands_alone("I met Anna.", strong=False)
    for short in ("We fired it.", "We loved it.", "Thanks, Mike."):
        assert not stands_alone(short, strong=False), short
    # a change of theirs under way is theirs, not people in general (a probe in our words:
    # "we're switching the wedding venue to the barn" gave no item)
    assert names_somebody("we're switching the party venue to the boathouse")
    assert names_somebody("We're selling the caravan this spring.")
    assert not names_somebody("we're having so much fun")


def test_small_talk_and_questions_stay_out() -> None:
    assert _items("Rosa", "Work's been mad. Any update on your side?") == []
    # a question about an allergy is no fact of anyone's
    assert _items("Rosa", "Is he allergic to penicillin, do you know?") == []


def _promises(*said: tuple[str, str], genders: dict[str, str]) -> list[tuple[str, str | None]]:
    turns = [
        WindowTurn(n, "assistant" if who == "assistant" else "user", who, text, SAID)
        for n, (who, text) in enumerate(said, start=1)
    ]
    cands = extract_window(turns, pronoun_of=lambda name: genders.get(name, "they"))
    return [(c["context"], c.get("owed_to")) for c in cands if c["category"] == "commitment"]


def test_a_promise_to_her_or_him_is_owed_to_the_one_just_named() -> None:
    """It had been owed to "her", or to the assistant ("I told him I'll ...")."""
    genders = {"Priyanka": "they", "Tom": "he", "Anna": "she"}
    [(_, whom)] = _promises(
        ("Rosa", "Priyanka told me she's pregnant!! she wants to start leave mid december"),
        ("assistant", "Congratulations to her! How are you feeling about cover?"),
        ("Rosa", "I promised her I'd have maternity cover sorted by 15 November"),
        genders=genders,
    )
    assert whom == "Priyanka"
    [(_, whom)] = _promises(
        ("Rosa", "Mr Hargreaves rang about the lease renewal."),
        ("Rosa", "I told him I'll send the signed renewal back by 31 October"),
        genders=genders,
    )
    assert whom == "Mr Hargreaves"
    # the one of her gender among those named
    [(_, whom)] = _promises(
        ("Rosa", "Tom and Anna came round for dinner."),
        ("Rosa", "I promised her I'd lend them the drill by Friday"),
        genders=genders,
    )
    assert whom == "Anna"
    # nobody named, or two who may be her: owed to nobody known, never to "her"
    for before in ("The kids were great today.", "Anna and Maya came round for dinner."):
        [(_, whom)] = _promises(
            ("Rosa", before),
            ("Rosa", "I promised her I'd lend the drill by Friday"),
            genders={"Anna": "she", "Maya": "she"},
        )
        assert whom is None


def test_a_name_that_qualifies_a_thing_is_nobody_owed() -> None:
    from memory_pipelines.core.promises import promise

    said = "I'll check the reference list for Chicago style and send back corrections by Monday"
    found = promise(said, "Assistant", "Kenji", SAID)
    assert found is not None and found.owed_to == "Kenji"  # not "Chicago"
    for to_ana in ("I'll send the slides to Ana by Friday", "I'll print it for Ana tomorrow"):
        found = promise(to_ana, "Rosa", "Assistant", SAID)
        assert found is not None and found.owed_to == "Ana", to_ana


def test_promises_reported_in_more_forms() -> None:
    """Promises a second new-user probe saw stored as plain facts (never listed as
    commitments): a thing readied for the one told, another's promise to the speaker, a pledge
    reported with "said", and a due time said as the end of a month."""
    from memory_pipelines.core.promises import promise

    readied = promise("I told Omar I'd get the floor plans finished by 9 March", "Lena", "x", SAID)
    assert readied is not None and readied.owed_to == "Omar"
    assert readied.due_at is not None and (readied.due_at.month, readied.due_at.day) == (3, 9)
    # a plan of one's own readied, told to nobody, stays no promise
    assert promise("I'll have the floor plans finished by 9 March", "Lena", "x", SAID) is None
    theirs = promise("jonas promised me the revised quote by the end of january", "Lena", "x", SAID)
    assert theirs is not None and (theirs.owner, theirs.owed_to) == ("Jonas", "Lena")
    assert theirs.due_at is not None and (theirs.due_at.month, theirs.due_at.day) == (1, 31)
    for nobody in ("they promised me a refund", "the quote Jonas promised me"):
        assert promise(nobody, "Lena", "x", SAID) is None, nobody
    [(said, _)] = _promises(
        ("Lena", "I said I'd send them a signed copy of the lease by 12 December"),
        genders={},
    )
    assert "would send them a signed copy" in said
    # "send them tomorrow" (the letters) names nobody it is owed to
    [(_, whom)] = _promises(("Lena", "The letters are done, I'll send them tomorrow"), genders={})
    assert whom != "them"


def test_another_persons_promise_is_theirs() -> None:
    cands = extract_window(
        [WindowTurn(1, "user", "Lena", "jonas promised me the revised quote by 20 January", SAID)],
        pronoun_of=lambda _: "she",
    )
    [c] = [c for c in cands if c["category"] == "commitment"]
    assert (c["metadata"]["owner"], c["owed_to"]) == ("Jonas", "Lena")


def test_another_persons_pledge_reported_with_said_is_theirs() -> None:
    """ "Kofi said he'll send the contract over next week" is Kofi's promise to the speaker, a
    thing given by a due time; "Tom said he'll quit his job next month" is news of Tom, no
    promise to anyone, and a thing given with no time is no more than talk."""
    cands = extract_window(
        [WindowTurn(1, "user", "Lena", "Idris said he'll post the spare keys by Friday", SAID)],
        pronoun_of=lambda _: "she",
    )
    [c] = [c for c in cands if c["category"] == "commitment"]
    assert (c["metadata"]["owner"], c["owed_to"]) == ("Idris", "Lena")
    assert c["due_at"] is not None
    for news in (
        "Idris said he'll move to Glasgow next month",
        "Idris said he'll send the keys at some point",
    ):
        cands = extract_window(
            [WindowTurn(1, "user", "Lena", news, SAID)], pronoun_of=lambda _: "he"
        )
        assert not any(c["category"] == "commitment" for c in cands), (news, cands)


def test_a_step_taken_on_by_a_due_time_is_a_promise() -> None:
    """ "Let me check with finance and get back to you by Thursday" was dropped as the chat's
    next turn; with its due time it is the assistant's promise ("I'll get back to you" alone
    stays none). "Don't worry," before it is no part of it."""
    window = [
        WindowTurn(1, "user", "Lena", "any news on the deposit?", SAID),
        WindowTurn(
            2, "assistant", "Agent", "Let me ask the landlord and get back to you by Friday.", SAID
        ),
    ]
    [c] = [
        c
        for c in extract_window(window, pronoun_of=lambda _: "she")
        if c["category"] == "commitment"
    ]
    assert c["owed_to"] == "Lena" and c["due_at"] is not None, c
    assert c["context"].startswith("Agent will ask the landlord"), c
    for step in (
        "Let me check and get back to you.",
        "Let me go through your numbers first, then I'll suggest a savings plan.",
    ):
        window[1] = WindowTurn(2, "assistant", "Agent", step, SAID)
        assert not any(
            c["category"] == "commitment"
            for c in extract_window(window, pronoun_of=lambda _: "she")
        ), step
    window[1] = WindowTurn(
        2, "assistant", "Agent", "Don't worry, I'll chase the deposit for you by Friday.", SAID
    )
    [c] = extract_window(window, pronoun_of=lambda _: "she")
    assert c["context"].startswith("Agent will chase the deposit"), c


def test_a_speaker_introducing_themselves() -> None:
    """A second new-user probe's opening turn ("ok so I'm Nadia, freelance web dev based in
    Bristol") was dropped as an acknowledgement ("Ok so" read as "Ok") and written "Nadia is
    Nadia, freelance web dev"."""
    said = _items("Omar", "ok so I'm Omar, a tram driver based in Sheffield, mostly night shifts.")
    assert said == ["Omar is a tram driver based in Sheffield, mostly night shifts."]
    assert _items("Omar", "Hi, I'm Omar, a tram driver in Sheffield.") == [
        "Omar is a tram driver in Sheffield."
    ]
    # "so far" is no opener
    assert without_opener("ok so far the tram is fine") == "Ok so far the tram is fine"


def test_a_preference_told_to_the_assistant_about_its_own_work_is_kept() -> None:
    text = "one thing for whenever you write my cover letters: no exclamation marks, ever."
    kept = durable_parts(text, "user", [], "Agent", to_person=False)
    assert [k for _, k in kept] == ["preference"], kept
    # said to a person, the same words speak to them: nothing of the speaker's to keep
    assert durable_parts(text, "user", [], "Priya", to_person=True) == []
