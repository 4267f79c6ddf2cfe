"""Whom a promise may be owed to: a person's name (never a day or a month) or a role ("my
landlord", "the recruiter"), and the role named by its own word in the commitments list ("my
thesis advisor" -> "advisor"), a name that only qualifies a thing ("for Harvard style"), and
the listener handed what was made for another. Pure Python."""

from __future__ import annotations

import re

_TITLE = r"(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+[A-Z][a-z]+"
# A name, never a day or a month ("book the table for Friday" is owed to nobody named Friday).
NAME = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March"
    r"|April|May|June|July|August|September|October|November|December|Christmas|Easter)\b)"
    rf"(?:{_TITLE}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
)
# Whom a promise may be owed to by role ("my landlord", "the recruiter"): no thing handled.
ROLE_WORDS = frozenset([
    "landlord", "landlady", "boss", "manager", "client", "customer", "team", "advisor", "adviser",
    "supervisor", "mentor", "editor", "therapist", "trainer", "teacher", "doctor", "dentist",
    "neighbour", "neighbor", "accountant", "lawyer", "school", "bank", "council", "vet", "mum",
    "mom", "dad", "mother", "father", "sister", "brother", "partner", "wife", "husband", "friend",
    "kids", "son", "daughter", "family", "colleague", "coach", "tutor", "agent", "supplier",
    "vendor", "contractor", "builder", "plumber", "insurer", "recruiter", "interviewer",
    "receptionist", "nurse", "pharmacist", "physio", "electrician", "mechanic", "cleaner",
    "nanny", "babysitter", "childminder", "grandma", "grandpa", "gran", "granny", "grandad",
    "granddad", "grandmother", "grandfather", "aunt", "auntie", "uncle", "cousin", "niece",
    "nephew", "flatmate", "roommate", "housemate", "classmate", "teammate", "professor",
    "lecturer", "principal", "headteacher", "solicitor", "surveyor", "optician", "midwife", "gp",
    "counsellor", "counselor", "carer", "caregiver", "tenant", "buyer", "seller", "host",
    "hairdresser", "barber", "sponsor"
])  # fmt: skip
ROLE = (
    r"(?:the |my |our |his |her |their )(?:[a-z]+ )?"
    rf"(?:{'|'.join(sorted(ROLE_WORDS, key=len, reverse=True))})"
)
_ROLE_HEAD = re.compile(
    r"(?:(?:the|my|our|his|her|their) )?(?:[a-z]+ )?"
    rf"(?P<role>{'|'.join(sorted(ROLE_WORDS, key=len, reverse=True))})"
)


def owed_by_role(whom: str) -> str:
    """Whom a promise is owed to, as the commitments list names them: a role by its own word
    ("my thesis advisor", "the new landlord" -> "advisor", "landlord"), anyone else as said
    without a leading determiner."""
    m = _ROLE_HEAD.fullmatch(whom)
    return m.group("role") if m else re.sub(r"^(?:the|my|our|his|her|their) ", "", whom)


# What may follow a recipient's name: "to Ana by Friday", "for Tom and Jo", "for Ana tomorrow".
_AFTER_NAME = re.compile(
    r"\s*(?:$|[^\w\s]|(?:by|before|on|at|in|and|or|tomorrow|tonight|today|next|this|later|soon"
    r"|asap|first|too|as|so|when|if|after|about|with|for|to|the|a|an)\b|[A-Z])"
)


def attributive(rest: str, r: re.Match[str]) -> bool:
    """The name found as a recipient qualifies the noun after it ("for Harvard style"): a
    lowercase word follows it that no recipient's name is followed by."""
    name = r.group("indirect")
    if not name or name == "you" or name[:1].islower():
        return False
    return _AFTER_NAME.match(rest, r.end("indirect")) is None


# The promised thing handed to the listener after another it is for: "I'll draft a plan for
# Isla ... and have it ready for you by Wednesday", "... and get it back to you".
HANDED_YOU = re.compile(
    r"\b(?:ready|done|finished|sorted|back|over|across|round|sent|through)\s+(?:to|for)\s+"
    r"(?:you|u)\b(?!\s+to\b)|\b(?:send|give|hand|email|text|bring|pass|show)\s+(?:it|them)\s+"
    r"(?:to\s+)?(?:you|u)\b",
    re.IGNORECASE,
)
