"""The word lists and word handling of the dedup judge: general English only.

Stop words, relation and pet words (they say who an item is about), months and weekdays, number
words, common verbs with their inflections, and a light stemmer. Never names or nouns taken from
particular test cases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache


def wordlist(text: str) -> tuple[str, ...]:
    """A whitespace-separated word list, kept as one readable block in the source."""
    return tuple(text.split())


STOPWORDS = frozenset(
    wordlist(
        """
        a an the and or but if of to in on at by for with from into onto about as than then so
        is are was were be been being am has have had do does did will would can could should
        shall may might must it its it's this that these those there here their they them he
        she his her him hers we our us you your i me my mine who whom which what when where why
        how all any some each every both either neither more most much many very just also too
        only own same such not no nor up down out over under again once per via etc vs user
        user's s t one ones get gets got getting still really usually mostly mainly
        """
    )
)


def _aliases(text: str) -> dict[str, str]:
    """'mother=mum,mom' lines -> {'mother': 'mother', 'mum': 'mother', 'mom': 'mother'}."""
    out: dict[str, str] = {}
    for entry in text.split():
        key, _, rest = entry.partition("=")
        out[key] = key
        out.update({alias: key for alias in rest.split(",") if alias})
    return out


# Family, social and pet words: they say *who* an item is about, so they are subject words.
RELATIONS = _aliases(
    """
    mother=mum,mom,mam father=dad sister brother sibling son daughter child=kid,kids,children
    baby parents=parent partner=boyfriend,girlfriend,spouse wife husband
    fiance=fiancé,fiancée,fiancee ex ex-husband ex-wife ex-partner cousin aunt uncle niece nephew
    grandmother=grandma,gran,nan,granny,nana grandfather=grandpa,grandad,granddad
    grandparents=grandparent grandchild=grandchildren,grandkid,grandkids granddaughter grandson
    stepson
    stepdaughter stepmother stepfather friend colleague=coworker,co-worker boss
    neighbour=neighbor flatmate=roommate,housemate godson goddaughter
    """
) | (
    PETS := _aliases(
        """
        dog=puppy cat=kitten hamster tortoise turtle rabbit=bunny parrot budgie horse=pony
        guinea-pig ferret gecko snake
        """
    )
)
# Kinds of dog and cat a pet is called by ("we adopted a greyhound"): who a pronoun may stand
# for (core/referents), not subject words of the judge (a breed beside "dog" is no new pet).
BREEDS = wordlist(
    """greyhound whippet lurcher labrador retriever spaniel terrier beagle collie poodle husky
    dachshund pug corgi bulldog rottweiler chihuahua schnauzer dalmatian cockapoo labradoodle
    cavapoo pup kitty tabby"""
)
RELATION_KEYS = frozenset(RELATIONS.values())
# Words for a group of relatives and who is in it: "Parents" are "Mum and Dad".
RELATION_GROUPS = {
    "parents": frozenset(("mother", "father")),
    "child": frozenset(("son", "daughter", "baby")),
    "sibling": frozenset(("brother", "sister")),
    "grandparents": frozenset(("grandmother", "grandfather")),
    "grandchild": frozenset(("grandson", "granddaughter")),
}
# "Mother-in-law" is a different person from "mother": in-law compounds stay whole.
IN_LAW = re.compile(r"^(\w+)-in-law$")

MONTH_NAMES = wordlist(
    "january february march april may june july august september october november december"
)
MONTHS = {m: m[:3] for m in MONTH_NAMES} | {m[:3]: m[:3] for m in MONTH_NAMES} | {"sept": "sep"}
WEEKDAYS = {d: d[:3] for d in wordlist("monday tuesday wednesday thursday friday saturday sunday")}
DAY_SETS = {"weekday": ("mon", "tue", "wed", "thu", "fri"), "weekend": ("sat", "sun")}
# The parts of a day a habit or a wish is set in: one changed is a value changed.
PARTS_OF_DAY = frozenset(wordlist("morning afternoon evening lunchtime"))
NUMBER_WORDS = {
    **{w: n for n, w in enumerate(wordlist("one two three four five six seven eight nine"), 1)},
    "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "hundred": 100, "once": 1, "twice": 2, "a dozen": 12, "half": 0.5,
}  # fmt: skip
# The month names as one regex alternation, longest first (so "june" wins over "jun").
MONTH_RX = "|".join(sorted(MONTHS, key=len, reverse=True))

AUX = frozenset(
    wordlist(
        """
        is are was were be been am has have had does did do will would can could should may
        might must isn't aren't wasn't weren't doesn't don't didn't won't can't cannot hasn't
        haven't wouldn't shouldn't couldn't
        """
    )
)
# Common verbs of personal notes; their inflections are generated below.
_BASE_VERBS = wordlist(
    """
    live work use own play take keep prefer like love hate dislike want need move switch join turn
    leave stop drop quit cancel start run grow go get become say agree promise owe pay put buy
    sell tear break marry engage pass fail die adopt book settle stay date do study learn train
    save bake cook eat drink read sing write rent spend teach lead cover sit travel fly visit
    call ring send share meet feel find think try report enrol enroll diagnose tend avoid host
    order shoot edit print raise cut increase decrease reduce slip push postpone delay renew
    hire fire retire graduate finish complete open close launch sign wear give make let check
    set test backfill log appear seem plan lean consider hope look follow practise practice
    attend swim walk cycle drive commute lift manage volunteer mentor coach help ride knit paint
    draw climb hike ski surf brew collect fix build design code develop organise organize
    support hold carry bring sleep wake jog row dance clean mind care feed lease smoke meditate
    journal track invest donate lend borrow earn charge ship deliver stock serve review tutor
    head chair sail skate bike rely struggle suffer handle choose pick select decide opt accept
    reject decline receive upgrade downgrade subscribe unsubscribe apply win lose rescue divorce
    register replace install uninstall deploy migrate listen tell ask enjoy begin fall catch know
    change
    """
)
IRREGULAR = frozenset(
    wordlist(
        """
        went gone got gotten became said paid put bought sold tore torn broke broken took taken
        left ran grew grown flew flown sat met felt found thought read wrote written led spent
        taught made gave given kept let set cut quit ate eaten drank drunk sang sung chose chosen
        won lost sent lent built drove driven rang rung held brought caught knew known told began
        begun fell fallen learnt saw seen heard wore worn hid fought slept swam threw thrown
        rode ridden stood understood woke woken forgot forgotten meant fed stole
        froze frozen dug hung
        """
    )
)


def _inflections(base: str) -> set[str]:
    """Regular verb forms: play/plays/played/playing, stop/stopped, move/moved/moving."""
    forms = {base, base + "es" if base.endswith(("s", "sh", "ch", "x", "o")) else base + "s"}
    if base.endswith("y") and base[-2] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    elif base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    else:
        # stop -> stopped: a short word ending consonant-vowel-consonant doubles its last letter
        double = (
            len(base) <= 4
            and base[-1] not in "aeiouwxy"
            and base[-2] in "aeiou"
            and base[-3:-2] not in ("a", "e", "i", "o", "u")
        )
        stemmed = base + base[-1] if double else base
        forms |= {stemmed + "ed", stemmed + "ing"}
    if base.endswith("l"):  # British spelling: cancelled, travelling
        forms |= {base + "led", base + "ling"}
    return forms


SENTENCE_VERBS = frozenset(
    {form for base in _BASE_VERBS for form in _inflections(base)}
    | IRREGULAR
    # Openers that behave like a verb: the item is about the user ("Never leave ...").
    | set(wordlist("doesn't don't won't can't never always no not into back would will"))
)
DETERMINERS = frozenset(wordlist("a an the their his her my our its this that these those"))
PREPOSITIONS = frozenset(wordlist("at for with on in from to of about by near into under over"))
# Words that end a subject ("and" does not: "Jake and the user have been friends").
CLAUSE_BREAKS = frozenset(
    wordlist("when while if because so but that who which where since until after before")
)
# Openers that say nothing about the subject: "Now lives in ...", "Previously worked at ...".
LEADING_ADVERBS = frozenset(
    wordlist(
        """
        now recently currently finally still also just already actually apparently probably
        usually often sometimes again previously formerly originally lately later soon
        eventually normally generally typically
        """
    )
)

# A plural's possessive keeps its apostrophe ("Parents' anniversary": `bare` takes it off).
WORD_RX = re.compile(
    r"[A-Za-zÀ-ÿ][\wÀ-ÿ'’-]*s['’](?=\s)"
    r"|[A-Za-zÀ-ÿ0-9£€$%+][\wÀ-ÿ'’+.&/%-]*[\wÀ-ÿ+%]|[A-Za-zÀ-ÿ0-9]"
)
# (suffix, replacement, letters that must remain)
_SUFFIXES = (
    ("ies", "y", 2), ("ied", "y", 2), ("ying", "y", 2), ("ing", "", 3), ("ed", "", 3),
    ("es", "", 2), ("s", "", 3),
)  # fmt: skip


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stripper: enough to match lives/live/living or classes/class."""
    w = word.lower().strip("'’.")
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    if not w.isalpha() or len(w) < 3:
        return w
    for suffix, replacement, keep in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= keep and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + replacement
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":  # stopped -> stopp -> stop
        w = w[:-1]
    if len(w) >= 3 and w.endswith("e"):  # live/lives/living all end as "liv"
        w = w[:-1]
    return w


# Verbs too general to make two items one fact ("likes jazz" vs "likes classical music").
LIGHT_VERBS = frozenset(
    stem(w)
    for w in wordlist(
        """
        like love enjoy prefer hate dislike use own play eat drink watch read listen want need
        work live go take buy wear speak learn study drive have doesn't don't won't can't never
        """
    )
)


def words(text: str) -> list[str]:
    """Surface tokens in order, punctuation dropped; hyphenated words kept whole."""
    return WORD_RX.findall(text)


def bare(tok: str) -> str:
    """tok without its possessive: "'s", or a plural's apostrophe ("parents'")."""
    if tok.endswith(("s'", "s’")):
        return tok[:-1]
    return tok[:-2] if tok.endswith(("'s", "’s")) else tok


_JOINERS = re.compile(r"[-/]")
_DIGIT = re.compile(r"\d")


def content_stems(tokens: Iterable[str]) -> frozenset[str]:
    """Stems of the words that carry meaning; a number glued to a unit is split off."""
    out: set[str] = set()
    for tok in tokens:
        low = bare(tok.lower())
        if low in STOPWORDS:
            continue
        parts = _JOINERS.split(low) if _DIGIT.search(low) else [low]
        for part in parts:
            if part and part not in STOPWORDS:
                out.add(RELATIONS.get(part, stem(part)))
    return frozenset(out)
