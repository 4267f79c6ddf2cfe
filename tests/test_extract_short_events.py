"""An event of four words is a fact ("We adopted a dog!", "I sold my car"), and a note with no
verb after a statement ("Biscuit, 4 years old, beagle mix") is kept joined to it. Both were
dropped: a plain sentence needed five words, and the note names nobody alone (found on
extraction_u; the sentences here are our own words)."""

from memory_pipelines.core.concrete import plain_statement
from memory_pipelines.core.extract_parts import durable_parts


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Agent")]


def test_an_event_of_four_words_is_kept() -> None:
    for said in ("We adopted a kitten!", "I sold my motorbike.", "We bought a caravan"):
        assert plain_statement(said), said
    # a pronoun, a time of theirs or a moment's doing is no thing they got
    for said in ("I did it!", "I lost my afternoon.", "We had a blast.", "I took a break."):
        assert not plain_statement(said), said
    assert _kept("We adopted a kitten!") == ["We adopted a kitten!"]


def test_a_note_with_no_verb_joins_the_statement_before_it() -> None:
    kept = _kept("we adopted a kitten! Mochi, 10 weeks old, tabby")
    assert len(kept) == 1 and "kitten" in kept[0] and "tabby" in kept[0], kept
    # a note after nothing that may be pointed to stays out, and so does a note with no
    # detail (no number, no name): a mood, no fact of the statement's
    assert _kept("wow. Mochi, 10 weeks old, tabby") == []
    kept = _kept("We went to the lake with the kids on Sunday. Such a lovely day.")
    assert kept and not any("lovely" in s for s in kept), kept
