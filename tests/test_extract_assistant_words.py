"""The assistant's own words are no memory of anyone's: its quips, suggestions, drafts and
general advice stay in history. What it promises, a lesson or outcome it reports, the fix for
the problem just told and a safety fact are kept. Found on extraction_x ("Twelve is a lot of
bed, nice.", "Diggers it is: a ride-on digger ...", an out-of-office draft, stored as facts
and a decision); the sentences here are our own words."""

from memory_pipelines.core.extract_parts import durable_parts


def _kept(text: str, earlier: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    return durable_parts(text, "assistant", list(earlier), "Noor")


def test_the_assistants_suggestions_drafts_and_quips_are_not_kept() -> None:
    assert _kept("Forty tomato plants is a lot of salsa, nice.") == []
    assert (
        _kept("Trains it is: a wooden railway set, or a remote-control engine he can steer.") == []
    )
    assert _kept('Here is a draft: "Thanks for the invite, I will be there by seven."') == []
    assert _kept("Lisbon is lovely in May but hilly; look for a flat near the metro.") == []


def test_what_the_assistant_promises_or_fixes_is_kept() -> None:
    promised = _kept("I'll send you the packing list by Thursday.")
    assert [c for _, c in promised] == ["commitment"], promised
    fixed = _kept(
        "Setting the locale to en_GB before the import fixes that.",
        ("user: the importer reads 03/04 as March 4th instead of 3 April",),
    )
    assert len(fixed) == 1 and "locale" in fixed[0][0], fixed
    # safety is never lost, whoever says it
    warned = _kept("Ibuprofen can raise the bleeding risk with warfarin, so avoid it.")
    assert len(warned) == 1 and "warfarin" in warned[0][0], warned
