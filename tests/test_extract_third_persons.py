"""A user telling the assistant about someone else, by name: the sentence is about somebody
(core/sentence_people._name_then_verb), a clause about the telling itself is no part of the
fact (core/sentence_forms.without_telling), and a dose in millilitres is a health fact.
Written by hand for the mechanisms; found by a new-user probe (a parent's chat about two
children lost "Leo takes 5ml of cetirizine ..." and "Maya's teacher is ..., I don't think I
told you")."""

from memory_pipelines.api import Memory
from memory_pipelines.api.extraction import run_extraction
from memory_pipelines.core.extract import durable_parts
from memory_pipelines.core.sentence_forms import without_telling


def _kept(text: str) -> list[str]:
    return [s for s, _ in durable_parts(text, "user", [], "Assistant")]


def test_a_sentence_about_someone_named_first_is_kept() -> None:
    assert _kept("Ravi walks to school with his cousin on Mondays.") == [
        "Ravi walks to school with his cousin on Mondays."
    ]
    assert _kept("Pip needs her worming tablet every three months.") != []
    assert _kept("Omar's landlord is a housing co-op in Salford.") != []
    assert _kept("Ines finally passed her driving theory test.") != []


def test_a_first_word_that_names_no_one_is_not_a_name() -> None:
    assert _kept("Everything is fine over here.") == []
    assert _kept("Cooking relaxes after a long day.") == []
    # a pronoun is no name: "We can ..." said to a friend names nobody's fact
    assert _kept("We can make it work together!") == []
    assert _kept("Really can't beat a quiet weekend.") == []


def test_between_two_people_a_capitalised_opener_is_not_read_as_a_name() -> None:
    """Between people a sentence without a first person that opens with a capital is as
    often a thing in general as someone ("Kindness is key"): not read as about somebody."""
    for said in ("Kindness is key, honestly.", "Rehab takes a long time to pay off."):
        assert durable_parts(said, "user", [], "Gina", to_person=True) == [], said
    assert durable_parts("Ravi walks to school with his cousin.", "user", [], "Assistant")


def test_a_dose_in_millilitres_is_a_health_fact() -> None:
    for told in ("He's on 10ml of lactulose a day now.", "Then 5ml of the syrup at bedtime."):
        assert durable_parts(told, "user", [], "Assistant") == [(told, "fact")]


def test_a_clause_about_the_telling_is_left_out() -> None:
    assert without_telling("Ravi's coach is Mrs. Lund, not sure I mentioned that.") == (
        "Ravi's coach is Mrs. Lund, not sure I mentioned that."
    )  # "sure" is a word of its own: the clause is kept
    assert without_telling("Forgot to say, Ravi's coach is Mrs. Lund.") == (
        "Ravi's coach is Mrs. Lund."
    )
    assert without_telling("Ravi's coach is Mrs. Lund, you know.") == "Ravi's coach is Mrs. Lund."
    # a question left is still one; "as I said" says the statement is told again
    assert without_telling("Is Ravi allergic to nuts, do you know?") == "Is Ravi allergic to nuts?"
    said = "Ravi's coach is Mrs. Lund, as I said."
    assert without_telling(said) == said
    # a belief is a hedge, not an aside: it stays for the hedge rules to read
    assert without_telling("Ravi's coach is Mrs. Lund, I think.") == (
        "Ravi's coach is Mrs. Lund, I think."
    )
    assert _kept("Ravi's coach is Mrs. Lund, I don't think I ever told you.") == [
        "Ravi's coach is Mrs. Lund."
    ]


def test_a_turn_with_a_telling_aside_is_read_without_it(memory: Memory) -> None:
    """The whole path: the turn's save policy (rules and learned model) reads the turn
    without its clause about the telling; the learned model had skipped "Ines's teacher is
    Mr. Okoro, I don't think I told you" as talk about the chat, and the rules "..., did I
    tell you?" as a question."""
    memory.add_person("ola")
    turns = [
        {"speaker": "Ola", "text": "Ines's teacher is Mr. Okoro, I don't think I told you."},
        {"speaker": "assistant", "role": "assistant", "text": "Thanks, noted."},
        {"speaker": "Ola", "text": "Pip's vet is Dr. Hale in Leith, did I tell you?"},
        {"speaker": "assistant", "role": "assistant", "text": "Thanks, noted."},
    ]
    memory.write_turns("ola-dm", turns, person="ola")
    run_extraction(memory.db, memory.store_id, memory.models, memory.embedder, "t1")
    said = sorted(i.context for i in memory.items())
    # led by Ola's name: the facts name Ines and Pip, not her (see test_extract_attributed)
    assert said == ["Ola: Ines's teacher is Mr. Okoro.", "Ola: Pip's vet is Dr. Hale in Leith."], (
        said
    )
