"""A dislike said of "them" names what they are, when the turn just said it: "mushrooms. can't
stand them" was kept as "Ifeoma can't stand them", a taste for nothing (found on extraction_u
and _v; the chats here are our own words)."""

from memory_pipelines.core.antecedents import them_named
from memory_pipelines.core.extract_parts import durable_parts


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", ["Any foods you avoid?"], "Agent")]


def test_them_is_the_things_the_answer_named() -> None:
    assert _kept("olives. hate them") == ["I hate olives"]
    assert _kept("raw onions. can't stand them") == ["I can't stand raw onions"]
    assert "I really hate aubergines" in _kept(
        "no more recipes with aubergines please. I really hate them"
    )


def test_them_stays_when_the_things_are_ones_own_or_unsaid() -> None:
    # one's own things: "Love them" is no taste for every running shoe
    assert them_named("Love them, so comfy", "I bought new running shoes.") == (
        "Love them, so comfy"
    )
    # a number says which ones ("two huskies"), a verb or "this" says no thing at all
    assert them_named("I can't stand them", "My neighbours got two huskies.") == (
        "I can't stand them"
    )
    assert them_named("I keep them in the garage", "Is this safe?") == ("I keep them in the garage")
    # "them" said twice may be two things
    assert them_named("I buy them and eat them", "stuff with figs") == ("I buy them and eat them")
