"""Does a statement report a commitment done? "Maya paid Tom back the 40 euros today" fulfils
"Maya will pay Tom back the 40 euros by the end of the month"; "Maya still hasn't paid Tom
back" and "Maya will pay Tom on Friday" do not. Pure Python.

Read from what the two say, not from a list of cases: the commitment names its owner and its
act ("<owner> will <verb> <what> [by <when>]"); the statement reports that owner doing that
act, in the past or the perfect ("<owner> [adverb] <verb in the past>", "<owner> has <verb in
the participle>"), about the same things (a common word of <what> that is not about when, or,
when the report names nothing else, the same names: "paid Tom back"), and neither denies,
plans nor asks it. Dedup closes the commitment (api/dedup.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from memory_pipelines.core.due_dates import date_named
from memory_pipelines.core.judge_lexicon import STOPWORDS, wordlist
from memory_pipelines.core.judge_types import JudgeDecision, JudgeItem
from memory_pipelines.core.past_tense import past_forms
from memory_pipelines.core.records import ItemInput
from memory_pipelines.core.types import Item

# The act a stored commitment names: its owner and the verb after "will" / "is going to" /
# "promised to" (the stored text is in the third person: core/extract.py).
# ... or, told as reported speech, after whom it was promised to: "Sam promised the jeweller he
# would pay the deposit", "Kenji told Maria he'd send her the abstract".
PROMISE = re.compile(
    r"^(?P<owner>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?) (?:(?:will|shall|is going to|are going to"
    r"|promised to|has promised to|agreed to|has agreed to)"
    r"|(?:promised|told|assured|has promised|has told) (?:[\w'’.,-]+ ){1,5}?(?:that )?"
    # "he would", or the owner named again as extraction writes it ("Nadia would")
    r"(?:he|she|they|it|we|(?P=owner))(?: would| will|'d|’d|'ll|’ll| was going to))\s+"
    r"(?:(?:also|just|definitely|first|then|still|make sure to|try to)\s+)*"
    r"(?P<verb>[a-z]+)\b(?P<what>.*)$"
)
# The part of the act that only says when: "by the end of the month", "on Friday (...)".
_WHEN = re.compile(
    r"\s*(?:\b(?:by|before|until|till|on|at|this|next|tomorrow|tonight|today|later|after|in)\b"
    r"|\().*$",
    re.IGNORECASE,
)
# A report that it was not done, or not yet, or only will be, or is asked about.
_NOT_DONE = re.compile(
    r"\b(?:not|never|yet|still|will|won't|shall|going to|gonna|plans? to|hopes? to|wants? to"
    r"|needs? to|has to|have to|forgot|failed|couldn't|could not|didn't|hasn't|haven't|if)\b"
    r"|n't\b|\?",
    re.IGNORECASE,
)
_ADVERBS = r"(?:(?:just|finally|already|also|now|actually|eventually|quickly|today)\s+)"
# Words that name nothing acted on ("paid Tom back").
_FILLER = STOPWORDS | {"back", "off", "away", "over"}
# ... nor those that only say when it was done ("that Friday", "yesterday", "last week").
_FILLER |= frozenset(
    wordlist(
        "monday tuesday wednesday thursday friday saturday sunday yesterday today tonight ago last "
        "week weekend month morning afternoon evening night earlier finally"
        # ... nor how it was done: "paid the invoice early" pays the invoice
        " early late ahead again promptly eventually soon already quickly"
    )
)
_YEAR = re.compile(r"(?:19|20)\d\d")


def thing_words(text: str) -> tuple[set[str], set[str]]:
    """The content words of a text: (common words, names), names being the capitalised."""
    common: set[str] = set()
    names: set[str] = set()
    for w in re.findall(r"[A-Za-z0-9]+", text):
        # a year says when, as a month does ("will open one this month (May 2025)")
        if w.lower() not in _FILLER and not _YEAR.fullmatch(w):
            # "Q3", "V2" name a kind of thing, not a person
            named = w[0].isupper() and not any(ch.isdigit() for ch in w)
            (names if named else common).add(w.lower())
    return common, names


def acted_on(text: str) -> tuple[set[str], set[str]]:
    """What an act is done to, without the words that only say when."""
    cut = _WHEN.sub("", text)
    return thing_words(cut) if any(thing_words(cut)) else thing_words(text)


def _act_told(promised: re.Match[str], statement: str) -> re.Match[str] | None:
    """Where `statement` tells the promise's owner doing its act (the verb in the past or the
    perfect, "did <verb>", or beside another act), whatever it was done to."""
    owner, verb = promised.group("owner"), promised.group("verb")
    past = "|".join(sorted(past_forms(verb)))
    return re.search(
        rf"\b{re.escape(owner)}(?:'s)? {_ADVERBS}{{0,2}}(?:(?:has|have|had) {_ADVERBS}{{0,2}})?"
        # "did ring the HSE"; "signed the renewal and sent it back": the act, done beside another
        rf"(?:(?:{past})|did {re.escape(verb)}|(?P<before>\w+ed\b[^,;.]{{0,40}}?) and "
        rf"{_ADVERBS}{{0,2}}(?:{past}))\b(?P<rest>.*)",
        statement,
        re.IGNORECASE,
    )


def reports_done(commitment: str, statement: str) -> bool:
    """Whether `statement` reports the act `commitment` promises as done by its owner: the
    same things acted on (a common word shared, "the signed contract"; or only names on both
    sides, "paid Tom back"), never another thing done to the same person or place ("sent Mr
    Patel a birthday card" does not send him the contract)."""
    m = PROMISE.match(commitment.strip())
    if m is None or _NOT_DONE.search(statement):
        return False
    done = _act_told(m, statement)
    if done is None:
        return False
    owners = {w.lower() for w in m.group("owner").split()}
    things, names = acted_on(m.group("what"))
    # the report's own clause: "called Green Fork, they're booked for the 19th"
    clause = re.split(r"[,;:]|\b(?:and|but|so)\b", done.group("rest"))[0]
    # what the act beside it was done to is this act's too ("signed the renewal and sent it")
    said_things, said_names = acted_on(f"{done.group('before') or ''} {clause}")
    names, said_names = names - owners, said_names - owners
    if names and said_names and not names & said_names:
        return False  # "booked the hotel in Porto" is not "book the hotel in Lisbon"
    if things & said_things:
        # ... and not two kinds of it: "sent the Q3 report" is not "the budget report"
        return not (things - said_things and said_things - things)
    # Nothing else acted on in the report: the names it shares are the promise's ("Maya will
    # call Green Fork tomorrow" / "Maya called Green Fork"); with none, the act alone.
    return not said_things and (bool(names & said_names) or not (names or things))


def names_its_act(commitment: str, statement: str) -> bool:
    """Whether `statement` speaks of what `commitment` promises: a thing it is done to ("the
    report is pushed to Monday" of "will send the report by Friday"). A promise it cannot read
    is taken as named. Another promise to the same person ("send her the abstract" beside "send
    her chapter 2") or another plan names none of it, so it never replaces the commitment."""
    m = PROMISE.match(commitment.strip())
    if m is None:
        return True
    things, names = acted_on(m.group("what"))
    owners = {w.lower() for w in m.group("owner").split()}
    said, said_names = thing_words(statement)
    if things:  # the one it is owed to, named alone, is not what it promises
        return bool(things & said)
    return bool((names - owners) & said_names) or not names - owners


def _owed_elsewhere(promise: JudgeItem, candidate: JudgeItem) -> bool:
    """Whether the candidate is a promise to someone else than the stored promise is owed to
    ("send Alan chapter 3" / "review Sofia's paper": both drafts, and another promise)."""
    if candidate.category != "commitment" or not promise.owed_to or not candidate.owed_to:
        return False
    return promise.owed_to.strip().lower() != candidate.owed_to.strip().lower()


def _promise_of_another(
    decision: JudgeDecision, candidate: JudgeItem, target: JudgeItem
) -> JudgeDecision:
    """A new promise merged into, or replacing, a statement that does not name its owner
    ("Agent will remind Halvard tomorrow at 9 to call about the windshield claim" into "The
    insurer still hasn't processed the windshield claim; Halvard needs to ring them") would
    lose whom it is owed to and when it is due, or the statement: both stay."""
    promised = (
        PROMISE.match(candidate.context.strip()) if candidate.category == "commitment" else None
    )
    if promised is None:
        return decision
    owner = promised.group("owner")
    if re.search(rf"\b{re.escape(owner)}\b", target.context):
        return decision  # "Samir will help Karim move" / "Samir agreed to help Karim move"
    return JudgeDecision(
        "create", None, f"a promise of {owner}'s, not in the item ({decision.reason})"
    )


def promise_kept_whole(
    decision: JudgeDecision, candidate: JudgeItem, existing: Sequence[JudgeItem]
) -> JudgeDecision:
    """The judge's decision, unless it replaces a commitment with, or merges into it:
    - a promise owed to someone else (both say whom, `owed_to`);
    - a statement that names nothing of what it promises, when it replaces it (another plan,
      another promise to the same person);
    - another promise that names nothing of it, when it merges ("will send Tom the budget
      report" into "will pay Tom back the 40 euros": the same owner and the same person owed
      are no same promise);
    - a statement of its owner doing its act, when it merges ("Tomas paid the invoice late"):
      a report of what happened, which a merge would lose, whether or not it keeps the promise.
    Then the statement is new and the promise stays open, as it was. Applied to every judge
    backend's answer."""
    if decision.action not in ("supersede", "merge") or decision.target is None:
        return decision
    target = existing[decision.target]
    if target.category != "commitment":
        return _promise_of_another(decision, candidate, target)
    if _owed_elsewhere(target, candidate):
        return JudgeDecision("create", None, f"a promise to another ({decision.reason})")
    promised = PROMISE.match(target.context.strip())
    if decision.action == "merge" and promised and _act_told(promised, candidate.context):
        # "Tomas paid the invoice late": the act told done (or half done, or denied), a fact
        # of its own that a merge would lose, whether or not it keeps the promise
        return JudgeDecision("create", None, f"tells the promised act ({decision.reason})")
    if names_its_act(target.context, candidate.context):
        return decision
    if decision.action == "merge" and not PROMISE.match(candidate.context.strip()):
        return decision  # a statement about the promise, not another promise
    return JudgeDecision("create", None, f"names nothing of the promise ({decision.reason})")


def promise_moved(item: ItemInput, promised: Item) -> ItemInput:
    """A statement that replaces an open commitment and names a new day for it ("staging is
    slipping, told Priti it'll be 27 March now instead of the 20th") is the promise, due then:
    it stays in the commitments list, owed to whom it was and owned by whom it was. Without a
    day named, or when it is a commitment already, it stays as it was."""
    if item.category == "commitment" or promised.category != "commitment":
        return item
    if promised.status != "open":
        return item
    due = date_named(item.context, item.valid_from or datetime.now(UTC))
    if due is None:
        return item
    owner = promised.metadata.get("owner")
    metadata = {**item.metadata, **({"owner": owner} if owner else {}), "what": item.context}
    return replace(
        item,
        category="commitment",
        status="open",
        due_at=due,
        owed_to=promised.owed_to,
        metadata=metadata,
    )
