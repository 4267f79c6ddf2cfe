"""Health and safety are never missed (issue 16), whoever tells them and however: a medicine
known by the stem of its international name ("apixaban", "lisinopril"), protective equipment a
place requires, and a person's rule about either, said to a friend as an instruction. Written
by hand for the mechanisms; found on a chat set written apart from the code (extraction_t),
where "he's on warfarin now" and "nobody goes into the kiln room without a respirator" gave no
item."""

from memory_pipelines.core.extract_parts import durable_parts
from memory_pipelines.core.health_safety import PROTECTIVE, SAFETY


def _kept(text: str, to_person: bool = True) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Ravi", to_person=to_person)]


def _read_as_safety(said: tuple[str, ...], not_said: tuple[str, ...]) -> None:
    for text in said:
        assert SAFETY.search(text), text
    for text in not_said:
        assert not SAFETY.search(text), text


def test_a_medicine_is_read_by_the_stem_of_its_name() -> None:
    _read_as_safety(
        (
            "Mum is on apixaban since the clot.",
            "He takes lisinopril in the mornings.",
            "The vet gave her a week of doxycycline.",
            "I'm on amitriptyline for the nerve pain.",
            "She can't have naproxen with her stomach.",
        ),
        # words that only end like a stem are no medicine
        ("We met in April.", "The mongrel next door barks.", "A pastel olive dress."),
    )


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


def test_a_failing_organ_and_a_step_that_gives_way_are_safety() -> None:
    """Found on extraction_w: "please NO grapes ..., the vet said his kidneys are already weak"
    (a dog's) and "the back stairs at the studio have a loose tread" gave no item."""
    kept = _kept("and please NO grapes or raisins, the vet said his kidneys are already weak")
    assert len(kept) == 1 and "kidneys" in kept[0]
    _read_as_safety(
        (
            "Dad has a weak heart, so no saunas.",
            "Her liver is failing.",
            "Mind the loose tread on the back stairs.",
            "The garage has exposed wires by the door.",
            "The loft is lined with asbestos.",
        ),
        # an organ said with no fault, and a thing that is loose but holds nobody up
        ("I ate liver and onions.", "Kidney beans in the chilli.", "A loose shirt."),
    )


def test_a_danger_said_as_a_bare_note_keeps_what_it_is_a_danger_of() -> None:
    """ "shellfish. severe allergy." and "... that heater tripped the breaker. fire hazard":
    kept alone, the note ("Severe allergy.", "Fire hazard") was the danger of nothing. Found
    on extraction_u and _v; these are words of our own."""
    kept = _kept("shellfish. severe allergy. otherwise anything")
    assert kept == ["Shellfish; severe allergy."], kept
    kept = _kept("We bought a gas heater for the shed. Carbon monoxide risk.")
    assert len(kept) == 1 and "heater" in kept[0] and "monoxide" in kept[0], kept
    # a note with a subject or verb of its own stays a sentence of its own
    kept = _kept("We moved to the coast. It is a fire hazard in summer, the dry pines.")
    assert not any("coast" in s and "fire" in s for s in kept), kept
    # a question before the note is no danger it names
    assert not any("?" in s for s in _kept("Is the ladder safe? serious hazard"))


def test_a_guard_rule_and_where_the_gas_shuts_off_are_kept() -> None:
    """Found on extraction_u: "nobody uses the table saw without the blade guard on" and "the
    main gas shutoff in our house is behind the washing machine" gave no item."""
    kept = _kept("new rule: nobody touches the chainsaw without the chain guard and gloves.")
    assert len(kept) == 1 and "guard" in kept[0], kept
    assert PROTECTIVE.search("Never run the saw without the blade guard.")
    assert not PROTECTIVE.search("The guard dog barks at night.")
    # a thing in the speaker's home is theirs: about somebody, so kept when told
    kept = _kept("The stopcock in our flat is under the kitchen sink.", to_person=False)
    assert kept == ["The stopcock in our flat is under the kitchen sink."], kept
    # the thing as it is, in no place of theirs, is about nobody
    assert _kept("The stopcock is usually under the kitchen sink.", to_person=False) == []


def test_an_injury_and_a_walking_aid_are_health_facts() -> None:
    """Probes in our own words: "Jonas hurt himself skiing, he broke his wrist" and "grandpa
    fell again yesterday, he uses a walker now" gave no item between two friends."""
    _read_as_safety(
        (
            "Jonas broke his wrist skiing.",
            "She tore her ACL at football.",
            "Dad has a fractured hip.",
            "Grandpa uses a walker now.",
            "He had a concussion last spring.",
        ),
        ("We broke the news to Dad.", "The dog walker comes at noon.", "I broke a glass."),
    )
    kept = _kept("grandpa fell again yesterday, he uses a walker now")
    assert len(kept) == 1 and "walker" in kept[0], kept


def test_he_answering_how_your_dad_is_is_the_answerers_dad() -> None:
    """ "how's your dad doing?" / "better, he's on blood thinners now": "he" was nobody."""
    from memory_pipelines.core.referents import who_was_asked_about

    said = who_was_asked_about(
        "better, he's on blood thinners now", "how's your dad doing?", ("Bo", "Ana")
    )
    assert said == "better, my dad's on blood thinners now"
    # the other gender's relative, or two of them, leave it as said
    for question in ("how's your mum doing?", "how are your dad and your brother?"):
        assert who_was_asked_about("he's fine", question, ("Bo", "Ana")) == "he's fine"


def test_failing_eyes_an_operation_a_gas_smell_and_a_hypo_are_safety() -> None:
    """A new user's chats (written apart from the code) lost "don't let me drive after 8pm, my
    night vision is terrible since the eye surgery", "heads up the gas smell came back in the
    basement" and how a friend's hypo is treated."""
    _read_as_safety(
        (
            "my night vision is terrible since the eye surgery",
            "Dad's eyesight is failing",
            "she's recovering from her knee operation",
            "the gas smell came back in the basement",
            "it smells of gas in the kitchen",
            "if I go quiet it's probably a hypo",
            "the glucose tabs are in my left pocket",
        ),
        # a vision that is no eyesight, an operation that is no surgery
        ("my vision for the company is bold", "the operation of the new line", "gassy dog"),
    )
    assert _kept("don't let me drive after 8pm, my night vision is terrible since the eye surgery")
    assert _kept("heads up the gas smell came back in the basement") == [
        "The gas smell came back in the basement"
    ]


def test_a_greeting_typed_without_a_comma_is_no_part_of_the_fact() -> None:
    """It was kept as "Hey User is epileptic ..." ("hey i'm epileptic so ...", a probe)."""
    kept = _kept("hey i'm epileptic so no flashing gifs in the slides please")
    assert len(kept) == 1 and kept[0].startswith("I'm epileptic"), kept
    kept = _kept("just so you know I'm allergic to penicillin")
    assert kept == ["I'm allergic to penicillin"], kept


def test_a_blood_test_result_is_a_health_fact() -> None:
    """ "hba1c 47 now, doc says i might be able to reduce meds" between friends gave no item:
    the test that follows diabetes was no word of health (probes of months of news, stop 66)."""
    _read_as_safety(
        ("hba1c came back 52, down from 61!", "my cholesterol is 6.2", "blood sugars are wild"),
        ("the sugar bowl is empty", "came back from the shop"),
    )
    assert _kept("hba1c 47 now, doc says i might be able to reduce meds later in the year") == [
        "Hba1c 47 now, doc says I might be able to reduce meds later in the year"
    ]
