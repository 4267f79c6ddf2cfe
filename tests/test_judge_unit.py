"""Unit tests of the deterministic dedup judge on hand-written cases (none from the dev file).

Each case is a candidate, its recalled neighbours and the expected decision. The model is the
real embedder (loaded once for the module); no database is involved.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from memory_pipelines.core.judge import JudgeDecision, JudgeItem, decide
from memory_pipelines.core.judge_claims import change_clauses, claims
from memory_pipelines.core.judge_eval import evaluate
from memory_pipelines.core.judge_lexicon import content_stems
from memory_pipelines.core.judge_pairs import compare
from memory_pipelines.core.judge_rules import analyse
from memory_pipelines.core.judge_values import read_values, typed_values, value_conflicts
from memory_pipelines.models.embedder import Embedder, get_embedder


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return get_embedder()


def judge(embedder: Embedder, candidate: JudgeItem, existing: list[JudgeItem]) -> JudgeDecision:
    vecs = embedder.embed([candidate.context, *(x.context for x in existing)])
    return decide(candidate, existing, vecs[0], vecs[1:])


def items(*texts: str, category: str = "fact") -> list[JudgeItem]:
    return [JudgeItem(t, category, valid_from="2024-03-01") for t in texts]


# (candidate, candidate category, existing texts, expected action, expected target index)
CASES: list[tuple[str, str, list[str], str, int | None]] = [
    # merge: paraphrase, more detail, list extended, machine confirmation
    ("Drinks her coffee black, no sugar", "fact",
     ["Takes coffee black without sugar", "Drinks green tea in the afternoon", "Owns a Moka pot"],
     "merge", 0),
    ("Senior backend engineer at Fernhill, working on the search API", "fact",
     ["Lives in Glasgow", "Works as a backend engineer at Fernhill", "Previously worked at a bank"],
     "merge", 1),
    # a list that grows is a new value (a merge would keep the old wording and lose a member)
    ("Speaks French and Italian", "fact",
     ["Spent a year in Lyon", "Speaks French", "Wants to learn Japanese"], "supersede", 1),
    ("Ships to Spain, France and Italy", "fact",
     ["Ships within 3 days", "Ships to Spain and France"], "supersede", 1),
    ("Ships only to Spain now", "fact", ["Ships to Spain and France"], "supersede", 0),
    ("Uses Postgres, Redis and Kafka", "fact", ["Uses Postgres and Redis"], "supersede", 0),
    # clauses joined by "and" are no list
    ("Frontend stays on Vue: the team knows it and the design kit is Vue-only", "decision",
     ["Design kit is Vuetify", "Keeping Vue for the frontend"], "merge", 1),
    # a negation said another way is the same claim; the same content turned round is not
    ("Does not want phone calls", "preference",
     ["Prefers email, never by phone", "Likes short replies"], "merge", 0),
    ("Prefers email, never by phone", "preference", ["Does not want phone calls"], "merge", 0),
    ("Wants phone calls now", "preference", ["Does not want phone calls"], "supersede", 0),
    ("Won't take bookings under two nights; not worth the cleaning", "fact",
     ["Minimum stay is two nights", "Cleaner comes on Fridays"], "merge", 0),
    # the old value said to have left, or another value of a one-value slot
    ("Manager is now Tom, Priya left", "fact", ["Manager is Priya", "Team has 6 people"],
     "supersede", 0),
    ("Accountant is Raj", "fact", ["Accountant is Mei", "Files taxes in January"],
     "supersede", 0),
    ("Lives in Porto", "fact", ["Lives in Lisbon", "Works from home"], "supersede", 0),
    ("Lives in Leith, Edinburgh, near the shore", "fact",
     ["Lives in Edinburgh", "Moved to Edinburgh from Cork in 2021"], "merge", 0),
    ("Tea: always Earl Grey with a splash of milk", "fact",
     ["Drinks coffee only at weekends", "Drinks Earl Grey with milk"], "merge", 1),
    ("Moved to Bristol for the new job", "fact",
     ["Grew up in Swansea", "Lives in Bristol", "Works at a design studio"], "merge", 1),
    ("Vegan for about five years now", "fact",
     ["Partner eats meat", "Is vegan", "Likes Thai food"], "merge", 1),
    # supersede: moved, number or date changed, negation, reversal, status, preference turned
    ("Now lives in Manchester after moving from Leeds in April", "fact",
     ["Works in Leeds city centre", "Parents live in York", "Lives in Leeds"], "supersede", 2),
    ("Salary went up to £68k after the promotion", "fact",
     ["Pension contribution is 5%", "Salary is £60k", "Got promoted to senior in March"],
     "supersede", 1),
    ("Thesis deadline pushed to 30 November", "fact",
     ["Thesis supervisor is Dr Hale", "Thesis is due on 30 September", "Viva expected in January"],
     "supersede", 1),
    ("Gave up coffee in January", "fact",
     ["Likes green tea", "Drinks three coffees a day", "Sleeps badly"], "supersede", 1),
    ("Decided against the loft conversion; extending the kitchen instead", "fact",
     ["Kitchen is small and dark", "Planning a loft conversion next year", "Builder is Harlow"],
     "supersede", 1),
    ("Their goldfish Bubbles died last week", "fact",
     ["Has a cat called Mittens", "Cleans the tank every Sunday", "Has a goldfish called Bubbles"],
     "supersede", 2),
    ("Weekly team sync moved to Thursdays at 2pm", "fact",
     ["1:1 with manager on Fridays", "Weekly team sync is on Tuesdays at 2pm", "Team has six"],
     "supersede", 1),
    ("Prefers tea to coffee these days", "fact",
     ["Drinks oat milk", "Prefers coffee to tea", "Has an espresso machine"], "supersede", 1),
    ("Changed their mobile provider from Vodafone to Giffgaff", "fact",
     ["Broadband is with BT", "Phone is a Pixel 7", "Mobile provider is Vodafone"],
     "supersede", 2),
    # create: other subject with the same attribute, new attribute, exception, second item
    ("Brother Sam lives in Leeds", "fact",
     ["Sister Jo lives in Leeds", "Sam works as a plumber", "Parents live in Hull"],
     "create", None),
    ("Father has type 2 diabetes", "fact",
     ["User has type 2 diabetes", "Father lives in Cardiff", "Mother is a retired teacher"],
     "create", None),
    ("Dog Rex is 5", "fact",
     ["Dog Rex is a German shepherd", "Cat Tilly is 5", "Walks Rex twice a day"], "create", None),
    ("Colleague Fatima is moving to the Dublin office in June", "fact",
     ["Colleague Tom is moving to the Dublin office in June", "Fatima leads the data team"],
     "create", None),
    ("Car insurance renews on 1 August", "fact",
     ["Home insurance renews on 1 August", "Car is a 2019 Honda Jazz", "Insurer is Aviva"],
     "create", None),
    ("Uses Yarn only for the old dashboard repo", "fact",
     ["Uses pnpm for all JavaScript projects", "The dashboard is built with Angular"],
     "create", None),
    ("Bought a second bike for commuting", "fact",
     ["Owns a Cannondale road bike", "Cycles 60 km on Sundays"], "create", None),
    ("Plays padel on Thursday evenings", "fact",
     ["Plays tennis on Thursday evenings", "Club is Riverside Racquets", "Has a bad shoulder"],
     "create", None),
    ("Their flat has a south-facing balcony", "fact",
     ["Flat is on the fourth floor", "Flat has two bedrooms"], "create", None),
    # modality: a plan settled by a firm statement; a hedged inference confirms a stated item
    ("Bought a used upright piano from a neighbour", "fact",
     ["Looking for a second-hand piano under £1,000", "Takes piano lessons on Mondays"],
     "supersede", 0),
    ("Probably enjoys hiking", "preference",
     ["Goes hiking in the hills most weekends", "Owns a road bike"], "merge", 0),
    # the same denial said another way, beside an item it turns round about someone else
    ("Won't eat red meat; sticks to fish and chicken", "preference",
     ["Buys red meat for the kids' dinners", "Avoids red meat"], "merge", 1),
    # one name, two relations: two people
    ("Partner Ana is allergic to peanuts", "fact",
     ["Ana's dad is allergic to peanuts", "Ana works as a nurse"], "create", None),
]  # fmt: skip


@pytest.mark.parametrize(("candidate", "category", "existing", "action", "target"), CASES)
def test_hand_written_cases(
    embedder: Embedder,
    candidate: str,
    category: str,
    existing: list[str],
    action: str,
    target: int | None,
) -> None:
    decision = judge(embedder, JudgeItem(candidate, category), items(*existing))
    assert (decision.action, decision.target) == (action, target), decision.reason
    assert decision.reason


def test_no_neighbours_is_create(embedder: Embedder) -> None:
    vec = embedder.embed(["Likes hiking"])[0]
    decision = decide(JudgeItem("Likes hiking", "preference"), [], vec, np.zeros((0, vec.size)))
    assert decision == JudgeDecision("create", None, decision.reason)


def test_machine_origin_and_confidence_do_not_decide(embedder: Embedder) -> None:
    existing = items("Asked for answers as bullet points, not paragraphs", "Prefers UK spelling")
    text = "Seems to prefer bullet points over long paragraphs"
    as_user = judge(embedder, JudgeItem(text, "fact", 9, "user"), existing)
    as_machine = judge(embedder, JudgeItem(text, "fact", 4, "machine"), existing)
    assert (as_user.action, as_user.target) == (as_machine.action, as_machine.target)
    assert (as_machine.action, as_machine.target) == ("merge", 0)


def test_target_follows_the_order_of_existing(embedder: Embedder) -> None:
    texts = ["Council tax is £140 a month", "Flat is in Bedford", "Rent is £1,100 per month"]
    candidate = JudgeItem("Rent went up to £1,250 a month", "fact")
    for seed in range(4):
        order = random.Random(seed).sample(texts, len(texts))
        decision = judge(embedder, candidate, items(*order))
        assert decision.action == "supersede"
        assert decision.target is not None and order[decision.target] == texts[2]


def test_deterministic(embedder: Embedder) -> None:
    candidate = JudgeItem("Standup now starts at 10:00", "fact")
    existing = items("Daily standup is at 9:30", "Retro is every other Friday")
    first = judge(embedder, candidate, existing)
    assert all(judge(embedder, candidate, existing) == first for _ in range(3))
    assert (first.action, first.target) == ("supersede", 0)


def test_evaluate_reports_scores(embedder: Embedder) -> None:
    def case(cid: str, cand: str, ex: list[str], label: str, target: str | None) -> dict[str, Any]:
        return {
            "id": cid,
            "candidate": {"category": "fact", "context": cand, "confidence": 7, "origin": "user"},
            "existing": [
                {"id": f"m{i + 1}", "category": "fact", "context": t, "valid_from": "2024-01-01"}
                for i, t in enumerate(ex)
            ],
            "label": label,
            "target": target,
        }

    cases = [
        case("a", "Speaks French, fluently", ["Speaks French", "Plays chess"], "merge", "m1"),
        case("b", "No longer on the on-call rota", ["Is on the on-call rota"], "supersede", "m1"),
        case("c", "Brother Sam lives in Leeds", ["Sister Jo lives in Leeds"], "create", None),
        # deliberately mislabelled, so one miss is reported
        case("d", "Speaks French, fluently", ["Speaks French"], "create", None),
    ]
    result = evaluate(cases, embedder)
    assert result["n"] == 4
    assert result["accuracy"] == 0.75
    assert result["misses"] == ["d"]
    assert result["confusion"]["create"] == {"merge": 1, "supersede": 0, "create": 1}
    assert result["per_label"]["merge"] == {"precision": 0.5, "recall": 1.0, "n": 1}
    assert result["per_label"]["create"] == {"precision": 1.0, "recall": 0.5, "n": 2}


def test_typed_values_read_money_times_dates_and_counts() -> None:
    vals = typed_values("Rent is €1,420 a month from 3 April; standup at 9:30, gym at 6pm")
    assert vals["money"] == {"1420"}
    assert vals["date"] == {"3 apr"}
    assert vals["clock"] == {"9:30", "18:00"}
    assert typed_values("Team has 7 engineers")["n:engineer"] == {"7"}
    assert typed_values("three sessions a week")["n:session"] == {"3"}
    assert value_conflicts(typed_values("due 12 June"), typed_values("due 19 June")) == ["date"]
    assert value_conflicts(typed_values("on 14 June"), typed_values("on 14 June 2019")) == []


def test_values_in_other_forms_read_as_the_same_value() -> None:
    def vals(text: str, said_on: tuple[int, int] | None = None) -> dict[str, frozenset[str]]:
        return read_values(text, said_on)[0]

    assert vals("The plumber charges seventy-five pounds fifty")["money"] == {"75.5"}
    assert vals("Monthly rent is 1,450 euros")["money"] == {"1450"}
    assert vals("Lights out at quarter to eleven")["clock"] == {"10:45", "22:45"}
    assert vals("Swim lasts an hour and a half")["minutes"] == {"90"}
    assert vals("Walk to school is twenty minutes")["minutes"] == {"20"}
    assert vals("Drive takes three quarters of an hour")["minutes"] == {"45"}
    assert vals("Essay due at the end of February")["date"] == {"28 feb"}
    assert vals("Bought the van last year", (2023, 6))["year"] == {"2022"}
    assert "year" not in vals("Bought the van last year")  # said when? unknown: not read
    assert vals("Turned 41 in March", (2022, 5))["birth year"] == {"1981", "1980"}
    # Counts and ranges are not clock times or ages.
    assert "clock" not in vals("Runs two to three times a week")
    assert "minutes" not in vals("Keeps six hens")  # "h" is an hour only as a word of its own
    assert "birth year" not in vals("Team is 7 people", (2024, 1))
    assert "birth year" not in vals("Editor font size is 14", (2024, 1))  # a size, not an age
    assert vals("Lunch is at noon")["clock"] == {"12:00"}
    assert vals("Step goal is 12k")["count"] == vals("Aims for twelve thousand steps")["count"]
    assert "count" not in vals("Saved £12k")  # money, read as money
    # Read from another form: marked with the form, so a match written otherwise restates.
    assert read_values("Pays nine pounds an hour")[1] == {("money", "9", "nine pounds")}
    assert read_values("Pays £9 an hour")[1] == frozenset()


def test_same_value_in_another_form_is_a_merge(embedder: Embedder) -> None:
    existing = [
        JudgeItem("Dog walker Priya charges twelve pounds a walk", "fact"),
        JudgeItem("Dog walker comes on Mondays and Thursdays", "fact"),
        JudgeItem("Groomer charges £40 a visit", "fact"),
    ]
    same = judge(embedder, JudgeItem("Pays the dog walker £12 per walk", "fact"), existing)
    assert (same.action, same.target) == ("merge", 0)
    assert "another form" in same.reason
    changed = judge(embedder, JudgeItem("Pays the dog walker £15 per walk", "fact"), existing)
    assert changed.action != "merge"
    # An age said in 2023 and a birth year are one value; another year is not.
    aged = [JudgeItem("Turned 52 this winter", "fact", valid_from="2023-01-20"),
            JudgeItem("Wife was born in 1973", "fact", valid_from="2023-01-20")]  # fmt: skip
    born = judge(embedder, JudgeItem("Born in 1971", "fact"), aged)
    assert (born.action, born.target) == ("merge", 0)
    assert judge(embedder, JudgeItem("Born in 1965", "fact"), aged).action != "merge"


def test_statement_patterns_read_generally() -> None:
    # A number after a name is its version; a function word after a number is not its unit.
    assert typed_values("Laptop now runs Ubuntu 24 since the reinstall")["n:ubuntu"] == {"24"}
    assert value_conflicts(
        typed_values("Site runs on Django 5 after the upgrade"), typed_values("Site is on Django 4")
    ) == ["n:django"]
    # "Up to" is a change where a level is reached, a cap elsewhere.
    assert "number moved" in analyse("Down to six hens; a fox took two").cues
    assert "number moved" not in analyse("Employer matches up to 6%").cues
    # A setting switched on or off is a state, not a change of value.
    assert "switched" not in analyse("Wants dark mode switched on everywhere").cues
    assert "switched" in analyse("Switched to oat milk").cues
    # A status that is reached ends a sentence; inside a clause it only sets a condition.
    assert "status" in analyse("The kitchen refit is done.").cues
    assert "status" not in analyse("No email until the first task is done each day").cues
    # "For X only, ..." opens an exception.
    assert analyse("For the Leeds office only, badges are blue").exception
    assert not analyse("Badges are blue for every office").exception


def test_a_moved_date_finds_the_item_holding_a_date(embedder: Embedder) -> None:
    existing = [
        JudgeItem("Funding officer at the council is Ana Ruiz", "fact"),
        JudgeItem("Annual audit for the Harbour Fund due 14 March", "commitment"),
        JudgeItem("Team offsite on 2 April", "commitment"),
    ]
    moved = judge(embedder, JudgeItem("Audit deadline slipped to 28 April", "commitment"), existing)
    assert (moved.action, moved.target) == ("supersede", 1)


def test_lists_are_noun_phrases_and_may_grow_from_one_value(embedder: Embedder) -> None:
    # A piece that opens with a verb is a clause: "Lyon, driving to Nice and ..." lists nothing.
    assert claims("Tour is 3 to 9 May via Lyon, driving to Nice and back by train").members == set()
    assert claims("Plays guitar, bass and drums").members == {"guitar", "bass", "drum"}
    existing = [JudgeItem("Enjoys Korean food", "preference"),
                JudgeItem("Eats out on Saturdays", "preference")]  # fmt: skip
    grown = judge(
        embedder, JudgeItem("Favourite cuisines are Korean and Peruvian", "preference"), existing
    )
    assert (grown.action, grown.target) == ("supersede", 0)


def test_a_denial_said_another_way_is_a_merge(embedder: Embedder) -> None:
    existing = [
        JudgeItem("Avoids flights that leave before dawn", "preference"),
        JudgeItem("Prefers trains for trips under four hours", "preference"),
        JudgeItem("Flies out of Bristol", "fact"),
    ]
    same = judge(embedder, JudgeItem("Won't take early-morning flights", "preference"), existing)
    assert (same.action, same.target) == ("merge", 0)
    assert claims("Can't stand loud restaurants").denies
    assert not claims("Claim against the builder is filed").denies  # a preposition


def test_a_resumed_habit_ends_the_state_between(embedder: Embedder) -> None:
    assert "resumed" in analyse("Eating meat again since the spring").cues
    existing = [JudgeItem("Vegetarian", "preference"), JudgeItem("Likes Thai food", "preference")]
    back = judge(embedder, JudgeItem("Eating meat again after six years as a vegetarian",
                                     "preference"), existing)  # fmt: skip
    assert (back.action, back.target) == ("supersede", 0)


def test_a_change_replaces_the_item_holding_the_old_value(embedder: Embedder) -> None:
    new, aside = change_clauses("Now takes the bus; the bike got stolen in March")
    assert new == {"bus"} and content_stems(["bike", "stolen"]) <= aside
    assert change_clauses("Gave up the choir") == (frozenset(), frozenset())  # ends, no new value
    existing = [
        JudgeItem("Takes the bus to football practice", "fact"),
        JudgeItem("Cycles to work on a road bike", "fact"),
        JudgeItem("Season ticket renews in June", "fact"),
    ]
    moved = judge(
        embedder, JudgeItem("Now takes the bus to work; the bike got stolen", "fact"), existing
    )
    assert (moved.action, moved.target) == ("supersede", 1)


def test_subjects_end_at_verbs_no_list_knows() -> None:
    # An unlisted verb ("rehearses") after a singular subject, before a preposition.
    choir = analyse("Band rehearses on Thursdays")
    assert choir.subject_stems == {"band"} and "thursday" in choir.predicate_stems
    # An adverb between the subject and its verb is looked past.
    assert analyse("Headaches usually start in the afternoon").subject_stems == {"headach"}
    # ... and an unlisted "-s" opener before "as", a preposition or an article is the user's verb.
    assert analyse("Trades as Harbour Prints Ltd").subject == {"user"}
    assert analyse("Volunteers at the food bank").subject == {"user"}
    # Plural nouns run together are no verb: "Orders service owns ..."
    assert "servic" in analyse("Orders service owns the billing table").subject_stems


def test_a_name_overlaps_only_a_name() -> None:
    def overlap(a: str, b: str) -> float:
        return compare(0, analyse(a), [analyse(b)], 0.7, ("fact", "fact")).predicate_overlap

    # "Harbour Save" is a provider; "saved" in the other item is a verb: no shared attribute.
    assert overlap("The pension is with Harbour Save", "Pension is saved in an index fund") == 0
    assert overlap("Pension is with Harbour Save", "Pension provider is Harbour Save") > 0


def test_a_negated_verb_flips_only_against_the_verb() -> None:
    def flip(a: str, b: str) -> bool:
        return compare(0, analyse(a), [analyse(b)], 0.6, ("lesson", "lesson")).polarity_flip

    assert flip("Won't renew the gym membership", "Will renew the gym membership in May")
    # "a hot wash" is a noun: the lesson is the same, not turned round.
    assert not flip("Don't wash silk at 60", "Silk fades in a hot wash; delicate cycle only")


def test_a_kept_value_reverses_a_planned_change(embedder: Embedder) -> None:
    assert "kept" in analyse("Sticking with the old laptop for now").cues
    assert "kept" not in analyse("Staying at the Hilton in Lisbon").cues  # a stay, no decision
    existing = [
        JudgeItem("Moving the newsletter to fortnightly from next month", "decision"),
        JudgeItem("Newsletter goes out on Friday mornings", "decision"),
        JudgeItem("Uses Buttondown for the newsletter", "fact"),
    ]
    kept = judge(
        embedder,
        JudgeItem("Staying on a weekly newsletter; fortnightly lost readers", "decision"),
        existing,
    )
    assert (kept.action, kept.target) == ("supersede", 0)


def test_an_uncued_value_change_keeps_one_attribute(embedder: Embedder) -> None:
    spent = JudgeItem("Spent £900 on the bathroom refit in total", "fact")
    budget = [JudgeItem("Budget for the bathroom refit was £700", "fact"),
              JudgeItem("Bathroom tiles came from Topps", "fact")]  # fmt: skip
    assert judge(embedder, spent, budget).action == "create"  # spent is not the budget
    grew = JudgeItem("Choir has 31 singers since the spring intake", "fact")
    choir = [JudgeItem("Choir has twenty-four singers", "fact"),
             JudgeItem("Choir rehearses on Mondays", "fact")]  # fmt: skip
    assert (judge(embedder, grew, choir).action, judge(embedder, grew, choir).target) == (
        "supersede",
        0,
    )


def test_an_attribute_stored_for_another_subject_is_not_merged(embedder: Embedder) -> None:
    existing = [
        JudgeItem("Ravi has a French tutor on Wednesdays", "fact"),
        JudgeItem("Daughter Ana is taking GCSE French", "fact"),
        JudgeItem("Ravi is in Year 10", "fact"),
    ]
    new = judge(embedder, JudgeItem("Son Ravi is taking GCSE French", "fact"), existing)
    assert new.action == "create"
    same = judge(
        embedder,
        JudgeItem("Son Ravi is taking GCSE French this year", "fact"),
        [JudgeItem("Ravi is taking GCSE French", "fact"), *existing[1:]],
    )
    assert (same.action, same.target) == ("merge", 0)


def test_a_firm_change_replaces_a_stored_plan_in_other_words(embedder: Embedder) -> None:
    existing = [
        JudgeItem("Thinking about a caravan holiday in Wales this summer", "decision"),
        JudgeItem("Summer school holidays start on 22 July", "fact"),
    ]
    firm = judge(embedder, JudgeItem("Booked a Crete holiday instead", "decision"), existing)
    assert (firm.action, firm.target) == ("supersede", 0)


def test_analysis_reads_subjects_and_cues() -> None:
    assert analyse("Lives in Leeds").subject == {"user"}
    assert analyse("Sister Mia lives in Cork").subject == {"sister", "mia"}
    assert analyse("Mother-in-law Helen is visiting").subject == {"mother-in-law", "helen"}
    assert analyse("Has a cat called Tofu").subject == {"user", "cat", "tofu"}
    assert "no longer" in analyse("No longer vegetarian").cues
    assert "new" in analyse("Has a new manager").cues
    assert "new" not in analyse("Chose Svelte for the new admin panel").cues
    assert "instead" not in analyse("Set a timeout so it fails instead of blocking").cues
    assert analyse("Switched from Lightroom to darktable").old_words == {"lightroom"}
