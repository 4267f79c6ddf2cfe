"""Unit tests of the save policy on hand-written turns (none taken from the dev data file)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from memory_pipelines.core import policy, sentence_kinds
from memory_pipelines.core.policy import (
    PolicyVerdict,
    category_for,
    evaluate,
    is_greeting,
    is_meta_chatter,
    is_speculation,
    judge_turn,
    skip_reason_for_item,
)

SAVES = [
    ("user", "I always want flight options sorted by total travel time.", "preference"),
    ("user", "Keep the summaries under 200 words please, I read them on the bus.", "preference"),
    ("user", "We went with the smaller venue because the big one wanted a deposit.", "decision"),
    ("assistant", "I chose SQLite for the prototype because it needs no server.", "decision"),
    ("user", "My daughter Mila starts secondary school in September.", "fact"),
    ("user", "Our production database is Postgres 15 in eu-west-2.", "fact"),
    ("user", "Lesson learnt: photograph the meter reading on move-in day.", "lesson"),
    ("user", "I'll have the draft contract to Priya by Wednesday evening.", "commitment"),
    ("assistant", "I'll rerun the benchmark overnight and have numbers by 9am.", "commitment"),
    ("user", "The kitchen extension is finished, two weeks late but on budget.", "fact"),
]

SKIPS = [
    ("user", "Good evening, hope you're well.", "greeting"),
    ("user", "Cheers, that's brilliant.", "meta_chatter"),
    ("user", "Give me a sec, looking for the invoice.", "meta_chatter"),
    ("assistant", "One moment while I check the docs.", "meta_chatter"),
    ("user", "Perhaps we'll move to Leeds next year, we haven't talked about it.", "speculation"),
    ("assistant", "You could try a standing desk for the back pain.", "speculation"),
    (
        "assistant",
        "Quick summary: we fixed the login bug and drafted the changelog.",
        "already_in_history",
    ),
]


@pytest.mark.parametrize(("role", "text", "category"), SAVES)
def test_saves_with_category(role: str, text: str, category: str) -> None:
    verdict = judge_turn(text, role)
    assert verdict.save and verdict.category == category, verdict


@pytest.mark.parametrize(("role", "text", "reason"), SKIPS)
def test_skips_with_reason(role: str, text: str, reason: str) -> None:
    assert judge_turn(text, role) == PolicyVerdict(False, None, reason)


def test_durable_part_wins_over_greeting_and_thanks() -> None:
    assert judge_turn("Hi! Just so you know, our VAT number changed last month.").save
    verdict = judge_turn("Thanks for that. One more thing: I'm allergic to nuts.")
    assert verdict.save and verdict.category == "fact"
    assert judge_turn("Hey! Sorry I vanished, busy morning.").reason == "greeting"


def test_hedge_beats_plain_statements() -> None:
    text = "I might be allergic to cats? Not sure. My eyes itched at Jo's flat."
    assert judge_turn(text).reason == "speculation"


def test_modality_and_belief_frames() -> None:
    assert judge_turn("We may or may not repaint the hall this spring.").reason == "speculation"
    assert judge_turn("It may rain on the day, so bring a coat.").reason == "speculation"
    opt = "Another option would be a second-hand bike for the commute."
    assert judge_turn(opt, "assistant").reason == "speculation"
    # A belief frame hedges its own sentence; an unhedged concrete fact beside it still saves.
    assert judge_turn("I think the boiler is about ten years old.").reason == "speculation"
    text = "I think the boiler is about ten years old. The installer fitted it in 2014."
    assert judge_turn(text).save
    stronger = "Maybe the boiler is ten years old. The installer fitted it in 2014."
    assert judge_turn(stronger).reason == "speculation"
    assert judge_turn("This May we're moving to Cardiff, the lease is signed.").save  # the month
    assert judge_turn("I believe in paying the card off every month, no exceptions.").save


def test_requests_about_the_last_output_and_recaps() -> None:
    assert judge_turn("Do that one again but shorter.").reason == "meta_chatter"
    assert judge_turn("Hold on, go back, I didn't catch that.").reason == "meta_chatter"
    assert judge_turn("Read that back to me please.").reason == "meta_chatter"
    assert judge_turn("Anything that needs real focus, put it before lunch.").save
    assert judge_turn("Scratch that, the party is on Sunday 14th now, not Saturday.").save
    recap = "Here's what we discussed this week: the van hire, the quotes and the packing list."
    assert judge_turn(recap, "assistant").reason == "already_in_history"
    digest = "Weekly digest: four chats, about the garden, the car and tax."
    assert judge_turn(digest, "assistant").reason == "already_in_history"


def test_restatements_and_new_details() -> None:
    recent = ["user: use British spelling in everything you write for me please"]
    assert judge_turn("Noted, British English.", "assistant", recent).reason == "restatement"
    recent = ["user: I'm allergic to penicillin", "assistant: Any other medicines?"]
    added = judge_turn("Yes, the penicillin one, and ibuprofen too.", "user", recent)
    assert added.save and added.category == "fact"
    echo = "Yeah, no meetings after 4, like I told you."
    assert judge_turn(echo, "user", ["user: I don't take meetings after 4pm."]).save is False


def test_echo_cues_confirmation_tags_and_assistant_assessments() -> None:
    def close(text: str, others: Sequence[str]) -> list[float]:
        return [0.6 for _ in others]

    recent = ["assistant: Your train leaves platform 4 at 9:45."]
    tag = judge_turn("Platform 4, 9:45, yeah.", "user", recent, similarity=close)
    assert tag.reason == "restatement"
    recent = ["user: We went with the blue sofa because it hides the dog hair."]
    text = "The blue one is a good choice, it'll hide the hair."
    assessed = judge_turn(text, "assistant", recent)
    assert assessed.reason == "restatement"
    recent = ["user: I'm vegetarian."]
    text = "Since you're vegetarian, I'll leave out the meat dishes."
    since = judge_turn(text, "assistant", recent)
    assert since.reason == "restatement"
    # Without the cue the assistant's own decision with its why is saved.
    own = "I'll use a queue for the uploads, since the API rejects parallel writes."
    assert judge_turn(own, "assistant", ["user: go ahead and add uploads"]).save


def test_repasted_block_is_already_in_history() -> None:
    log = "ERROR 03:14 disk full on /var/lib/postgres"
    verdict = judge_turn(f"Here it is:\n{log}", "user", [f"user: {log}"])
    assert verdict.reason == "already_in_history"


def test_similarity_callback_drives_restatement() -> None:
    def always_close(text: str, others: Sequence[str]) -> list[float]:
        return [0.95 for _ in others]

    def always_far(text: str, others: Sequence[str]) -> list[float]:
        return [0.05 for _ in others]

    recent = ["user: our newsletter goes out on the first Monday of each month"]
    turn = "The newsletter is sent on the first Monday every month."
    assert judge_turn(turn, "assistant", recent, similarity=always_close).reason == "restatement"
    assert judge_turn(turn, "assistant", recent, similarity=always_far).save


def test_item_helpers() -> None:
    assert is_greeting("Morning all")
    assert is_meta_chatter("ok cool")
    assert is_speculation("Maybe I'll learn the cello one day.")
    assert skip_reason_for_item("Allergic to kiwi.") is None
    assert skip_reason_for_item("User might be lactose intolerant.") == "speculation"
    assert skip_reason_for_item("Thanks, that's perfect") == "meta_chatter"
    assert category_for("Prefers metric units, always.") == "preference"
    assert category_for("Will send the form to Mr Patel by Thursday.") == "commitment"


def test_evaluate_reports_metrics() -> None:
    cases: list[dict[str, Any]] = [
        {
            "id": "a",
            "turn": {"role": "user", "text": "Hi!"},
            "recent": [],
            "label": "skip",
            "category": None,
        },
        {
            "id": "b",
            "turn": {"role": "user", "text": "My cat Pixel is diabetic."},
            "recent": [],
            "label": "save",
            "category": "fact",
        },
        {
            "id": "c",
            "turn": {"role": "user", "text": "lol"},
            "recent": [],
            "label": "save",
            "category": "fact",
        },
    ]
    result = evaluate(cases)
    assert result["n"] == 3 and result["misses"] == ["c"]
    assert result["accuracy"] == pytest.approx(2 / 3)
    assert result["per_label"]["save"] == {"precision": 1.0, "recall": 0.5, "n": 2}
    assert result["category_accuracy"] == pytest.approx(0.5)


def test_with_the_sentence_embedder() -> None:
    embedder_mod = pytest.importorskip("memory_pipelines.models.embedder")
    try:
        embedder = embedder_mod.get_embedder()
    except Exception as exc:  # the model package may be missing on a slim install
        pytest.skip(f"embedder unavailable: {exc}")

    def similarity(text: str, others: Sequence[str]) -> list[float]:
        vecs = embedder.embed([text, *others])
        return [float(v) for v in vecs[1:] @ vecs[0]]

    recent = ["user: Our Mailchimp plan caps us at 2,000 emails a month."]
    echo = "So your plan lets you send up to 2,000 emails a month."
    assert judge_turn(echo, "assistant", recent, similarity=similarity).reason == "restatement"
    new = "I'll move the list to the bigger plan by Friday so the launch mail goes out."
    assert judge_turn(new, "assistant", recent, similarity=similarity).save


def test_a_greeting_does_not_hide_what_happened_to_the_speaker() -> None:
    assert judge_turn("Hey Mel! I adopted a rescue dog named Oscar last week.").save
    assert not judge_turn("Hey Mel! How are you doing?").save
    assert not judge_turn("Can you repeat that last part? I missed it.").save


@pytest.mark.parametrize(
    "text",
    [
        "The user asked me a question about the weather",
        "User asked about the train times",
        "The assistant greeted the user",
        "Ana asked for help with the spreadsheet",
        "Sam thanked me for the recipe",
        "I told the user about the refund process",
        "The user and I talked about the weather",
    ],
)
def test_reported_speech_acts_are_meta_chatter(text: str) -> None:
    assert policy.skip_reason_for_item(text) == "meta_chatter"
    assert not policy.judge_turn(text, "assistant").save


def test_what_a_report_says_decides() -> None:
    assert sentence_kinds.reported_content("The user told me that she is allergic to kiwi") == (
        "she is allergic to kiwi"
    )
    assert sentence_kinds.reported_content("Lives in Leeds") is None
    assert policy.skip_reason_for_item("The user told me that she is allergic to kiwi") is None
    said = policy.judge_turn("Ana said she moved to Porto last week", "assistant")
    assert said.save and said.category == "fact"
    # "said yes to" an offer is the offer taken, no report of a "yes" (a second new-user probe:
    # "Leah said yes to Edinburgh." was dropped as talk about the conversation)
    for taken in ("Omar said yes to the Porto job.", "Omar said no to the Leeds offer."):
        assert sentence_kinds.reported_content(taken) is None
        assert policy.skip_reason_for_item(taken) is None, taken
    assert policy.skip_reason_for_item("Omar said yes.") is not None


def test_what_someone_outside_the_chat_told_the_speaker_to_do_is_no_request_of_the_chat() -> None:
    """ "The physio told me to ice it twice a day" is the physio's advice, a fact of the
    speaker's; "The user asked me to redo the chart" is a task of the chat's, reported."""
    for advice in (
        "The physio told me to ice my knee twice a day.",
        "The vet told us to keep him off stairs for a month.",
    ):
        assert sentence_kinds.sentence_kind(advice, "user") != "meta", advice
        assert policy.skip_reason_for_item(advice) is None, advice
    for task in ("The user asked me to redo the chart.", "Ana asked me to resend the invoice."):
        assert sentence_kinds.sentence_kind(task, "assistant") == "meta", task


@pytest.mark.parametrize(
    "category",
    ["episode", "episodic", "session_summary", "session", "conversation_recap", "Summary"],
)
def test_episodes_and_session_summaries_are_never_items(category: str) -> None:
    assert policy.history_category(category)
    reason = policy.skip_reason_for_item("Talked through the move to Porto", category=category)
    assert reason == "already_in_history"


@pytest.mark.parametrize("category", ["fact", "preference", "decision", "lesson", "commitment"])
def test_kinds_of_fact_are_no_history_category(category: str) -> None:
    assert not policy.history_category(category)


@pytest.mark.parametrize(
    "text",
    ["Ana asked to keep standups short, under 15 minutes", "Ana asked for a window seat"],
)
def test_a_reported_request_is_content(text: str) -> None:
    assert policy.skip_reason_for_item(text) is None


def test_save_reasons_are_the_save_kinds() -> None:
    assert set(policy.SAVE_REASONS) == sentence_kinds.SAVE_KINDS


def test_categories_of_instructions_and_future_choices() -> None:
    for text in (
        "For invoices give me net and gross, not just the total.",
        "Any travel plans, list the train options first.",
        "I go by Kit, not Christopher.",
    ):
        assert judge_turn(text).category == "preference", text
    choice = "I'll use Redis for the session cache, since we already run it for the queue."
    assert judge_turn(choice, "assistant").category == "decision"
    promise = "I'll move the session cache to Redis by Friday."
    assert judge_turn(promise, "assistant").category == "commitment"


def test_one_off_requests_undecided_plans_and_reported_proposals() -> None:
    assert judge_turn("Now in French, please.").reason == "meta_chatter"
    assert judge_turn("Please give me distances in kilometres.").category == "preference"
    for text in (
        "We'll see how the first month goes, fingers crossed.",
        "Not decided on the car yet, it's between the Golf and the Corolla.",
        "I'm going to sleep on it and tell you tomorrow.",
        "The assistant suggested I try a sleep diary.",
    ):
        assert judge_turn(text).reason == "speculation", text


def test_a_reply_that_only_repeats_a_choice_is_a_restatement() -> None:
    recent = ["user: We're going with the oak table, it's sturdier."]
    assert judge_turn("Yeah, the oak table is what we're going with.", "user", recent).reason == (
        "restatement"
    )
    # a new detail keeps it a save
    assert judge_turn("Right, the oak table, delivered on Friday.", "user", recent).save
    assert judge_turn("Take it from the top, I lost track.").reason == "meta_chatter"


def test_acknowledgements_around_words_just_said_are_a_restatement() -> None:
    # Whatever an embedder says of the wording (here: far from every recent turn), a turn made
    # of acknowledgements and of words the recent statements hold repeats them.
    def far(text: str, others: Sequence[str]) -> list[float]:
        return [0.3] * len(others)

    recent = ["assistant: Keep the abstract under 150 words; reviewers skim it."]
    for text in ("Cool, 150 words, makes sense.", "Great, abstract under 150 words, as you said."):
        assert judge_turn(text, "user", recent, similarity=far).reason == "restatement", text
    # a word not just said, or another number, is news
    for text in (
        "Cool, 150 words in French, makes sense.",
        "Great, abstract under 150 words, starting Monday, as you said.",
        "Great, abstract under 200 words, as you said.",
    ):
        assert judge_turn(text, "user", recent, similarity=far).save, text
    told = ["user: My daughter Ines has coeliac disease, so the party food must be gluten-free."]
    confirm = "So to confirm: gluten-free party food, because of Ines's coeliac disease."
    assert judge_turn(confirm, "assistant", told, similarity=far).reason == "restatement"


def test_speech_act_announcements_wishes_and_assistant_picks() -> None:
    assert judge_turn("Hi! I've got a quick question about my car insurance.").reason in (
        "meta_chatter",
        "greeting",
    )
    assert not judge_turn("You're welcome! Good luck with the move.", "assistant").save
    assert judge_turn("Honestly I don't know what to cook tonight.").reason == "speculation"
    assert judge_turn("I don't know anyone in Leeds yet, we only moved in May.").save
    pick = "I'd go with the fixed rate, given how tight your budget is."
    assert judge_turn(pick, "assistant").reason == "speculation"
    assert judge_turn("I'd pick aisle seats every time, I hate climbing over people.").save


def test_categories_of_findings_contractions_and_self_rules() -> None:
    found = "I checked the config: the service listens on port 8080 and logs to /var/log/app."
    assert judge_turn(found, "assistant").category == "fact"
    assert judge_turn("Keep replies short. I won't read long ones.").category == "preference"
    rule = "Never park on Elm Road on Tuesdays; we got towed twice. Use the car park instead."
    assert judge_turn(rule).category == "lesson"


def test_a_question_without_its_mark_states_nothing() -> None:
    """Chat leaves question marks off ("is it me or is the tram always late on tuesdays"): a
    sentence in a question's word order asks, even when it holds a word of liking or of
    always; asked of the listener, it may still set a lasting way of working."""
    kind = sentence_kinds.sentence_kind
    assert kind("is it me or is the tram always late on tuesdays", "user") == "meta"
    assert kind("is a savings account the move or should I look at index funds", "user") == "meta"
    assert kind("should the kids always wear helmets on the pump track", "user") == "meta"
    assert kind("Can you always use metric?", "user") == "stable_preference"
    # a statement after a question's opening words, and a promise before a question
    assert kind("What can I say, I love turtles.", "user") == "stable_preference"
    promise = "I'll ring the dentist tomorrow to move Leo's appointment, what should I ask them?"
    assert kind(promise, "user") == "commitment"
    # words that only look like a question's: "did the school run" tells what was done
    assert kind("did the school run and then a 5k, knackered", "user") != "meta"


def test_a_promise_in_return_for_an_ask_is_a_promise() -> None:
    """ "Tell me what's in each one and I'll send you a watering schedule for all twelve by
    friday" (extraction_x) was read as a request, and the promise after it was lost."""
    kind = sentence_kinds.sentence_kind
    said = "Tell me what's in each one and I'll send you a watering schedule by friday."
    assert kind(said, "assistant") == "commitment"
    # an ask with no promise after it stays a request
    assert kind("Tell me what's in each one and which ones get full sun.", "assistant") == "meta"


def test_the_assistants_praise_alone_tells_nothing() -> None:
    """ "Nice work sticking with it." (extraction_x) was kept as a decision ("sticking with");
    said by the assistant, praise with nothing after it tells nothing."""
    kind = sentence_kinds.sentence_kind
    assert kind("Nice work sticking with it.", "assistant") == "ack"
    assert kind("Well done!", "assistant") == "ack"
    # praise with a fact after it keeps the fact
    said = "Nice work on the migration script: it cut the run from 40 to 12 minutes."
    assert kind(said, "assistant") != "ack"


@pytest.mark.parametrize(
    "text",
    [
        "Today we had a long session about the family, work and plans.",
        "This conversation covered the importer, the billing bug and the offsite.",
        "The call was mostly about the roadmap.",
        "Today (1 June 2024) Ana and others had a long session about her family and her work.",
    ],
)
def test_a_recap_of_a_conversation_is_history_not_memory(text: str) -> None:
    """ "Episodes and session summaries never become memory items": a recap said in plain
    words, whatever its category, was saved (a spec audit: 4 of 6 phrasings)."""
    from memory_pipelines.core.episodes import is_recap

    assert is_recap(text)
    assert policy.skip_reason_for_item(text) == "already_in_history"


@pytest.mark.parametrize(
    "text",
    [
        "We had a call about the budget and decided to cut travel by 10%.",
        "The meeting was about the merger; we agreed to wait until May.",
        "I had a call with my doctor about my penicillin allergy.",
        "We had a long talk about money and will split the bills from now on.",
        "Our weekly sync is on Tuesdays.",
        # a review of this stop's first rule: each was read as a recap
        "I did a talk on Kubernetes at KubeCon last year.",
        "The talk was about quantum computing and I loved it.",
        "Our last meeting was about the Henderson account, which we lost.",
        "I had a long chat about pensions with Tom and now I'm maxing out my ISA.",
        "The call was on Tuesday.",
        "We held a meeting on Friday with the new client from Berlin.",
    ],
)
def test_what_came_of_a_conversation_is_no_recap(text: str) -> None:
    from memory_pipelines.core.episodes import is_recap

    assert not is_recap(text)
    assert policy.skip_reason_for_item(text) is None
