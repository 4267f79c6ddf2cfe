"""A full stop after a title ("Dr. Halvorsen", "Mrs. Patel") or "e.g." ends no sentence: the
item keeps the whole fact, not "Lily started piano with Mrs." (found by a user's chats). The
spans ingest stores for sentence vectors are the same sentences."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_pipelines.core.extract import WindowTurn, extract_window
from memory_pipelines.core.sentence_kinds import sentence_spans, sentences

SAID = datetime(2026, 3, 1, tzinfo=UTC)


def test_titles_and_examples_end_no_sentence() -> None:
    text = "The orthopedist, Dr. Halvorsen, booked it. Fruit, e.g. apples, is fine.\nOk"
    assert sentences(text) == [
        "The orthopedist, Dr. Halvorsen, booked it.",
        "Fruit, e.g. apples, is fine.",
        "Ok",
    ]
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences(text)
    # a word in lower case, or a capital letter, is no title: the sentence ends there
    assert sentences("He is my dr. Fine.") == ["He is my dr.", "Fine."]
    assert sentences("I got an A. Mum was thrilled.") == ["I got an A.", "Mum was thrilled."]


def test_an_item_keeps_the_name_after_a_title() -> None:
    said = ["Lily started piano with Mrs. Patel last week.", "Dr. Okafor moved my scan to May 3rd."]
    turns = [WindowTurn(n, "user", "Maya", t, SAID) for n, t in enumerate(said, start=1)]
    texts = [c["context"] for c in extract_window(turns, pronoun_of=lambda _: "she")]
    # led by Maya's name: the fact names Lily, not her (tests/test_extract_attributed.py)
    assert any(t.startswith("Maya: Lily started piano with Mrs. Patel") for t in texts), texts
    assert not any(t.endswith(("Mrs.", "Dr.")) for t in texts), texts


def test_an_emoji_before_a_word_ends_a_chat_sentence() -> None:
    text = "my daughter Aiko started nursery today 😭 my partner Ren cried more than she did lol"
    assert sentences(text) == [
        "my daughter Aiko started nursery today 😭",
        "my partner Ren cried more than she did lol",
    ]
    # an emoji at the end, or before another emoji, splits nothing
    assert sentences("so proud of her 🥹🎉") == ["so proud of her 🥹🎉"]
    assert sentences("facepalm 🤦‍♀️ anyway") == ["facepalm 🤦‍♀️", "anyway"]


def test_a_question_after_a_statements_comma_is_a_sentence_of_its_own() -> None:
    """ "my sister's wedding is on the 11th of July, could you look after Pixel that weekend?"
    was read as one question, so the wedding date was never kept, nor put right by "sorry,
    it's the 12th not the 11th" (a chat set written apart from the code)."""
    text = "our lease ends on the 30th of June, can you help me find a van? thanks"
    assert sentences(text) == [
        "our lease ends on the 30th of June",
        "can you help me find a van?",
        "thanks",
    ]
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences(text)
    # a condition, a time or a greeting before the question is part of what is asked
    for asked in (
        "if it rains on Sunday, could you bring the chairs in?",
        "when you get back from Leeds, can you call me?",
        "hey there, could you check the rota?",
        "is he allergic to penicillin, do you know?",  # a question itself
    ):
        assert sentences(asked) == [asked]
