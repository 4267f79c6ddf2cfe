"""The local extractor's sentence rules (no database, no model)."""

from datetime import UTC, datetime

from memory_pipelines.core.extract import WindowTurn, durable_parts, extract_window

WHEN = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)


def _kept(text: str, role: str = "user") -> list[str]:
    return [sentence for sentence, _ in durable_parts(text, role)]


def test_statements_about_the_speaker_or_a_named_person_are_kept() -> None:
    assert _kept("I went to a support group yesterday and it was powerful.") == [
        "I went to a support group yesterday and it was powerful."
    ]
    assert _kept("Last week Oliver got a new job at the hospital.") == [
        "Last week Oliver got a new job at the hospital."
    ]


def test_impersonal_small_talk_and_remarks_about_the_listener_are_not() -> None:
    assert _kept("It was so vibrant and welcoming, what a day.") == []
    assert _kept("Cherish the moments, they are the best!") == []
    assert _kept("You've made so much progress with the garden.") == []
    # "i" inside a word is not the speaker, "you" inside a word is not the listener.
    assert _kept("Bet the atmosphere was incredible tonight.") == []
    assert _kept("Youth sports leagues need more volunteers.") == []


def test_an_explicit_save_reason_needs_no_person() -> None:
    rule = durable_parts("From now on, use metric units in every answer.", "user")
    assert [category for _, category in rule] == ["preference"]
    lesson = durable_parts("Lesson learned: never deploy on a Friday afternoon.", "user")
    assert [category for _, category in lesson] == ["lesson"]


def test_candidates_name_the_speaker_and_carry_their_turn() -> None:
    turns = [
        WindowTurn(1, "user", "Caroline", "Hey Mel! Good to see you!", WHEN),
        WindowTurn(2, "user", "Caroline", "I adopted a dog named Oscar last week.", WHEN),
    ]
    cands = extract_window(turns)
    assert [c["from_seq"] for c in cands] == [2]
    assert cands[0]["context"].startswith("Caroline adopted a dog named Oscar last week")
    assert cands[0]["confidence"] <= 6
    assert "Oscar" in cands[0]["entities"]


def test_a_context_turn_is_read_but_never_extracted_from() -> None:
    said = "I adopted a dog named Oscar last week."
    reply = "Oh wow! What breed?"
    again = WindowTurn(3, "user", "Caroline", said, WHEN)
    seen = [WindowTurn(1, "user", "Caroline", said, WHEN, context=True)]
    seen.append(WindowTurn(2, "user", "Melanie", reply, WHEN))
    # The fact said before the window gives no candidate of its own, and a later turn that
    # says it again is still read as a restatement of it (nothing new to extract).
    assert extract_window([*seen, again]) == []
    # The same turns all in the window: the fact is extracted from the turn that said it.
    fresh = extract_window([WindowTurn(1, "user", "Caroline", said, WHEN), seen[1]])
    assert [c["from_seq"] for c in fresh] == [1]


def _parts(text: str, role: str = "user", **kw: object) -> list[str]:
    return [s for s, _ in durable_parts(text, role, **kw)]  # type: ignore[arg-type]


def test_openers_go_and_a_dropped_subject_comes_back() -> None:
    from memory_pipelines.core.sentence_forms import without_opener
    from memory_pipelines.core.sentence_subject import with_subject

    assert (
        without_opener("Yeah, I painted that lake last year!") == "I painted that lake last year!"
    )
    assert without_opener("Oh, and BTW, I started my own store.") == "I started my own store."
    assert without_opener("No more gluten for me.") == "No more gluten for me."
    assert with_subject("Took a short trip to Rome last week.") == (
        "I took a short trip to Rome last week."
    )
    assert with_subject("Still working on opening a dance studio.") == (
        "I'm still working on opening a dance studio."
    )
    assert with_subject("Painting helps me relax.") == "Painting helps me relax."
    assert with_subject("Exciting but kinda scary!") == "Exciting but kinda scary!"
    assert with_subject("Jared went home early.") == "Jared went home early."
    assert with_subject("Got any plans?") == "Got any plans?"
    assert with_subject("Gonna volunteer at the shelter next month.") == (
        "I'm gonna volunteer at the shelter next month."
    )


def test_news_after_small_talk_is_kept_sentence_by_sentence() -> None:
    text = "Hey Jon, congrats on the fair! Oh, and BTW, I started my own online clothing store."
    assert _parts(text) == ["I started my own online clothing store."]
    # a hedge hedges its own sentence, not the news beside it
    text = "Guess what? I applied to adoption agencies this week! I think I'm ready."
    assert _parts(text) == ["I applied to adoption agencies this week!"]


def test_talk_to_the_listener_moods_and_generic_we_are_not_facts() -> None:
    assert _parts("That charity race sounds great, Mel!", listener="Melanie") == []
    assert _parts("We make a great team. Friends like these keep us strong.") == []
    assert _parts("It's been tough, but I'm determined and I won't quit.") == []
    assert _parts("Anything new with the studio lately?") == []
    # "we" telling what happened is a fact
    assert _parts("We went to the beach with the kids last weekend.") == [
        "We went to the beach with the kids last weekend."
    ]


def test_advice_to_a_person_is_no_preference_an_instruction_to_the_assistant_is() -> None:
    assert (
        _parts("Never give up on your dream studio, always trust the process.", to_person=True)
        == []
    )
    kept = durable_parts("Always give me prices in euros, not dollars.", "user", to_person=False)
    assert [c for _, c in kept] == ["preference"]


def test_an_echo_is_dropped_an_answer_is_kept() -> None:
    earlier = ["Do you still play the cello in an orchestra?"]
    assert _parts("Yeah, I play the cello in an orchestra every Thursday.", earlier=earlier) == [
        "I play the cello in an orchestra every Thursday."
    ]
    said = ["I play the cello in a community orchestra."]
    assert _parts("Oh nice, you play the cello in a community orchestra.", earlier=said) == []
    assert _parts("So the community orchestra plays the cello pieces.", earlier=said) == []


def test_a_future_that_is_no_promise() -> None:
    def never(_: str) -> bool:
        return False

    # the assistant's own next step is owed to nobody: not saved
    assert _parts("I'll look for flatter routes.", "assistant", is_promise=never) == []
    # a person's plan is a fact about them
    kept = durable_parts("I'm going to paint a sunset this weekend.", "user", is_promise=never)
    assert kept == [("I'm going to paint a sunset this weekend.", "fact")]


def test_at_most_two_plain_facts_the_most_informative() -> None:
    text = (
        "I moved to Glasgow in 2021. It was nice. My sister Lucy works there as a nurse. "
        "I bake bread on Sundays with my neighbour Tom."
    )
    kept = _parts(text)
    assert len(kept) == 2 and "It was nice." not in kept
    assert kept == sorted(kept, key=text.index)  # in the turn's order


def test_a_question_tagged_on_and_news_of_next_month() -> None:
    assert _parts("FYI, I finished another pottery project - want to see a pic?") == [
        "I finished another pottery project."  # "FYI" is how it is told, no part of it
    ]
    # the news, without the mood set beside it
    assert _parts("Next month I'm having an art show with my paintings - can't wait!") == [
        "Next month I'm having an art show with my paintings!"
    ]


def test_you_in_a_relative_clause_only_mentions_the_listener() -> None:
    assert _parts("I've been reading that book you recommended, it's about sailing.") == [
        "I've been reading that book you recommended, it's about sailing."
    ]
    assert _parts("I've been thinking about you and your sailing trip.") == []


def test_the_assistant_keeps_its_lessons_people_chatting_keep_no_advice() -> None:
    def chat(first: str, second: str, text: str) -> list[str]:
        turns = [
            WindowTurn(1, first, "Ana" if first == "user" else "Agent", "Hello there.", WHEN),
            WindowTurn(2, second, "Ben" if second == "user" else "Agent", text, WHEN),
        ]
        return [c["context"] for c in extract_window(turns) if c["from_seq"] == 2]

    lesson = "Lesson learned: always pin dependency versions before a release."
    assert chat("user", "assistant", lesson) != []
    assert chat("user", "user", "Always believe in yourself and never give up!") == []


def test_a_word_in_thing_or_a_verb_after_an_adverb_keeps_its_subject() -> None:
    from memory_pipelines.core.sentence_subject import with_subject

    assert with_subject("Nothing beats a good meal with family!") == (
        "Nothing beats a good meal with family!"
    )
    assert with_subject("Networking really pays off.") == "Networking really pays off."
    assert with_subject("Working on a new painting.") == "I'm working on a new painting."


def test_we_is_somebody_when_we_did_something_not_when_a_participle_is_near() -> None:
    from memory_pipelines.core.sentence_people import names_somebody

    assert names_somebody("We all donated for the new roof.")
    assert names_somebody("We've got a pup and a kitty.")
    assert names_somebody("We reassured them and explained it would be OK.")
    assert not names_somebody("It helps us stay connected and appreciate the simple things.")
    assert not names_somebody("Having a support system is key to reaching our goals.")


def test_news_announced_to_the_listener_is_an_opener() -> None:
    from memory_pipelines.core.extract import durable_parts as parts

    def kept(text: str) -> list[str]:
        return [s for s, _ in parts(text, "user", [], "Gina", to_person=True)]

    assert kept("Gina, you won't believe it - I got mentored by a business coach yesterday!") == [
        "I got mentored by a business coach yesterday!"
    ]
    assert kept("Guess what, I adopted a puppy last week!") == ["I adopted a puppy last week!"]
    # a remark to the listener stays one
    assert kept("Gina, you won't believe how proud I am of you!") == []


def test_the_save_policy_holds_for_any_extractor() -> None:
    """What a language model proposes passes the save policy too: no greeting, no talk about
    the chat, no speculation; a fact copied from the window is kept (it is in the history by
    definition)."""
    from memory_pipelines.core.candidates import check_candidate

    def cand(context: str, confidence: int = 5, category: str = "fact") -> dict:
        return {"category": category, "context": context, "confidence": confidence,
                "from_seq": 1, "to_seq": 1}  # fmt: skip

    kept, why = check_candidate(cand("I'm allergic to peanuts"), 1, 2, ())
    assert kept is not None and why is None
    for bad in (cand("Hi! How are you today?"), cand("Might be allergic to kiwi", confidence=2)):
        dropped, why = check_candidate(bad, 1, 2, ())
        assert dropped is None and why is not None and why.startswith("save policy: "), why
    episode, why = check_candidate(cand("We talked about the trip", category="episode"), 1, 2, ())
    assert episode is None and why == "save policy: already_in_history"


def _said(said: list[tuple[str, str, str]], pronoun: str) -> list[str]:
    """The items' texts of a chat of (role, speaker, text) turns, each speaker `pronoun`."""
    turns = [WindowTurn(n, r, who, t, WHEN) for n, (r, who, t) in enumerate(said, start=1)]
    return [c["context"] for c in extract_window(turns, pronoun_of=lambda _: pronoun)]


def _items(*said: str) -> list[tuple[str, str]]:
    turns = [WindowTurn(n, "user", "Lena", t, WHEN) for n, t in enumerate(said, start=1)]
    return [
        (c["category"], c["context"]) for c in extract_window(turns, pronoun_of=lambda name: "she")
    ]


def test_a_flag_for_the_listener_is_no_word_to_them() -> None:
    # "Just so you know" says the fact is worth knowing; its "you" made it a remark to the
    # listener, and the fact was lost
    assert _items("Just so you know, I moved to Leeds last year.") == [
        ("fact", "Lena moved to Leeds last year (2022).")
    ]
    assert _items("For the record, my sister is a nurse.") == [
        ("fact", "Lena's sister is a nurse.")
    ]
    assert _items("Just so you know, it was raining.") == []  # still nothing of anybody


def test_a_short_save_reason_said_whole_is_kept() -> None:
    assert _items("I hate cilantro.") == [("preference", "Lena hates cilantro.")]
    assert _items("I love it.") == []  # no thing named


def test_a_label_that_files_a_statement_is_not_kept_with_it() -> None:
    # the speaker's name leads a fact that names nobody (test_extract_attributed); no label
    assert _items("Note to self: the spare key is under the blue pot.") == [
        ("lesson", "Lena: The spare key is under the blue pot.")
    ]
    assert _items("Reminder: my dentist appointment is on June 3.") == [
        ("fact", "Lena's dentist appointment is on June 3.")
    ]
    assert _items("FYI my dog Rex is three.") == [("fact", "Lena's dog Rex is three.")]
    # an instruction keeps the label that says whose it is; a correction says what it does
    assert _items("Note to self: renew the car insurance before May.")[0][1].startswith(
        "Note to self: renew"
    )
    assert _items("Correction: the offsite is Wednesday the 15th.") == [
        ("fact", "Correction: the offsite is Wednesday the 15th.")
    ]


def test_asked_to_remember_a_fact_keeps_the_fact() -> None:
    # the request was "meta" (talk about the conversation) and the fact in it was lost
    assert _items("Remind me that my passport expires on 3 May 2027.") == [
        ("fact", "Lena's passport expires on 3 May 2027.")
    ]
    assert _items("Can you remember that our wifi password is in the drawer?") == [
        ("fact", "Lena's wifi password is in the drawer.")
    ]
    assert _items("Please note that I'm vegetarian.") == [("preference", "Lena is vegetarian.")]
    assert _items("Remind me to call my mum on Sunday.") == []  # a request, no fact told
    assert _items("Remember that guy from the gym?") == []  # a thing, no statement
    # a statement of one's own right after "remember", with no "that" (a probe in our words:
    # "Please remember user's wife's name is Ingrid" had been kept as a preference)
    assert _items("Please remember my husband's name is Tariq.") == [
        ("fact", "Lena's husband's name is Tariq.")
    ]
    assert _items("remember our first holiday in Crete?") == []  # reminiscing, no fact told
    # ... or after a comma (a new user's probe: "remind me, I have to submit my tax return by
    # 31 January 2026" gave no item)
    assert _items("remind me, I have to renew my passport by 31 January 2026") == [
        ("fact", "Lena has to renew her passport by 31 January 2026")
    ]
    assert _items("remind me, what was that bakery called?") == []


def test_a_dog_named_max_is_no_cap() -> None:
    # "max" read as a cap ("three bullets max") made the dog's surgery a preference
    assert _items("By the way, my dog Max had surgery yesterday.") == [
        ("fact", "Lena's dog Max had surgery yesterday (7 May 2023).")
    ]


def test_she_is_the_sister_the_speaker_just_named() -> None:
    said = [
        ("Tom", "Hey Lena! How was the trip?"),
        ("Lena", "Amazing! We spent a week in Kyoto. My sister lives there now."),
        ("Tom", "Oh nice, what does she do there?"),
        ("Lena", "She teaches English at a high school."),
    ]
    turns = [WindowTurn(n, "user", who, t, WHEN) for n, (who, t) in enumerate(said, start=1)]
    pronouns = {"Tom": "he", "Lena": "she"}
    texts = [
        c["context"] for c in extract_window(turns, pronoun_of=lambda n: pronouns.get(n, "they"))
    ]
    assert "Lena's sister teaches English at a high school." in texts


def test_an_answer_says_what_it_is_of_and_starts_at_the_question() -> None:
    said = [
        ("assistant", "", "Noted. Is the delivery address still 12 Oak Lane?"),
        ("user", "Ben", "No, I moved. It's 5 Birch Road now."),
    ]
    turns = [WindowTurn(n, r, who, t, WHEN) for n, (r, who, t) in enumerate(said, start=1)]
    cands = extract_window(turns, pronoun_of=lambda name: "he")
    assert [(c["context"], c["from_seq"], c["to_seq"]) for c in cands] == [
        ("Ben: The delivery address is 5 Birch Road now.", 1, 2)
    ]


def test_a_time_said_alone_in_answer_is_kept_with_its_question() -> None:
    said = [
        ("Tom", "Congrats! When do you start?"),
        ("Mia", "On the 3rd of April. I'll be curating the textile collection."),
    ]
    turns = [WindowTurn(n, "user", who, t, WHEN) for n, (who, t) in enumerate(said, start=1)]
    texts = [c["context"] for c in extract_window(turns, pronoun_of=lambda n: "she")]
    # "On the 3rd of April." alone was an item that said nothing of anybody
    assert texts == [
        'Asked "When do you start?", Mia said: "On the 3rd of April."',
        "Mia will be curating the textile collection.",
    ]


def test_a_verbless_answer_is_kept_with_the_question_that_gives_it_its_sense() -> None:
    said = [
        ("assistant", "", "Booked. Who should we call if the boat is late back?"),
        ("user", "Oona", "Sure, my neighbour Brid, 087 555 0142. She has a spare key."),
    ]
    texts = _said(said, "she")
    # "Oona's neighbour Brid, 087 555 0142." alone said nothing of what the number is for
    assert (
        'Asked "Who should we call if the boat is late back?", Oona said: '
        '"Sure, my neighbour Brid, 087 555 0142."'
    ) in texts, texts


def test_a_verbless_answer_joined_to_the_note_after_it_keeps_that_note() -> None:
    said = [
        ("user", "Ruth", "The loft conversion budget is 40k."),
        ("assistant", "", "Good. Will you keep the stairs where they are?"),
        ("user", "Ruth", "Same stairs, yes. Oh and 45k, I forgot the windows."),
    ]
    texts = _said(said, "she")
    # the question would keep "Same stairs, yes." and lose the new figure beside it
    assert any("45k" in t for t in texts), texts


def test_a_correction_puts_right_no_question() -> None:
    said = [
        ("Ben", "My flight to Boston is on the 12th."),
        ("Mia", "The 12th of May?"),
        ("Ben", "No, June. May was the conference."),
    ]
    turns = [WindowTurn(n, "user", who, t, WHEN) for n, (who, t) in enumerate(said, start=1)]
    texts = [c["context"] for c in extract_window(turns, pronoun_of=lambda n: "they")]
    assert not any(t.endswith("?") for t in texts), texts  # was "The 12th of June, not May?"
    assert 'Asked "The 12th of May?", Ben said: "No, June."' in texts


def test_an_answer_ending_with_an_apology_is_no_correction() -> None:
    said = [
        ("user", "Lena", "I have 2 kids."),
        ("assistant", "", "How old?"),
        ("user", "Lena", "They're 7 and 9, sorry."),
    ]
    texts = _said(said, "she")
    assert "Lena has 7, not 2, kids." not in texts, texts
    assert 'Asked "How old?", Lena said: "They\'re 7 and 9, sorry."' in texts


def test_an_answer_to_an_offer_is_no_fact() -> None:
    """An answer to an offer ("Want me to lay it out?" / "nah not yet") was kept as what Dagny
    said: it says what to do now, nothing that lasts. An answer to a question stays."""
    offered = [
        ("user", "Dagny", "The new job pays more but it's nights."),
        ("assistant", "Assistant", "Want me to lay out what that comes to per month?"),
        ("user", "Dagny", "nah not yet."),
    ]
    assert not any(t.startswith("Asked") for t in _said(offered, "she"))
    asked = [("user", "Tom", "how old is your dog?"), ("user", "Mia", "7 in march")]
    assert _said(asked, "she") == ['Asked "how old is your dog?", Mia said: "7 in march"']


def test_yes_please_before_a_fact_is_no_part_of_it() -> None:
    said = [
        ("user", "Tom", "shall I bring the salad on saturday?"),
        ("user", "Mia", "yes please, my sister is vegan"),
    ]
    assert _said(said, "she") == ["Mia's sister is vegan"]
