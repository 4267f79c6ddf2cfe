"""What a pronoun opening a sentence stands for, when the conversation just said it.

"It's 5 Birch Road now", answering "Is the delivery address still 12 Oak Lane?", is the
delivery address (`what_it_is`): the question's subject, asked of the listener ("your
address"), is the answer's own ("My delivery address is 5 Birch Road now").

Who "she" or "he" is, when the speaker said it of their own family just before (`who_is_meant`):

"My sister lives in Kyoto now." ... "She teaches English at a high school." Kept alone, the
second becomes a memory of nobody ("She teaches English"). When a sentence opens with she or
he, and the nearest of the speaker's own sentences before it that speaks of their family names
exactly one relative of that gender ("my sister", "my little brother Sam"), the pronoun is that
relative ("My sister teaches English ...", in third person "Lena's sister teaches ..."). Two
of them, or another person's name of that gender beside the relative, and it is left as said.
Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory_pipelines.core.dates import MONTHS, WEEKDAYS
from memory_pipelines.core.judge_lexicon import BREEDS, PETS
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.promise_whom import ROLE_WORDS

# Family words whose gender is in the word (a closed class): "cousin" or "partner" tell none.
_SHE = (
    "sister|mother|mom|mum|mommy|mam|mama|wife|daughter|aunt|niece|girlfriend|grandma|grandmother|"
    "granny|nan|nana|nanna|gran|auntie|aunty|stepmom|stepmother|stepsister|fiancee|fiancée|"
    "granddaughter|stepdaughter"
)
_HE = (
    "brother|father|dad|daddy|papa|husband|son|uncle|nephew|boyfriend|grandpa|grandfather|"
    "grandad|granddad|grampa|grandpop|stepdad|stepfather|stepbrother|fiance|fiancé|grandson|"
    "stepson"
)
RELATIVE_WORDS = f"{_SHE}|{_HE}"  # the words for a relative, as one alternation
# A parent or grandparent called by the word as a name ("did mum tell u", "papa's knee op")
PARENT_WORDS = "mum|mom|mam|mama|dad|papa|nan|nana|gran|granny|grandma|grandpa|grandad"
_KIN = re.compile(f"(?:{RELATIVE_WORDS}|friend|friends|kids|children|partner|cousin)s?", re.I)
_RELATIVE = re.compile(
    # "my sister", or a parent called by the word as a name ("Dad told me he's retiring")
    # ... typed in lower case too, but not another's ("did mum tell u about the doctors?", not
    # "ur mum")
    r"\b(?:my\s+|(?=(?-i:Mum|Mom|Dad|Grandma|Grandpa|Granny|Nan)\b)|(?<!your )(?<!ur )(?<!his )"
    rf"(?<!her )(?<!their )(?<!the )(?<!a )(?<!'s )(?=(?:{PARENT_WORDS})\b))"
    r"(?P<phrase>(?:(?:little|big|older|younger|baby|eldest|youngest|twin|late|ex-)\s*)?"
    rf"(?:(?P<she>{_SHE})|(?P<he>{_HE}))(?:\s+(?P<name>(?-i:[A-Z][a-z]+)))?)\b",
    re.IGNORECASE,
)
# ... after a word or two that only open the sentence ("no wait, she's allergic to cashews")
_OPENS = re.compile(
    r"^(?P<lead>\W*(?:(?:no|oh|ah|wait|sorry|actually|and|but|so|well|yeah|yes|ok|okay)\W+)*)"
    r"(?P<pronoun>she|he|his|her)\b",
    re.IGNORECASE,
)
_GENDER = {"she": "she", "her": "she", "he": "he", "his": "he"}
# A name said beside the relative (not the relative's own, not a sentence's first word) could be
# whom the pronoun means.
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
# A home named by whose it is ("a party at auntie Farida's", "staying at Tom's"): a place there,
# not one more person the "she" or "he" after it could be.
_HOME_OF = re.compile(
    r"\b(?:at|to|from|round|near|over at)\s+(?:[a-z]+\s+)?(?P<name>[A-Z][a-z]{2,})['’]s\b"
    r"(?!\s+[a-z])"
)


# A relative's person ("my daughter's teacher", "mum's friend Jan"), who may be the one meant;
# not a relative's thing ("papa's knee replacement is on the 14th, he has to be there at 7").
_THEIRS = re.compile(r"['’]s\s+(?:(?:new|old|best|little|big|\w+-\w+)\s+)?(?P<word>[A-Za-z]+)")


def _their_person(text: str, at: int) -> bool:
    """Whether a relative named ending at `at` is followed by a person of theirs."""
    m = _THEIRS.match(text, at)
    if m is None:
        return False
    word = m.group("word")
    return word[:1].isupper() or word.lower() in ROLE_WORDS or bool(_KIN.fullmatch(word))


def who_is_meant(
    sentence: str, before: Sequence[str], pronoun_of: Callable[[str], str] | None = None
) -> str:
    """The sentence with an opening "she" or "he" (or "her", "his": the relative's) put as the
    relative the speaker named in the nearest of their sentences `before` it (oldest first)
    that names one; unchanged when none, or it is not clear which. `pronoun_of` (a name's
    she, he or they): a name beside the relative counts only when it may be a person of the
    pronoun's gender (a place is "they"); without it, every name does."""
    m = _OPENS.match(sentence)
    if m is None:
        return sentence
    pronoun = m.group("pronoun").lower()
    gender = _GENDER[pronoun]
    for text in reversed(before):
        relatives = list(_RELATIVE.finditer(text))
        if not relatives:
            named = _one_named(text, gender, pronoun_of) or _one_person(text, gender, pronoun_of)
            if named is None and (role := _one_role(text)):
                # "My landlord asked me for the lease." ... "his name's Mr Okafor"
                whose = "'s" if pronoun in ("his", "her") else ""
                my = "my" if re.search(r"\w", m.group("lead")) else "My"
                return f"{m.group('lead')}{my} {role}{whose}{_unclipped(sentence[m.end() :])}"
            if named is None:
                continue
            whose = "'s" if pronoun in ("his", "her") else ""
            return f"{m.group('lead')}{named}{whose}{_unclipped(sentence[m.end() :])}"
        if any(_their_person(text, r.end()) for r in relatives):
            return sentence  # "My daughter's teacher called": she may be the teacher
        same = {r.group("phrase") for r in relatives if r.group(gender)}
        own = {r.group("name") for r in relatives if r.group("name")}
        homes = {h.group("name") for h in _HOME_OF.finditer(text)}
        others = {
            n
            for n in _NAME.findall(text)
            if n not in own | same | homes and (pronoun_of is None or pronoun_of(n) == gender)
        }
        if len(same) != 1 or others:
            return sentence
        rest = sentence[m.end() :]
        whose = "'s" if pronoun in ("his", "her") else ""  # "His name is Pedro"
        my = "my" if re.search(r"\w", m.group("lead")) else "My"
        return f"{m.group('lead')}{my} {same.pop()}{whose}{rest}"
    # no person may be meant: the one animal the nearest sentence names by its kind
    said = next((text for text in reversed(before) if _ANIMAL.search(text)), "")
    if animal := _one_animal(said, capital=not re.search(r"\w", m.group("lead"))):
        whose = "'s" if pronoun in ("his", "her") else ""
        return f"{m.group('lead')}{animal}{whose}{_unclipped(sentence[m.end() :])}"
    return sentence


# Somebody of the speaker's named with their role or kind ("my old uni roommate Jess", "my dog
# Mochi"): lowercase words between "my" and the name.
_MY_NAMED = re.compile(
    r"\b(?i:my)\s+(?P<role>(?:[a-z-]+\s+){1,3}?)(?P<name>(?-i:[A-Z][a-z]{2,}))\b"
)


# Somebody the speaker knows by their role alone ("my landlord", "my new boss"): a person,
# whatever the gender, so "he" or "she" said next may be them. Not a place or a body ("my
# bank", "my team"), nor a relative (`_RELATIVE` reads those with their gender).
_PEOPLE_ROLES = sorted(
    ROLE_WORDS - {"school", "bank", "council", "team", "family", "kids", "insurer", "supplier",
                  "vendor", "agent", "host"},
    key=len, reverse=True,
)  # fmt: skip
_MY_ROLE = re.compile(
    rf"\b(?i:my)\s+(?:(?:new|old|former|current)\s+)?(?P<role>(?i:{'|'.join(_PEOPLE_ROLES)}))\b"
    r"(?!['’]s)"
)


_CALENDAR = frozenset(WEEKDAYS + MONTHS)


def _names(text: str) -> set[str]:
    """The names `_PERSON` finds in `text`, a weekday or month aside ("by Friday", "in August"
    name nobody)."""
    found = {m.group("name") or m.group("first") for m in _PERSON.finditer(text)}
    return {n for n in found if n.lower() not in _CALENDAR}


_ANYONE = re.compile(
    rf"\b(?:{_SHE}|{_HE}|{'|'.join(_PEOPLE_ROLES)}|guy|man|woman|girl|boy|lady|person|someone|"
    r"somebody)s?\b",
    re.IGNORECASE,
)


def _one_role(text: str) -> str | None:
    """The one role of somebody the speaker's `text` names ("my landlord"), when it names
    nobody else: no name, no other person however said ("my landlord has a daughter")."""
    roles = [m.group("role").lower() for m in _MY_ROLE.finditer(text)]
    if len(roles) != 1 or _names(text) or len(_ANYONE.findall(text)) != 1:
        return None
    return roles[0]


# Participles after "'s" that say "has", not "is": no adjective's ("she's married", "tired")
_HAS_DONE = (
    "been|got|gone|taken|done|had|made|left|seen|given|begun|become|come|eaten|grown|known|"
    "started|moved|decided|booked|signed|joined|bought|sold|passed|failed|changed|stopped|"
    "finished|found|quit|upped|dropped|put|told|asked|said|sent|won"
)


def _unclipped(rest: str) -> str:
    """ "'s a vet" after a name put for "she": "is a vet" ("has been", "has got", "has taken a
    job", "has started the exercises")."""
    m = re.match(rf"['’]s\s+(?=(?P<has>{_HAS_DONE})\b)?", rest)
    if m is None:
        return rest
    return (" has " if m.group("has") else " is ") + rest[m.end() :]


def _one_named(text: str, gender: str, pronoun_of: Callable[[str], str] | None) -> str | None:
    """The one person or pet of the speaker's that `text` names with its role ("my roommate
    Jess", "my dog Mochi") and may be a `gender` pronoun's: a person whose name is not of the
    other gender (`pronoun_of`; none: any name), a pet whatever its name; None when none, or
    when another name in `text` might be meant."""
    found = list(_MY_NAMED.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    name = m.group("name")
    pet = any(word in PETS for word in m.group("role").split())
    # a name borne by men and women alike ("they") does not say otherwise
    if not pet and pronoun_of is not None and pronoun_of(name) not in (gender, "they"):
        return None
    others = {
        n
        for n in _NAME.findall(text)
        if n != name and (pronoun_of is None or pronoun_of(n) in (gender, "they"))
    }
    return None if others else name


# An animal said by its kind ("we adopted a retired racing greyhound!!", "the kitten!!"), with
# whose it is when the speaker says so.
_ANIMAL = re.compile(
    r"\b(?P<det>a|an|the|our|my)\s+(?:[a-z-]+\s+){0,3}?(?P<kind>"
    + "|".join(sorted({*PETS, *BREEDS}, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def _one_animal(text: str, capital: bool) -> str | None:
    """The one animal `text` names by its kind, when it names no one: "his name is Pickle"
    after "we adopted a retired racing greyhound" is "The greyhound's name is Pickle" ("my
    kitten": "My kitten"); None when it names a person, or more than one animal."""
    found = list(_ANIMAL.finditer(text))
    if len(found) != 1 or _PERSON.search(text) or _RELATIVE.search(text):
        return None
    det = found[0].group("det").lower()
    whose = {"our": "our", "my": "my"}.get(det, "the")
    said = f"{whose} {found[0].group('kind').lower()}"
    return said[:1].upper() + said[1:] if capital else said


def _one_person(text: str, gender: str, pronoun_of: Callable[[str], str] | None) -> str | None:
    """The one person (or pet) `text` names, when nobody else is named and the name is not of
    the other gender ("Miso's been at the bowl all day" ... "she's on amlodipine")."""
    if pronoun_of is None:
        return None
    found = _names(text)
    if len(found) != 1:
        return None
    name = found.pop()
    # a pet's name is in no table of people's names: beside an animal's kind ("is it normal
    # for a cat to drink loads of water? Miso's been at the bowl all day") its guessed pronoun
    # says nothing
    return name if pronoun_of(name) in (gender, "they") or _ANIMAL.search(text) else None


_OBJECT_GENDER = {"her": "she", "him": "he"}
_OTHER_GENDER = {"she": "he", "he": "she"}
# A person named, with the title that tells their gender when there is one.
# A sentence's first word counts when a deed, an "'s" or another name follows it ("Priyanka
# told me ...", "Anna and Maya came").
_PERSON = re.compile(
    r"(?:\b(?P<title>Mr|Mrs|Ms|Miss|Dr)\.?\s+)?(?:(?<![.!?]\s)(?<!^)\b(?P<name>[A-Z][a-z]{2,})\b"
    rf"|(?:^|(?<=[.!?]\s))(?!(?:She|They|The|This|That|There|Then|And|But|Just|Our)\b)"
    rf"(?P<first>[A-Z][a-z]{{2,}})(?=\s+{PAST_VERB}\b|['’]s\b|\s+and\s+[A-Z]))"
)
_TITLE_GENDER = {"Mr": "he", "Mrs": "she", "Ms": "she", "Miss": "she"}


def whom_it_means(
    pronoun: str, before: Sequence[str], pronoun_of: Callable[[str], str] | None = None
) -> str | None:
    """The one person "her" or "him" stands for ("I promised her I'd have cover sorted", just
    after "Priyanka told me she's pregnant"): in the nearest of the speaker's sentences
    `before` (oldest first) that names anybody, the one name not of the other gender (by its
    title, else `pronoun_of`, which may not know: "they"), or the one relative of the
    pronoun's gender when it names nobody ("my brother"), or the one somebody known by their
    role ("my landlord"); None when none or several, or for "them"."""
    gender = _OBJECT_GENDER.get(pronoun.lower())
    if gender is None:
        return None
    for text in reversed(before):
        found = [
            m
            for m in _PERSON.finditer(text)
            if (m.group("name") or m.group("first")).lower() not in _CALENDAR
        ]
        if not found:
            # "my brother's flight lands at 6, I promised I'd pick him up": the one relative
            kin = {r.group("phrase") for r in _RELATIVE.finditer(text) if r.group(gender)}
            if len(kin) == 1:
                return kin.pop()
            # "My landlord asked me for the signed renewal. I promised him ...": the one role
            if not kin and (role := _one_role(text)):
                return role
            continue
        fits = set()
        for m in found:
            title, name = m.group("title"), m.group("name") or m.group("first")
            said = _TITLE_GENDER.get(title or "") or (pronoun_of(name) if pronoun_of else "they")
            if said != _OTHER_GENDER[gender]:
                fits.add(f"{title} {name}" if title else name)
        return fits.pop() if len(fits) == 1 else None
    return None


# A yes/no question of one thing's value: "Is the delivery address still 12 Oak Lane?", "Is your
# dog a labrador?": its subject, a determiner and up to three words before the value.
_ASKED = re.compile(
    r"^\W*(?:and\s+|so\s+)?(?:is|was)\s+(?P<det>the|your)\s+(?P<what>(?:[a-z-]+\s+){0,3}?[a-z-]+)"
    r"\s+(?=(?:(?:still|now|currently|a|an|the|on|in|at)\b|\d|(?-i:[A-Z])))",
    re.IGNORECASE,
)
_IT_IS = re.compile(r"^(?P<lead>\W*)(?:it's|it’s|it is|it was)\s+", re.IGNORECASE)


def what_it_is(sentence: str, question: str) -> str:
    """The answer with its opening "it's" put as the thing the question before it asked about
    ("It's 5 Birch Road now" -> "My delivery address is 5 Birch Road now"; "your" asked is the
    answerer's "my"); unchanged when the question asks of no one thing."""
    m, asked = _IT_IS.match(sentence), _ASKED.match(question.strip())
    if m is None or asked is None:
        return sentence
    # the answer gives a value of the kind asked ("still 12 Oak Lane" / "5 Birch Road now"), not
    # a word about it ("It's closed on Mondays", "It's been a year", "It's complicated")
    kind = _kind(sentence[m.end() :])
    if not kind or kind != _kind(question.strip()[asked.end() :]):
        return sentence
    det = "My" if asked.group("det").lower() == "your" else "The"
    verb = "was" if m.group(0).lower().rstrip().endswith("was") else "is"
    return f"{m.group('lead')}{det} {asked.group('what')} {verb} {sentence[m.end() :]}"


_VALUE_START = re.compile(
    r"^(?:(?:still|now|currently)\s+)?(?:(?P<number>\d)|(?P<article>an?)\b|(?P<place>on|in|at)\b"
    r"|(?P<name>(?-i:[A-Z])))",
    re.IGNORECASE,
)


def _kind(text: str) -> str:
    """What a value opens with: a number, an article, a preposition of time or place, a name;
    "" for anything else."""
    m = _VALUE_START.match(text.strip())
    return next((k for k, v in m.groupdict().items() if v), "") if m else ""


# The subject pronoun opening an answer: "She's a border collie", "He loves it there",
# ... or after a word that only joins it on ("and he's vegetarian now").
_SUBJECT_PRONOUN = re.compile(
    r"^(?P<lead>\W*(?:(?:and|but|so|also|oh)\s+|[a-z]+,\s+)?)(?P<pronoun>she|he)(?=\s|['’]s\b)",
    re.IGNORECASE,
)
# The listener's relative a question asks about: "how's your dad doing?", "how's ur mum"; or a
# parent called by the word as a name, the two speakers' own ("how's papa holding up")
_YOUR_KIN = re.compile(
    r"(?:\b(?:your|ur|yr)\s+|(?<![\w'’])(?<!my )(?<!his )(?<!her )(?<!their )(?<!the )(?<!a )"
    rf"(?=(?:{PARENT_WORDS})\b))"
    r"(?P<phrase>(?:(?:little|big|older|younger|baby|eldest|youngest)\s+)?"
    rf"(?:(?P<she>{_SHE})|(?P<he>{_HE})))\b",
    re.IGNORECASE,
)


def who_was_asked_about(
    sentence: str,
    question: str,
    speakers: Sequence[str],
    pronoun_of: Callable[[str], str] | None = None,
    sure: bool = False,
) -> str:
    """The answer with its opening "she" or "he" put as the one name the question before it
    asked about ("How old is Pepper now?" -> "She's a border collie" -> "Pepper's a border
    collie"), or as the answerer's relative it asked about ("how's your dad doing?" ->
    "better, he's on blood thinners now" -> "better, my dad's on ..."); unchanged when the
    question names no one but the speakers, or more than one, or
    a name `pronoun_of` gives the other gender. `sure`: only a name `pronoun_of` gives that
    gender (a place or a brand is "they": "How was the trip to Lisbon?" / "She loved the
    trams" is not Lisbon)."""
    m = _SUBJECT_PRONOUN.match(sentence)
    if m is None:
        return sentence
    asked = {n for n in _NAME.findall(question) if n not in speakers}
    gender = m.group("pronoun").lower()
    kin = {k.group("phrase").lower() for k in _YOUR_KIN.finditer(question) if k.group(gender)}
    if not asked and len(kin) == 1:
        # "how's your dad doing?" / "better, he's on blood thinners now": the answerer's dad
        return f"{m.group('lead')}my {kin.pop()}{sentence[m.end() :]}"
    if len(asked) != 1:
        return sentence
    name = asked.pop()
    said = pronoun_of(name) if pronoun_of is not None else "they"
    if said == _OTHER_GENDER[gender] or (sure and said != gender):
        return sentence
    return f"{m.group('lead')}{name}{sentence[m.end() :]}"
