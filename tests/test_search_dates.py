"""A question that names a date: the turns said then, and the items true from then, rank first
(question_times.question_windows, ranking.DATE_BONUS). A question that asks when: the records that
say when rank higher (core/question_times.SAYS_WHEN_SQL, ranking.WHEN_BONUS)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_pipelines.api import Memory, Recall
from memory_pipelines.core import ranking
from memory_pipelines.core.question_times import (
    _SAYS_WHEN,
    ASKS_WHEN,
    DAY_SLACK,
    SAYS_WHEN_SQL,
    SAYS_WHEN_WORDS,
    named_windows,
    question_windows,
    says_when,
)
from memory_pipelines.core.ranking import Candidate, score
from memory_pipelines.store import search as search_db
from memory_pipelines.store.search_sql import _says_when


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("What was Tim's writing issue, as mentioned on November 6, 2023?", (2023, 11, 6)),
        ("What did Audrey do over the weekend before 4th October, 2023?", (2023, 10, 4)),
        ("Where was the picture shared on December 1,2023 taken?", (2023, 12, 1)),
        ("What did we decide on the 3rd of March 2024?", (2024, 3, 3)),
        ("Notes from the 2025-02-28 call", (2025, 2, 28)),
        ("What happened on Sept. 9 2022?", (2022, 9, 9)),
    ],
)
def test_a_named_day_is_that_day_widened_for_time_zones(
    text: str, day: tuple[int, int, int]
) -> None:
    start = _utc(*day)
    assert named_windows(text) == [(start - DAY_SLACK, start + timedelta(days=1) + DAY_SLACK)]


def test_a_named_month_is_that_month_and_a_date_needs_its_year() -> None:
    assert named_windows("What did Maria take up in August 2023?") == [
        (_utc(2023, 8, 1), _utc(2023, 9, 1))
    ]
    assert named_windows("Plans for December, 2024") == [(_utc(2024, 12, 1), _utc(2025, 1, 1))]
    year = [(_utc(2022, 1, 1), _utc(2023, 1, 1))]
    assert named_windows("What did Ana read in 2022?") == year
    assert named_windows("Trips during the year 2022") == year
    # two dates: both; a day is not also read as its month
    both = named_windows("Was it 12 May 2023 or in June 2024?")
    assert both == [
        (_utc(2023, 5, 12) - DAY_SLACK, _utc(2023, 5, 13) + DAY_SLACK),
        (_utc(2024, 6, 1), _utc(2024, 7, 1)),
    ]
    for nothing in (
        "When did Melanie go camping in July?",  # which July?
        "We met on 31 February 2023",  # no such day
        "9999-12-31, 0000-01-01 and December 9999",  # past datetime's years
        "I marched 2023 steps",
        "Prices have doubled since 2022",  # after it, not within it
        "in 9999",
        "",
    ):
        assert named_windows(nothing) == [], nothing


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=12),
            st.sampled_from(["on", "in", "during", "the", "of", ",", "yesterday", "last",
                             "week", "month", "ago", "3", "31st", "May", "sept.", "Feb"]),
            st.integers(-5, 99999).map(str),
        ),
        max_size=8,
    ).map(" ".join),
    st.datetimes(datetime(1, 2, 1), datetime(9998, 11, 1), timezones=st.just(UTC)),
)  # fmt: skip
def test_any_question_gives_windows_and_never_an_error(text: str, now: datetime) -> None:
    """A search must never fail on the words of its question: whatever they are, the times
    read from them are well-formed (start before end, in UTC)."""
    for start, end in question_windows(text, now):
        assert start < end
        assert start.utcoffset() == end.utcoffset() == timedelta(0)


def test_a_time_before_the_calendar_names_no_window() -> None:
    """Found by the property test above: "18263 weeks ago" said in the year 351, or "18253
    months ago" in 1522, fell before the year 1 and the search failed."""
    assert question_windows("what happened 18263 week ago?", datetime(351, 1, 1, tzinfo=UTC)) == []
    assert question_windows("18253 MONTH AGO", datetime(1522, 1, 1, tzinfo=UTC)) == []
    assert question_windows("what happened 3 weeks ago?", datetime(2024, 5, 22, tzinfo=UTC))


def test_times_named_relative_to_now_are_read_against_now() -> None:
    now = _utc(2026, 12, 3, 20)  # a Thursday

    def day(*d: int) -> tuple[datetime, datetime]:
        return _utc(*d) - DAY_SLACK, _utc(*d) + timedelta(days=1) + DAY_SLACK

    assert question_windows("What did I say yesterday?", now) == [day(2026, 12, 2)]
    assert question_windows("What did we decide last Tuesday?", now) == [day(2026, 12, 1)]
    assert question_windows("the plan from three days ago", now) == [day(2026, 11, 30)]
    week = question_windows("What happened last week?", now)
    assert week == [(_utc(2026, 11, 23) - DAY_SLACK, _utc(2026, 11, 30) + DAY_SLACK)]
    assert question_windows("Bills from last month", now) == [
        (_utc(2026, 11, 1), _utc(2026, 12, 1))
    ]
    assert question_windows("On 6 November, 2023 and yesterday", now) == [
        day(2023, 11, 6),
        day(2026, 12, 2),
    ]
    assert question_windows("What did I read last year?", now) == [
        (_utc(2025, 1, 1), _utc(2026, 1, 1))
    ]
    assert question_windows("What did I eat last summer?", now) == []
    assert question_windows("What did I eat?", now) == []


def test_a_record_dated_within_a_named_time_gains_the_date_bonus() -> None:
    windows = named_windows("What did Gina find on 1 February, 2023?")
    then = Candidate("turn", 1, lexical=0.4, cos=0.5, at=_utc(2023, 2, 1, 18))
    later = Candidate("turn", 2, lexical=0.4, cos=0.5, at=_utc(2023, 2, 9, 18))
    undated = Candidate("chunk", 3, lexical=0.4, cos=0.5)
    assert score(then, windows=windows) == pytest.approx(score(then) + ranking.DATE_BONUS)
    assert score(later, windows=windows) == pytest.approx(score(later))
    assert score(undated, windows=windows) == pytest.approx(score(undated))
    item = Candidate("item", 4, lexical=0.4, cos=0.5, at=_utc(2023, 2, 1))
    weight = ranking.KIND_WEIGHTS["item"]
    assert score(item, windows=windows) == pytest.approx(score(item) + ranking.DATE_BONUS * weight)
    ranked = ranking.rank([later, then], windows=windows)
    assert [c.id for c, _ in ranked] == [1, 2]
    assert [c.id for c, _ in ranking.rank([later, then])] == [1, 2]  # ties: by id


def test_search_for_a_named_day_puts_that_days_words_first(memory: Memory, recall: Recall) -> None:
    memory.add_person("ana")
    memory.add_person("ben")
    first, second = _utc(2023, 3, 6, 15), _utc(2023, 5, 9, 15)
    memory.write_turn("ana-chat", "I went to the dentist for a filling today.",
                      speaker="Ana", person="ana", created_at=first)  # fmt: skip
    memory.write_turn("ana-chat", "Went to the dentist for a cleaning, all good.",
                      speaker="Ana", person="ana", created_at=second)  # fmt: skip
    # Ben's turn on the first day says the same: it never reaches Ana.
    ben = memory.write_turn("ben-chat", "I went to the dentist for a filling today.",
                            speaker="Ben", person="ben", created_at=first)  # fmt: skip

    def days(question: str, person: str | None) -> list[datetime | None]:
        hits = recall.search(question, ["history"], person=person, k=5)
        if person != "ben":
            assert ben.turn_id not in {h.id for h in hits if h.kind == "turn"}
        return [h.at for h in hits if h.kind == "turn"]

    assert days("What did Ana do at the dentist on 9 May 2023?", "ana")[0] == second
    assert days("What did Ana do at the dentist on March 6, 2023?", "ana")[0] == first
    assert days("Dentist visits in May 2023?", "ana")[0] == second
    # a date no turn of the reader's was said on changes nothing of what they may read
    assert set(days("What about the dentist on 6 March 2023?", None)) == set()
    assert days("What about the dentist on 6 March 2023?", "ben") == [first]


def test_search_for_yesterday_puts_yesterdays_words_first(memory: Memory, recall: Recall) -> None:
    now = datetime.now(UTC)
    for days_ago, text in ((1, "Booked the dentist for a filling."),
                           (10, "Booked the dentist for a cleaning.")):  # fmt: skip
        memory.write_turn("c", text, speaker="Ana", created_at=now - timedelta(days=days_ago))
    for question, want in (("What did I book yesterday?", 1), ("What did I book 10 days ago?", 10)):
        hits = recall.search(question, ["history"], k=2)
        assert hits[0].at == now - timedelta(days=want), question


def test_an_email_sent_on_a_named_day_comes_first(memory: Memory, recall: Recall) -> None:
    for day, amount in ((3, "420"), (24, "380")):
        memory.add_document(
            f"mail-{day}", f"Invoice from the printers: {amount} euros, due in a month.",
            kind="email", sender="billing@example.com", created_at=_utc(2025, 3, day, 9),
        )  # fmt: skip
    for question, amount in (("Printers' invoice on 3 March 2025?", "420"),
                             ("Printers' invoice on 24 March 2025?", "380")):  # fmt: skip
        hits = recall.search(question, ["email"], k=2)
        assert amount in hits[0].text, question


SAYS = [
    ("I went to the pottery class last Friday.", True),
    ("We moved here in June, before the heatwave.", True),
    ("Back in 2019 I ran my first marathon.", True),
    ("That was three weeks ago, at the lake.", True),
    ("Every weekend we bake bread.", True),
    ("May I ask what you painted?", False),  # a verb
    ("Pottery is so relaxing, I love the clay.", False),
    ("I've got 2 kids and 3 dogs.", False),
]


def test_what_says_when_is_read_alike_in_python_and_in_postgres(db: Any) -> None:
    with db.connection() as conn:
        for text, want in SAYS:
            row = conn.execute("SELECT %s ~* %s AS says", (text, SAYS_WHEN_SQL)).fetchone()
            assert row["says"] is want is says_when(text), text
    for question in ("When did you go?", "What year did she move?", "How long ago was it?"):
        assert ASKS_WHEN.search(question), question
    for question in ("Where did you go?", "What did she paint when she was ten?"):
        assert not ASKS_WHEN.search(question), question
    tells = Candidate("turn", 1, lexical=0.2, cos=0.4, says_when=True)
    assert score(tells) == pytest.approx(
        score(Candidate("turn", 2, lexical=0.2, cos=0.4)) + ranking.WHEN_BONUS
    )


@settings(max_examples=500, deadline=None)
@given(
    st.from_regex(
        re.compile(_SAYS_WHEN.replace(r"\b", ""), re.IGNORECASE),
        alphabet=st.characters(max_codepoint=127),
    )
)
def test_every_text_that_says_when_holds_one_of_its_words(text: str) -> None:
    """Search tests SAYS_WHEN_WORDS before the pattern (store/search_sql._says_when): any text
    the pattern matches (here without its word boundaries, so more texts) holds one of them.
    PostgreSQL's case-insensitive match reads a letter of the pattern as itself or its upper
    case only, whose lower case is the letter again, so ASCII texts say it all."""
    assert any(w in text.lower() for w in SAYS_WHEN_WORDS), text


def test_the_words_before_the_pattern_give_the_patterns_answer(db: Any) -> None:
    params = search_db._params("s", "When?", None, None, 30, [], None, asks_when=True)
    with db.connection() as conn:
        for text, want in SAYS:
            sql = f"SELECT {_says_when('%(text)s::text')} AS says"
            assert conn.execute(sql, {**params, "text": text}).fetchone()["says"] is want, text


def test_a_question_asking_when_puts_what_says_when_first(
    memory: Memory, recall: Recall, db: Any
) -> None:
    # Without the bonus the first ranks first (by 0.13 here): it is nearer the question.
    memory.write_turns("c", [
        {"text": "I signed up for the pottery class, it is so relaxing.", "speaker": "Mel"},
        {"text": "Signed up for pottery last Friday.", "speaker": "Mel"},
    ])  # fmt: skip
    hits = recall.search("When did Mel sign up for the pottery class?", ["history"], k=2)
    assert hits[0].text == "Signed up for pottery last Friday."
    # a question that does not ask when reads no such test (its rows say False)
    qvec = recall.embedder.embed_one("What does Mel love about pottery?")
    with db.connection() as conn:
        rows = search_db.candidates(conn, ["turn"], memory.store_id, "What does Mel love about"
                                    " pottery?", qvec, None, 30)["turn"]  # fmt: skip
    assert rows and not any(r["says_when"] for r in rows)
