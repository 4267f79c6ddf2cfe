"""First person rewritten into third person, so an extracted fact stands on its own.

"I wish I had more time" said by Caroline -> "Caroline wishes she had more time"; "It's like
therapy for me, letting me express myself" said by Melanie -> "It's like therapy for Melanie,
letting her express herself". The speaker's name comes once per sentence, pronouns after it
(she, he or they, as the extractor judged from the name), and a present-tense verb after the
new subject agrees with it ("I wish" -> "Caroline wishes", "I don't" -> "she doesn't").
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import RELATIONS
from memory_pipelines.core.past_tense import NOT_PAST
from memory_pipelines.core.third_person_words import (
    ADVERB_LY,
    ADVERBS,
    ASKING,
    ASKING_AGREES,
    CONTRACTED,
    COORDINATED,
    INFINITIVES,
    MASS,
    NEW_CLAUSE,
    NO_VERBS,
    PARTICIPLES,
    PAST,
    PLURAL,
    PUBLIC,
    third_singular,
)

PRONOUNS = {
    # subject, object, possessive, possessive pronoun, reflexive
    "she": ("she", "her", "her", "hers", "herself"),
    "he": ("he", "him", "his", "his", "himself"),
    "they": ("they", "them", "their", "theirs", "themself"),
}
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|[^A-Za-z]+")


# "we" and its forms: the speaker and the people they were with ("We made it to the top" ->
# "Ana and others made it to the top"; "our family" -> "Ana's family"), "they" once named.
_WE = {"we": "", "we're": "are", "we've": "have", "we'll": "will", "we'd": "would"}
_US = frozenset(["us", "our", "ours", "ourselves"])


def _group(
    low: str,
    speaker: str,
    named: bool,
    forms: tuple[str, ...],
    had: bool = False,
    said: bool = False,
) -> str:
    """A form of "we" in third person (see _WE); `had`: its "'d" is "had" (see _had). Once the
    speaker is named, the group is them and others ("she and others", "her community"), never
    a bare "they" that points at nobody; `said`: the group was named so in the sentence, so
    "our" is theirs ("lets him and others get their emotions out")."""
    subj, obj, poss, poss_pron, _ = forms
    alone = subj == "they" or said  # no pronoun of their own to put with others
    if low in _WE:
        who = ("they" if alone else f"{subj} and others") if named else f"{speaker} and others"
        return f"{who} {'had' if had else _WE[low]}".rstrip()
    if low in ("our", "ours"):
        if said:  # the group's, whether or not the speaker was named ("us all": everyone's)
            return "their" if low == "our" else "theirs"
        return (poss if low == "our" else poss_pron) if named else f"{speaker}'s"
    if low == "ourselves":
        return "themselves" if named else f"{speaker} and others"
    return ("them" if alone else f"{obj} and others") if named else f"{speaker} and others"


def third_person(text: str, speaker: str, pronoun: str = "they", group: bool = False) -> str:
    """Text with the speaker's first-person words in third person. Sentences stay as they are
    otherwise; with no speaker the text is returned unchanged. `group`: "we", "us" and "our"
    are the speaker's too (a person's own words; the assistant's "we" is it and the user)."""
    if not speaker:
        return text
    forms = PRONOUNS.get(pronoun, PRONOUNS["they"])
    subj, obj, poss, poss_pron, refl = forms
    text = _ANOTHER_AND_I.sub(_me_first, text)
    out: list[str] = []
    plural = False  # the new subject is "they"
    named = False  # the name said once per sentence, pronouns after it
    agree_next = False  # the word after a new singular subject is its verb
    agreed = False  # a verb of the speaker's agreed in this sentence: one after "and" does too
    infinitive = False  # "to" and a verb after it: a verb after "and" is one more infinitive
    drop_space = False  # the word before was left out ("our education" -> "education")
    tokens = _TOKEN.findall(text)
    ahead = _before_the_speaker(tokens)
    quoted = False  # inside quotation marks: somebody's words as said, left as they are
    grouped = False  # "we" or "us" said in this sentence (as "she and others")
    drop_all = False  # the "all" of "us all", said as "everyone"
    for k, tok in enumerate(tokens):
        low = tok.lower().replace("’", "'")
        if re.fullmatch(r"[^A-Za-z]+", tok):
            if drop_space and tok == " ":
                drop_space = False
                continue
            out.append(tok)
            quoted ^= (tok.count('"') + tok.count("“") + tok.count("”")) % 2 == 1
            if re.search(r"[.!?]", tok):
                named = grouped = agreed = infinitive = False
            continue
        if quoted:
            out.append(tok)
            continue
        if drop_all:  # said as "everyone" with the "us" before it
            drop_all = False
            if out and out[-1] == " ":
                out.pop()
            continue
        if agree_next:
            if low in ADVERBS or ADVERB_LY.fullmatch(low):
                out.append(tok)
                continue
            agree_next = False
            if tok[:1].islower() and low not in NO_VERBS:
                if tokens[k + 1 : k + 2] == ["-"] and tokens[k + 2 : k + 3][:1] != [" "]:
                    out.append(tok)  # "color-code": the compound agrees at its end
                    agree_next = True
                    continue
                said = PLURAL.get(low, tok) if plural else third_singular(tok)
                out.append(said)
                agreed = said != tok  # not after a modal or a past: "can be ... and take"
                continue
        if low in NEW_CLAUSE:
            agreed = False  # "loves how they can fly and explore": their verbs, not the speaker's
        if low == "to" and agreed and _next_word(tokens, k) in INFINITIVES:
            infinitive = True  # "wants to go and see it": the verb after "and" is "see" too
        if low == "and" and agreed and not infinitive and _next_word(tokens, k) in COORDINATED:
            out.append(tok)  # "John stays positive and finds a way", not "and find"
            agree_next = True
            continue
        if low == "i" or low in CONTRACTED:
            who = subj if named else speaker
            if low in CONTRACTED:
                one, many = CONTRACTED[low]
                if low == "i'd" and _had(tokens[k + 1 :]):
                    one = many = "had"
                out.append(f"{who} {many if who == 'they' else one}")
            elif _asking(tokens, k):
                # "should I look" -> "should Saoirse look"; "do I need" -> "does she need"
                if who != "they" and (helper := ASKING_AGREES.get(out[-2].lower())):
                    out[-2] = helper.capitalize() if out[-2][:1].isupper() else helper
                out.append(who)
                plural = who == "they"
            else:
                out.append(who)
                # "Caroline wishes", "they were"; not "Buddy and Andrew have": a subject of two,
                # whose "our" is theirs ("Max and John had a blast on their camping trip")
                two = _with_another(tokens[:k]) or _and_mine(tokens, k)
                # "... Jon and I both have": two, whatever opens the clause
                two = two or (_named_and(tokens, k) and _next_word(tokens, k) == "both")
                agree_next, grouped = not two, grouped or two
                plural = who == "they"
            named = True
        elif low in ("me", "my", "mine", "myself"):
            if low == "myself":  # "readying myself", "true to myself": the speaker's own self
                out.append(refl)
            elif low == "me" and tokens[k + 1 : k + 2] == ["-"]:
                out.append(tok)  # "me-time" is a word of its own
                continue
            elif low == "me" and _previous_word(tokens, k) in ("be", "being"):
                # "I can be me": the speaker's own self, as "be myself" (named first if not yet)
                out.append(refl if named else speaker)
            elif k in ahead:  # "After losing my job, I ...": "her job", named after it
                out.append(poss if low == "my" else poss_pron)
                continue
            elif low == "me":
                out.append(obj if named else speaker)
            elif low == "my":
                out.append(poss if named else f"{speaker}'s")
            else:
                out.append(poss_pron if named else f"{speaker}'s")
            named = True
        elif group and (low in _WE or low in _US) and tok != "US":
            within = _previous_word(tokens, k) in ("within", "in", "among", "inside", "for")
            if low == "us" and tokens[k + 1 : k + 3] == [" ", "all"] and within:
                out.append("everyone")  # "within us all": everybody's, not theirs
                drop_all = grouped = True  # ... and "our potential" after it is theirs
                continue
            had = low == "we'd" and _had(tokens[k + 1 :])
            if low == "our" and (public := _next_word(tokens, k)) in PUBLIC:  # everyone's
                if public not in MASS:
                    out.append("the" if tok.islower() else "The")
                else:
                    drop_space = True  # "the state of education"
                continue
            out.append(_group(low, speaker, named, forms, had, grouped and low in _US))
            grouped = grouped or low in _WE or low == "us"
            named = True
        else:
            out.append(tok)
    return _capitalise_sentences("".join(out))


# "My sister and I": the speaker first, so the name opens the subject ("Lena and her sister",
# not "Lena's sister and she"); the verb after the two stays plural.
# Only a person or a pet of the speaker's makes a subject of two ("My knee hurts and I can't run"
# is two clauses): a relation word (judge_lexicon.RELATIONS, plural too), perhaps an adjective
# before it and a name after it.
_GROUPS = ("team", "family", "crew", "band")
_RELATION = "|".join(
    sorted((re.escape(w) + "s?" for w in {*RELATIONS, *_GROUPS}), key=len, reverse=True)
)
_ANOTHER_AND_I = re.compile(
    rf"\b(?P<my>[Mm]y)\s+(?P<who>(?:[a-z-]+\s+)?(?:{_RELATION})(?:\s+[A-Z][a-z]+)?)"
    r"\s+and\s+I\b(?!['’])"
)


def _me_first(m: re.Match[str]) -> str:
    """ "my sister and I" as "I and my sister" where it opens its clause (a few words with no
    "I" before it: "Yesterday my husband and I went"); as it was elsewhere ("I love my dog and
    I walk him")."""
    before = re.split(r"[.!?;:,]", m.string[: m.start()])[-1].split()
    if len(before) > 2 or any(w.lower() in ("i", "me", "my") for w in before):
        return m.group(0)
    return f"I and my {m.group('who')}"


def _asking(tokens: list[str], k: int) -> bool:
    """Whether the "I" of tokens[k] comes right after a helping verb that asks ("should I
    look"): the verb after it stays bare."""
    return k >= 2 and tokens[k - 1] == " " and tokens[k - 2].lower().replace("’", "'") in ASKING


def _previous_word(tokens: list[str], k: int) -> str:
    """The word before tokens[k], lower-cased ("" when none)."""
    return next((t.lower() for t in reversed(tokens[:k]) if re.fullmatch(r"[A-Za-z']+", t)), "")


_LEADS_IN = frozenset([
    "after", "before", "when", "while", "since", "because", "although", "though", "if", "once",
    "as", "with", "without", "despite", "for", "from", "during", "until", "unless", "even",
    "thanks", "given", "like",
])  # fmt: skip


def _before_the_speaker(tokens: list[str]) -> set[int]:
    """The indexes of "my" and "mine" in a phrase that opens a sentence and ends at the comma
    its "I" comes right after ("After losing my job, I wanted ..."): said as "her", so
    the name goes with the "I" ("After losing her job, Gina wanted"), not "After losing Gina's
    job, she". An "I" further on is in a clause of its own ("For me, being my own boss and doing
    something I love"), and the phrase keeps the name; so does a "me" ("As for me, I've been
    volunteering" -> "As for Maria, she has been ...")."""
    out: set[int] = set()
    mine: list[int] = []
    comma = done = False
    first = True  # the next word opens a sentence
    for k, tok in enumerate(tokens):
        low = tok.lower().replace("’", "'")
        if re.search(r"[.!?]", tok) and not re.search(r"[A-Za-z]", tok):
            mine, comma, done, first = [], False, False, True  # a new sentence
        elif done or not tok.strip():
            continue
        elif first and re.fullmatch(r"[A-Za-z']+", tok):
            first = False
            # the phrase opens with a preposition, a subordinator or a gerund ("After losing
            # my job, I"), not with a clause of its own ("My sister got married, I was ...")
            done = low not in _LEADS_IN and not low.endswith("ing")
        elif "," in tok and not re.search(r"[A-Za-z]", tok):
            comma = True
        elif low in ("my", "mine"):
            mine.append(k)
            comma = False
        elif low == "i" or low in CONTRACTED:
            if comma:
                out.update(mine)
            done = True
        else:
            comma = False  # a word between the comma and the "I"
    return out


def _named_and(tokens: list[str], k: int) -> bool:
    """Whether the "I" of tokens[k] comes after a name and "and" ("Jon and I")."""
    words = [t for t in tokens[:k] if re.fullmatch(r"[A-Za-z']+", t)]
    return len(words) >= 2 and words[-1].lower() == "and" and words[-2][:1].isupper()


def _next_word(tokens: list[str], k: int) -> str:
    """The next word after tokens[k], lower-cased ("" when none)."""
    return next((t.lower() for t in tokens[k + 1 :] if re.fullmatch(r"[A-Za-z']+", t)), "")


def _and_mine(tokens: list[str], k: int) -> bool:
    """Whether the "I" of tokens[k] opens a subject of two: "I and my sister" (_me_first)."""
    words = [t.lower() for t in tokens[k + 1 : k + 6] if re.fullmatch(r"[A-Za-z']+", t)]
    return words[:2] == ["and", "my"]


def _with_another(before: list[str]) -> bool:
    """Whether an "I" after these tokens is one of two who make a subject ("My sister and I
    went"): "and" just before it, and its clause opened by a few words with no "I" in them
    (not "I have a dog and I love him")."""
    said = "".join(before)
    clause = re.split(r"[.!?;:,]", said)[-1].split()
    if len(clause) < 2 or clause[-1].lower() != "and":
        return False
    head = [w.lower() for w in clause[:-1]]
    return len(head) <= 3 and "i" not in head


def _had(after: list[str]) -> bool:
    """Whether the "'d" before these tokens is "had": a past participle follows ("I'd started
    saving", "I'd never been"), perhaps after an adverb; else it is "would" ("I'd love to")."""
    for tok in after:
        low = tok.lower()
        if re.fullmatch(r"[^A-Za-z]+", tok):
            if tok.strip():
                return False  # a comma or a full stop first: no verb of its own
            continue
        if low in ADVERBS or ADVERB_LY.fullmatch(low) or low in ("never", "not", "just"):
            continue
        past = low in PAST or low in PARTICIPLES
        return past or (low.endswith("ed") and low not in NOT_PAST)
    return False


def _capitalise_sentences(text: str) -> str:
    """A pronoun that opens a sentence ("she has ...") takes a capital."""
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
