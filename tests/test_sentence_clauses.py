"""A chat sentence made into one clean claim: talk of the conversation's own time and moods set
beside a fact taken off, "we" in third person, a dropped subject put back (pure functions)."""

from __future__ import annotations

import pytest

from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.sentence_clauses import without_chat_time, without_mood_clause
from memory_pipelines.core.sentence_forms import without_picture_frame
from memory_pipelines.core.sentence_kinds import sentence_kind
from memory_pipelines.core.sentence_people import names_somebody
from memory_pipelines.core.sentence_subject import with_subject
from memory_pipelines.core.third_person import third_person


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Much has happened since we last spoke - I went to a conference.",
         "I went to a conference."),
        ("I have been running longer since our last chat.", "I have been running longer."),
        ("A lot's happened - I just got accepted for a fashion internship!",
         "I just got accepted for a fashion internship!"),
        ("Since we last spoke, some big things have happened.", ""),
        ("Crazy thing happened since we last talked.", ""),
        ("Since we chatted last, I've been blogging.", "I've been blogging."),  # no "Last,"
        ("Since we last spoke, I got promoted.", "I got promoted."),  # no leading comma
        # news, not its announcement, and no talk of the conversation: left alone
        ("Things happened at work: I got promoted.", "Things happened at work: I got promoted."),
        ("I last spoke to my sister in May.", "I last spoke to my sister in May."),
    ],
)  # fmt: skip
def test_talk_of_the_conversations_own_time_is_taken_off(text: str, expected: str) -> None:
    assert without_chat_time(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It's been tough, but I'm living my true self.", "I'm living my true self."),
        ("I took my family camping last week - it was a really nice time!",
         "I took my family camping last week!"),
        # every clause a mood: the sentence is left to be judged whole (and dropped as a mood)
        ("It's tough but I'm determined and I won't quit.",
         "It's tough but I'm determined and I won't quit."),
        # the mood is what says whom it is about: kept
        ("Contemporary dance is so graceful - it really speaks to me.",
         "Contemporary dance is so graceful - it really speaks to me."),
        ("Losing my job was hard, but it pushed me to start my business.",
         "Losing my job was hard, but it pushed me to start my business."),
    ],
)  # fmt: skip
def test_a_mood_beside_a_fact_is_taken_off(text: str, expected: str) -> None:
    assert without_mood_clause(text, names_somebody) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We made it to the top and the view was stunning.",
         "John and others made it to the top and the view was stunning."),
        ("He was part of our family for 10 years.", "He was part of John's family for 10 years."),
        ("I love how art lets us get our emotions out.",
         "John loves how art lets him and others get their emotions out."),
        ("We've got a pup and a kitty.", "John and others have got a pup and a kitty."),
        ("The US is big.", "The US is big."),
        # two who make the subject: "our" is theirs
        ("Max and I had a blast on our camping trip.",
         "Max and John had a blast on their camping trip."),
        # a second verb of the same subject agrees too; "and" before no verb changes nothing
        ("I stay positive and find a way.", "John stays positive and finds a way."),
        ("I love hiking and yoga.", "John loves hiking and yoga."),
        ("I was tired and went home.", "John was tired and went home."),
        # what "our" shares with everybody stays everybody's
        ("I have great respect for our military.", "John has great respect for the military."),
        ("I'm upset by the state of our education.", "John is upset by the state of education."),
    ],
)  # fmt: skip
def test_a_persons_we_is_said_in_third_person(text: str, expected: str) -> None:
    assert third_person(text, "John", "he", group=True) == expected


def test_the_assistants_we_is_left_alone() -> None:
    assert third_person("We could try the later train.", "Assistant") == (
        "We could try the later train."
    )


def test_what_the_speaker_talked_about_is_an_event_not_talk_about_the_chat() -> None:
    said = "I talked about my transgender journey at the school event."
    assert sentence_kind(said, "user") == "fact"
    assert durable_parts(said, "user") == [(said, "fact")]
    assert sentence_kind("I talked to you about the weather yesterday.", "user") == "meta"
    assert sentence_kind("The user and I talked about the weather.", "assistant") == "meta"


def test_a_gerund_subject_and_what_is_coming_get_no_i() -> None:
    assert with_subject("Parenting's such a big responsibility.") == (
        "Parenting's such a big responsibility."
    )
    assert with_subject("Seeing this pic just made me smile.") == (
        "Seeing this pic just made me smile."
    )
    assert with_subject("Gonna be a big change.") == "It's gonna be a big change."
    assert with_subject("Gonna volunteer next month.") == "I'm gonna volunteer next month."


def test_greetings_and_talk_of_not_having_talked_are_no_memory() -> None:
    assert durable_parts("Hey! Just wanted to say hi! Long time no talk!", "user") == []
    text = "We haven't talked in a few days. Been rehearsing hard and working on business plans."
    assert [s for s, _ in durable_parts(text, "user")] == [
        "I've been rehearsing hard and working on business plans."
    ]


def test_a_left_out_i_before_a_negated_auxiliary_or_a_wish_comes_back() -> None:
    assert with_subject("Won't let anything hold me back!") == (
        "I won't let anything hold me back!"
    )
    assert with_subject("Wish I was that resilient too.") == "I wish I was that resilient too."
    assert with_subject("Don't give up!") == "Don't give up!"  # an imperative
    assert with_subject("Wasn't easy.") == "Wasn't easy."  # its subject is "it"


def test_a_short_event_with_its_time_is_a_fact_a_short_one_without_is_not() -> None:
    assert durable_parts("I graduated last week!", "user") == [("I graduated last week!", "fact")]
    assert durable_parts("I missed it.", "user") == []


def test_moods_in_everyday_words_are_no_facts() -> None:
    assert durable_parts("I'm excited for this new chapter!", "user", to_person=True) == []
    assert durable_parts("It's all a process and I'm learning a ton.", "user") == []
    assert [s for s, _ in durable_parts("I'm learning Spanish at night school.", "user")] == [
        "I'm learning Spanish at night school."
    ]


def test_chat_shorthand_is_written_out_in_the_memory() -> None:
    from datetime import UTC, datetime

    from memory_pipelines.core.extract import WindowTurn, extract_window
    from memory_pipelines.core.plain_words import plain_words

    assert plain_words("Took my fam camping, 'cause the biz's doing well") == (
        "Took my family camping, because the business's doing well"
    )
    assert plain_words("the BC Lions and a famous vid") == "the BC Lions and a famous video"
    said = datetime(2023, 6, 26, tzinfo=UTC)
    turns = [WindowTurn(1, "user", "Melanie", "I took my fam camping in the mountains.", said)]
    (cand,) = extract_window(turns, pronoun_of=lambda _: "she")
    assert cand["context"] == "Melanie took her family camping in the mountains."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "That pic's from when my dance crew took home first in a local comp last year.",
            "My dance crew took home first in a local comp last year.",
        ),
        ("that pic was from a show I went to.", "I went to a show."),
        (
            "That picture was from a trip we took last year for my daughter Sara's birthday!",
            "We took a trip last year for my daughter Sara's birthday!",
        ),
        # nothing done that the picture comes from: left alone
        ("This pic's from last night - everyone was having a blast.", None),
        ("That photo is from my wedding.", None),
    ],
)
def test_a_picture_said_to_come_from_what_the_speaker_did_is_that_deed(
    text: str, expected: str | None
) -> None:
    assert without_picture_frame(text) == (expected or text)
    if expected is not None:
        kept = durable_parts(text, "user", [], "Gina", to_person=True)
        assert [s for s, _ in kept] == [expected]


def test_an_apology_closing_a_sentence_is_no_part_of_the_fact() -> None:
    """ "peanuts are totally fine, my bad" was kept as "Peanuts are totally fine, Paula's bad"
    (a chat set written apart from the code; a new user's probe had "Mia's bad")."""
    from memory_pipelines.core.sentence_clauses import without_apology

    assert without_apology("walnuts are totally fine, my bad") == "walnuts are totally fine"
    assert without_apology("The dentist is at 4pm, sorry about that!") == "The dentist is at 4pm!"
    assert without_apology("it's the blue folder - oops my mistake") == "it's the blue folder"
    # an apology alone, or one that is all the sentence says, stays as said
    for said in ("sorry", "my bad", "I'm sorry", "I'm so sorry"):
        assert without_apology(said) == said
