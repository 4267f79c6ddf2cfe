"""When a promise is due, in the forms people write it (core/due_dates.py): a year beside the
date, a month alone, a time of day, feast days, ordinal words and spans counted in hours or
fortnights; and which of them only say when something happens. Written by hand from ordinary
phrasing, not from any evaluation case."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.api.memory import Memory
from memory_pipelines.core.due_dates import due_date, in_time_only
from memory_pipelines.core.promises import promise

SAID = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)  # a Wednesday, mid-morning


def _due(text: str) -> str | None:
    when = due_date(text, SAID)
    return None if when is None else when.strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    ("text", "due"),
    [
        # the year said with the date is that year's, not the next such day's
        ("I'll send the deposit by March 20, 2027", "2027-03-20 23:59"),
        ("I'll send the deposit by 20 March 2027.", "2027-03-20 23:59"),
        ("I'll file it by 2026-04-02", "2026-04-02 23:59"),
        # ordinal words of a day
        ("I'll pay you back by the first of April", "2026-04-01 23:59"),
        ("I'll pay you back by April the third", "2026-04-03 23:59"),
        ("I'll have it done by the twenty-first", "2026-03-21 23:59"),
        # a month alone: "by" before it begins, "in" by its end, parts of it
        ("I'll send you the draft by May", "2026-04-30 23:59"),
        ("I'll send you the draft before June", "2026-05-31 23:59"),
        ("I'll send you the photos in May", "2026-05-31 23:59"),
        ("I'll get you the figures by mid-April", "2026-04-15 23:59"),
        ("I'll visit you in late June 2027", "2027-06-30 23:59"),
        ("I'll repay the loan by January", "2026-12-31 23:59"),  # January is next year's
        # a time of day, alone or on its day
        ("I'll send you the link by 5pm", "2026-03-11 17:00"),
        ("I'll send you the link by 9am", "2026-03-12 09:00"),  # 9am has passed today
        ("I'll ring you back by noon", "2026-03-11 12:00"),
        ("I'll have the keys to you tomorrow by noon", "2026-03-12 12:00"),
        ("I'll drop the forms to Dana by Friday at 5:30pm", "2026-03-13 17:30"),
        ("I'll send the invoice to Lee before 17:00 on Monday", "2026-03-16 17:00"),
        # an hour said bare, its part of the day telling which
        ("I'll drop the keys round at 7 tonight", "2026-03-11 19:00"),
        ("I'll be there at 7:30 this evening", "2026-03-11 19:30"),
        ("I'll call you at 8 tomorrow morning", "2026-03-12 08:00"),
        # a part of the day, by its end; "first thing" by nine
        ("I'll ring you first thing tomorrow", "2026-03-12 09:00"),
        ("I'll drop the keys round tomorrow morning", "2026-03-12 12:00"),
        ("I'll send you the photos Friday afternoon", "2026-03-13 17:00"),
        ("I'll send you the photos by Friday morning at 10am", "2026-03-13 10:00"),
        # spans from when it was said
        ("I'll get back to you within the hour", "2026-03-11 11:00"),
        ("I'll send it to you in 2 hours", "2026-03-11 12:00"),
        ("I'll return your drill in a fortnight", "2026-03-25 23:59"),
        ("I'll send you the recipe in a couple of days", "2026-03-13 23:59"),
        ("I'll send you the recipe in a few days", "2026-03-14 23:59"),
        ("I'll call you later today", "2026-03-11 23:59"),
        ("I'll bring your book back Friday week", "2026-03-20 23:59"),
        # the end of a year or a quarter
        ("I'll pay you back by the end of the year", "2026-12-31 23:59"),
        ("I'll send the report by the end of the quarter", "2026-03-31 23:59"),
        # feast days: "before" one is the day before it
        ("I'll post your present before Christmas", "2026-12-24 23:59"),
        ("I'll finish the quilt for you by Christmas", "2026-12-25 23:59"),
        ("I'll have the shed painted for you by Easter", "2026-04-05 23:59"),  # Easter 2026
        ("I'll pay the rest by New Year", "2027-01-01 23:59"),
        ("I'll bring the pie over for Thanksgiving", "2026-11-26 23:59"),
        # a time told by what the day holds: after lunch by the afternoon's end, after work
        # by the day's, before work the next morning once today's has gone
        ("I'll paste you the full log after lunch", "2026-03-11 17:00"),
        ("I'll have the figures to you before lunch", "2026-03-11 12:00"),
        ("I'll ring you tomorrow after work", "2026-03-12 23:59"),
        ("I'll drop the forms round before work", "2026-03-12 09:00"),
    ],
)
def test_the_due_time_is_read_from_the_words(text: str, due: str) -> None:
    assert _due(text) == due


@pytest.mark.parametrize(
    "text",
    [
        "I may be late, sorry",  # "may" the verb
        "Things in may be different",
        "We're away until May",  # how long, not when
        "I'll book it by 25:00",  # no time of day
        "The first of many",
    ],
)
def test_no_due_time_where_none_is_said(text: str) -> None:
    assert _due(text) is None


@pytest.mark.parametrize(
    ("text", "when_only"),
    [
        ("I'm moving in May", True),
        ("I'll call you at 3pm", True),
        ("We're away over Christmas", True),
        ("I'm going for a run this afternoon", True),
        ("I'll go to the gym after work", True),
        ("I'll send you the draft before lunch", False),
        ("I'll send you the draft by May", False),
        ("I'll send you the link by 5pm", False),
        ("I'll post it before Christmas", False),
        ("I'll pay you back by the end of the year", False),
    ],
)
def test_when_a_thing_happens_is_no_deadline(text: str, when_only: bool) -> None:
    assert in_time_only(text) is when_only


def test_a_plan_at_a_time_of_its_own_is_no_promise() -> None:
    # a time the speaker does something at binds nobody; the same time said to someone
    # ("I'll call you") is when the promise is due
    assert promise("I'm going to repaint the shed in May.", "Ola", "Tom", SAID) is None
    made = promise("I'll call you at 3pm.", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Tom"
    assert made.due_at == datetime(2026, 3, 11, 15, 0, tzinfo=UTC)
    made = promise("I'll send Priya the contract by May.", "Ola", "Tom", SAID)
    assert made is not None and made.owed_to == "Priya"
    assert made.due_at == datetime(2026, 4, 30, 23, 59, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "due"),
    [
        # 16:00 in New York: 5pm is today's, 21:00 UTC
        ("America/New_York", datetime(2026, 3, 11, 21, 0, tzinfo=UTC)),
        # 20:00 in UTC: 5pm has passed, so it is tomorrow's
        ("UTC", datetime(2026, 3, 12, 17, 0, tzinfo=UTC)),
    ],
)
def test_a_time_of_day_is_the_stores_own(memory: Memory, zone: str, due: datetime) -> None:
    """ "by 5pm" is read in the store's Extraction time zone (UTC unless set)."""
    memory.configure(extraction={"timezone": zone, "quiet_minutes": 0})
    said = datetime(2026, 3, 11, 20, 0, tzinfo=UTC)
    memory.write_turns(
        "errand",
        [
            {"role": "user", "speaker": "Ola", "text": "I'll send you the invoice by 5pm",
             "created_at": said},
            {"role": "user", "speaker": "Tom", "text": "great, thanks",
             "created_at": said + timedelta(minutes=1)},
        ],
    )  # fmt: skip
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t")
    with memory.db.connection() as conn:
        row = conn.execute(
            "SELECT due_at, owed_to FROM agent_memory_items"
            " WHERE store_id = %s AND category = 'commitment'",
            (memory.store_id,),
        ).fetchone()
    assert row is not None and row["owed_to"] == "Tom"
    assert row["due_at"] == due


def test_a_date_with_its_year_ends_in_the_time_zone_it_was_said_in() -> None:
    """A date with a year ("by 2027-03-20", "by 20 March 2027") ended at 23:59 UTC whatever the
    zone it was said in, when every other day ended at 23:59 of that zone."""
    from zoneinfo import ZoneInfo

    york = ZoneInfo("America/New_York")
    said = SAID.astimezone(york)
    for text in ("I'll file it by 2027-03-20", "I'll file it by 20 March 2027", "by mid-April"):
        due = due_date(text, said)
        assert due is not None and due.tzinfo == york and (due.hour, due.minute) == (23, 59)
    naive = due_date("I'll file it by 20 March 2027", SAID.replace(tzinfo=None))
    assert naive is not None and naive.tzinfo is None


@pytest.mark.parametrize(
    ("text", "due"),
    [
        # a new user's probe: chat's short weekdays and "eod" ("by wed eod" had no due time)
        ("ill have the budget draft to u by thurs eod", "2026-03-12 23:59"),
        ("I'll drop the keys round fri morning", "2026-03-13 12:00"),
        ("I'll return the van by mon", "2026-03-16 23:59"),
        ("I'll send it over by cob", "2026-03-11 23:59"),
        # the day's own name before its date: "on payday, the 15th"
        ("I'll pay you back on payday, the 25th", "2026-03-25 23:59"),
    ],
)
def test_a_day_as_chat_shortens_it(text: str, due: str) -> None:
    assert _due(text) == due


@pytest.mark.parametrize(
    "text", ["I sat on the train all day", "the sun was out", "they wed at sunset"]
)
def test_a_short_day_word_that_is_a_word_dates_nothing(text: str) -> None:
    assert _due(text) is None


def test_money_sent_by_an_app_is_a_promise_to_whom_it_goes() -> None:
    from memory_pipelines.core.plain_words import with_apostrophes

    said = with_apostrophes("ill venmo u on payday, the 25th")
    assert said == "I'll venmo you on payday, the 25th"
    owed = promise(said, "Hannah", "Raj", SAID)
    assert owed is not None and owed.owed_to == "Raj"
    assert owed.due_at is not None and owed.due_at.day == 25
    assert with_apostrophes("I felt ill all week") == "I felt ill all week"


def test_a_time_right_after_its_day_is_that_time_of_it() -> None:
    """A new user's probe: "dinner at luigi's sat 7pm" was due at the day's end."""
    assert _due("I'll book the table on saturday 7pm") == "2026-03-14 19:00"
    assert _due("I'll book the table for saturday 7pm") is None  # a thing's day, as before
    assert _due("I'll ring you fri 6:30pm") == "2026-03-13 18:30"
    assert in_time_only("we're going to the cinema sat 7pm")  # when it happens, no deadline


def test_a_day_after_her_as_whom_is_when() -> None:
    """A new user's probe: "i promised my mom id call her sunday" had no due day: "her" read as
    whose Sunday it was."""
    assert _due("I'll ring her sunday, it's her birthday") == "2026-03-15 23:59"
    assert _due("I'll see her friday morning") == "2026-03-13 12:00"
    assert _due("I'll cover her Sunday class") is None  # her day, of a thing
