"""Health and safety are never missed (issue 16), whoever tells them and however: a medicine
known by the stem of its international name ("apixaban", "lisinopril"), protective equipment a
place requires, and a person's rule about either, said to a friend as an instruction. Written
by hand for the mechanisms; found on a chat set written apart from the code (extraction_t),
where "he's on warfarin now" and "nobody goes into the kiln room without a respirator" gave no
item."""

from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.health_safety import SAFETY


def _kept(text: str, to_person: bool = True) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Ravi", to_person=to_person)]


def test_a_medicine_is_read_by_the_stem_of_its_name() -> None:
    for said in (
        "Mum is on apixaban since the clot.",
        "He takes lisinopril in the mornings.",
        "The vet gave her a week of doxycycline.",
        "I'm on amitriptyline for the nerve pain.",
        "She can't have naproxen with her stomach.",
    ):
        assert SAFETY.search(said), said
    # words that only end like a stem are no medicine
    for said in ("We met in April.", "The mongrel next door barks.", "A pastel olive dress."):
        assert not SAFETY.search(said), said


def test_a_persons_instruction_about_a_medicine_is_kept_between_friends() -> None:
    kept = _kept("Don't give Grandad any aspirin this week, he's on apixaban now.")
    assert len(kept) == 1 and "apixaban" in kept[0]


def test_a_rule_of_protective_equipment_is_kept() -> None:
    kept = _kept("New rule for the lab: nobody handles the acid without goggles on.")
    assert len(kept) == 1 and "goggles" in kept[0]
    # the assistant's advice is no rule of anybody's
    assert (
        durable_parts("Nobody should cut tiles without goggles on.", "assistant", [], "Ravi") == []
    )


def test_a_note_after_a_safety_rule_is_kept_with_it() -> None:
    """ "Paracetamol only." said after the rule it qualifies was an item of its own."""
    kept = _kept("No aspirin for Grandad this week, he's on apixaban. Paracetamol only.")
    assert [s for s in kept if "apixaban" in s] == [
        "No aspirin for Grandad this week, he's on apixaban; paracetamol only."
    ], kept
    assert len(kept) == 1, kept
