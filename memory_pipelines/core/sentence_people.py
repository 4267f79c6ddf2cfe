"""Who a chat sentence is about and whom it speaks to: the speaker or a name it tells of
(`names_somebody`), the listener it addresses ("you", their name set off by a comma) or only
mentions ("the book you recommended": `listener_named`), and whether it could be a memory on its
own (`stands_alone`: not a reaction, a cheer or a word to the listener). Used by
core/extract_parts.py. Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_pipelines.core import sentence_kinds
from memory_pipelines.core.concrete import life_event
from memory_pipelines.core.judge_lexicon import IRREGULAR, SENTENCE_VERBS, wordlist
from memory_pipelines.core.past_tense import PAST_VERB
from memory_pipelines.core.referents import PARENT_WORDS
from memory_pipelines.core.sentence_forms import without_opener
from memory_pipelines.core.sentence_subject import with_subject

CAPITALISED = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")
# fmt: off
NOT_ENTITIES = frozenset([
    "I", "The", "A", "An", "And", "But", "So", "Oh", "Hey", "Hi", "Yes", "No", "Yeah", "Wow",
    "Thanks", "Thank", "That", "This", "It", "What", "When", "Where", "How", "Why", "Who",
    "Which", "We", "You", "He", "She", "They", "My", "Our", "Your", "Just", "Well", "Okay", "Ok",
    "Sure", "Also", "Really", "Great", "Good", "Nice", "Awesome", "Cool", "Sounds",
])
# fmt: on

# Cheering the listener on, or both: "Let's keep going!", "We'll get through this!".
_CHEER = re.compile(
    r"^\W*(?:let's|let us)\b|^\W*we(?:'ll| will) (?:get|make it|pull) through\b", re.I
)
# Small talk aimed at the listener ("Your kids look so happy!", "Sorry that happened to you")
# or about the conversation itself says nothing durable about anybody.
_LISTENER = re.compile(r"\b(?:you|your|you're|you've|yours|yourself|y'all)\b", re.IGNORECASE)
SPEAKER = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b", re.IGNORECASE
)
_REACTION = re.compile(
    r"^\W*(?:wow|aw+|oh|ooh|haha|lol|yay|omg|that's|that is|sounds|so glad|glad|sorry|congrats|"
    r"congratulations|good luck|thanks|thank you|love (?:that|it|this)|what a|how|"
    r"that (?:really |truly )?means)\b",
    re.IGNORECASE,
)


# "you" inside a relative clause only mentions the listener: "the book you recommended".
_YOU_MENTIONED = re.compile(
    rf"\b(?:the|that|this|those|these)\s+(?:[\w-]+\s+){{1,3}}you\s+{PAST_VERB}\b|"
    r"\bwhat you (?:said|suggested|told me|recommended|mentioned|showed me)\b",
    re.I,
)


# "You" said to more than one: "I'll remind you both", "see you all on Friday".
_ALL_OF_YOU = re.compile(
    r"\b(?:you both|both of you|you two|you all|all of you|you guys|y'all)\b", re.IGNORECASE
)


def all_of_you(sentence: str, listeners: Sequence[str]) -> tuple[str, str | None]:
    """The sentence with "you both" ("you all", "both of you" ...) named, when it is said to two
    or more people, and their names ("I'll remind you both", said to Tom and Maya -> ("I'll
    remind Tom and Maya", "Tom and Maya")). Read word by word it was "remind Tom both"."""
    if len(listeners) < 2 or not _ALL_OF_YOU.search(sentence):
        return sentence, None
    names = ", ".join(listeners[:-1]) + " and " + listeners[-1]
    return _ALL_OF_YOU.sub(names, sentence), names


def listener_named(sentence: str, listener: str) -> str:
    """The sentence with the listener it only mentions named: "the camera you recommended" ->
    "the camera Jon recommended" (read later, "you" would be nobody)."""
    return _YOU_MENTIONED.sub(lambda m: re.sub(r"\byou\b", listener, m.group(0)), sentence)


def names_person(text: str, person: str) -> bool:
    """Whether the text says the person's name (any case, possessive too)."""
    return re.search(rf"\b{re.escape(person)}\b", text, re.IGNORECASE) is not None


_LABEL = re.compile(r"[A-Z][\w']*(?: [\w']+){0,3}: ")


def attributed(text: str, speaker: str) -> str:
    """An item a named person said that names them nowhere, led by their name: "The invoicing
    tool rejects names with an apostrophe", said by Zainab, is "Zainab: The invoicing tool
    rejects ...". Among several people's records a fact that does not say whose it is reads as
    anyone's; the name keeps it the speaker's, and a search for them finds it by the name."""
    if not speaker.strip() or re.search(rf"(?<!\w){re.escape(speaker.strip())}(?!\w)", text):
        return text
    if _LABEL.match(text):  # "Note to self: renew ...": labelled already, once is enough
        return text
    return f"{speaker.strip()}: {text[:1].upper()}{text[1:]}"


# "you" in a clause of condition or time ("if you drop one", "whenever you call her") is anyone;
# not with the speaker in it ("if you need me": the listener)
_ANYONE = re.compile(
    r"\b(?:if|when|whenever|unless|once|until|before)\s+you\b[^,.;!?]*", re.IGNORECASE
)
# somebody of the speaker's, or by name: "my landlord", "our neighbour", "Mr. Okonjo"
_THEIRS = re.compile(r"\b(?:my|our)\s+[a-z]+|(?<!^)\b(?:Mr|Mrs|Ms|Dr)\b\.?\s+[A-Z]")


def addresses(sentence: str, listener: str) -> bool:
    """Whether a sentence speaks to the listener: "you", or their name set off by a comma
    ("Glad I could help, Jon!", "Mel, that's great"; not "We moved to Austin, Texas")."""
    said = _YOU_MENTIONED.sub(" ", sentence)
    if _THEIRS.search(said):
        # "my landlord is Mr. Okonjo-Baptiste, he gets touchy if you drop one": about
        # somebody of theirs, with a "you" that is anyone who might
        said = _ANYONE.sub(lambda m: m.group(0) if _ME.search(m.group(0)) else " ", said)
    if _LISTENER.search(said):
        return True
    # the listener's name, or a short form of it ("Mel" for Melanie), set off by a comma
    called = re.search(r",\s*([A-Z][a-z]{2,})\W*$", sentence) or re.match(
        r"^\W*(?:\w+,\s*)?([A-Z][a-z]{2,})\s*,", sentence
    )
    return bool(called and listener[:3] == called.group(1)[:3])


_ME = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself)\b", re.IGNORECASE)
# "We" doing something: its verb, past ("We went", "we all donated", "We've got a pup"), right
# after it. A participle elsewhere ("It helps us stay connected", "reaching our goals keeps us
# motivated") is no event of theirs.
_HAPPENED = re.compile(
    r"\bwe(?:'ve| have| had)?\s+(?:(?:all|just|even|finally|both|also|recently|already|"
    r"then|actually|really)\s+)?(?:was|were|had|did|went|got|made|took|saw|met|\w+ed)\b"
    r"(?<!\bneed)|"
    # ... or a change of theirs under way: "we're switching the venue to the barn"
    r"\bwe(?:'re|’re| are)\s+(?:(?:finally|now|also|actually)\s+)?(?:switching|moving|changing|"
    r"selling|buying|renovating|adopting|relocating|downsizing|cancelling|canceling|postponing|"
    r"replacing|converting|expecting|separating|divorcing|emigrating)\b",
    re.IGNORECASE,
)


_CONCRETE = re.compile(r"\d|\b[A-Z][A-Za-z]+\b")
# "Our import fails on ...", "Our landlord is ...": the speaker's own thing as the subject. Not
# "reaching our goals keeps us going" (no subject of theirs) or "our time together" (the two
# talking, a mood).
# ... or a thing in their place ("The main gas shutoff in our house is behind the washer").
_OURS = re.compile(
    r"^\W*(?:the\s+(?:[\w-]+\s+){1,4}(?:in|at|of|on)\s+)?"
    r"our\s+(?!own\b|time\b|talks?\b|chats?\b|friendship\b)\w+",
    re.I,
)


# A parent called by the word as a name, opening the sentence ("papa's knee op is on the 14th",
# "Mum's started walking every morning"): the speaker's
_PARENT_FIRST = re.compile(
    rf"^\W*(?:{PARENT_WORDS})"
    r"(?:['’]s|\s+(?:is|was|has|had|says|said|got|went|started|just))\b",
    re.I,
)


def names_somebody(sentence: str) -> bool:
    """The speaker (first person) or a name after the first word: who the fact is about. A
    "we" alone is people in general or the two talking ("We make a great team", "It helps us
    grow") unless it tells what happened ("We went to the beach") or names something ("We
    meet at Dino's on Fridays")."""
    if _ME.search(sentence) or _OURS.match(sentence) or _PARENT_FIRST.match(sentence):
        return True
    if SPEAKER.search(sentence) and (
        _HAPPENED.search(sentence) or _CONCRETE.search(sentence, len(sentence.split()[0]))
    ):
        return True
    if _NAME_FIRST.match(sentence):
        return True
    return any(
        m.group(1).split()[0] not in NOT_ENTITIES
        for m in CAPITALISED.finditer(sentence, len(sentence.split()[0]))
    )


# A name opening a sentence with its "'s" and a verb ("Niamh's upped her share", "Jamal's
# leaving"): not a word that names no one, nor a thing's "'s" ("Pottery's so relaxing").
_NAME_FIRST = re.compile(
    r"^\W*(?!(?i:there|here|let|everything|nothing|something|anything|everyone|everybody|"
    r"someone|somebody|nobody|today|tomorrow|tonight|yesterday|life|work|time|it|that|this|"
    r"what|who|where|when|how|he|she)['’]s\b)[A-Z][a-z]+['’]s\s+"
    r"(?:\w+ed|\w+ing|got|been|gone|left|had|made|done|found|lost|won)\b",
)


# A name opening a sentence as the subject of its verb ("Leo takes 5ml of cetirizine",
# "Biscuit needs a rabies jab", "Maya's teacher is Mr. Osei", "Leo dropped chess"): a verb of
# one person, said or done, right after it (an adverb between), no article before it, no
# gerund ("Painting helps"), and not a word that names no one ("Everything is ...", "We").
# Told to the assistant, such a sentence is about the person named; between two people a
# capitalised opener is as often a thing in general ("Kindness is key", "Movies can be so
# powerful": 18 of the 24 such sentences LoCoMo's dev chats held), so there it is not read.
_NAME_THEN_VERB = re.compile(
    r"^\W*(?P<name>[A-Z][a-z]+)(?:['’]s\s+[a-z]+)?\s+"
    r"(?:(?:also|still|now|just|only|always|never|usually|often|finally|recently)\s+)?"
    r"(?P<verb>[a-z]+?n't|[a-z]+)\b"  # "doesn't" whole, not "doesn"
)
_FINITE = frozenset(
    wordlist("is was has had does did can will won't doesn't isn't wasn't hasn't can't didn't")
)
_NAMES_NO_ONE = frozenset(
    wordlist(
        """there here let everything nothing something anything everyone everybody someone
    somebody nobody today tomorrow tonight yesterday life work time it that this what who
    where when how he she we they you i one each family love art music nature lots really"""
    )
)


def name_then_verb(sentence: str) -> bool:
    """Whether a sentence opens with a name as the subject of its verb (`_NAME_THEN_VERB`)."""
    m = _NAME_THEN_VERB.match(sentence)
    if m is None:
        return False
    name, verb = m["name"], m["verb"]
    if name in NOT_ENTITIES or name.lower() in _NAMES_NO_ONE or name.endswith("ing"):
        return False
    finite = verb in _FINITE or verb.endswith(("s", "ed")) or verb in IRREGULAR
    return finite and (verb in SENTENCE_VERBS or verb in _FINITE)


def about_somebody(clause: str) -> bool:
    """Whether a clause names somebody, its dropped subject put back."""
    return names_somebody(with_subject(without_opener(clause)))


# What the speaker is, however short: "I'm a bridesmaid", "I'm an electrician".
# Not how they feel: "I'm a mess", "I'm a wreck".
WHAT_I_AM = re.compile(
    r"^\W*(?:i'm|i am)\s+(?:a|an)\s+(?!(?:mess|wreck|fan|bit|lot)\b)[\w-]+\W*$", re.IGNORECASE
)


_I_AM = re.compile(r"^\W*(?:i'm|i am)\s", re.IGNORECASE)
# "I hate cilantro", "We love sushi": the speaker, a verb and a thing named (not "I love it");
# or another by name or pronoun ("she hates mushrooms", "Ruth adores figs").
_I_DO = re.compile(
    r"^\W*(?:i|we|he|she|(?-i:[A-Z][a-z]+))\s+[a-z]+\s+(?!(?:it|that|this|them|those|these|you|him|her|one|so|too|"
    r"much|more|lots|everything|everyone|all)\b)[a-z][\w-]*\W*$",
    re.IGNORECASE,
)


# Three words that tell what was done to whom: "We fired Mike.", "I met Anna."
_DID_TO_SOMEBODY = re.compile(
    r"^\W*(?i:i|we|he|she|they)\s+(?i:\w+ed|met|saw|told|called|left|lost|beat|hired)\s+"
    r"[A-Z][a-z]+\W*$"
)


def stands_alone(
    sentence: str, strong: bool, kind: str = "", listener: str = "", to_assistant: bool = False
) -> bool:
    """Whether a sentence could be a memory on its own: not a bare image caption, not a
    reaction, long enough to say something, and (unless it carries an explicit save reason)
    about somebody: "It was so vibrant" or "Cherish the moments" say nothing durable. Said
    `to_assistant`, a preference may speak to it: how it is to do something for the speaker
    ("whenever you draft emails for me: no bullet points")."""
    words = sentence.split()
    if sentence.lstrip().startswith("[image:"):
        return False
    short_ok = (
        WHAT_I_AM.match(sentence)
        or (strong and (_I_AM.match(sentence) or _I_DO.match(sentence)))
        or _DID_TO_SOMEBODY.match(sentence)
        or life_event(sentence)  # "I got fired", "Rita fired me", "Mum passed away"
        or (strong and kind == "commitment")  # "I'll bring it": a pledge, however short
    )
    if len(words) < 4 and not short_ok:
        # short, unless what the speaker is or a save reason said whole ("I'm vegetarian",
        # "I hate cilantro": preferences)
        return False
    if _REACTION.search(sentence):
        return False
    told_how = to_assistant and kind == "stable_preference"
    if (
        addresses(sentence, listener)
        and not told_how
        and (
            kind not in ("commitment", "decision_with_why", "hard_lesson")
            or not names_somebody(sentence)
        )
    ):
        # Said to the listener ("I'm always here for you", "you've got this"): about the
        # conversation between them; a promise or a decision to the listener stays.
        return False
    if _CHEER.search(sentence):
        return False
    # a life changed is somebody's ("Mum passed away", "We broke up": the speaker and theirs)
    return strong or names_somebody(sentence) or life_event(sentence)


# A time or a place alone, no clause of its own: "On the 3rd of April.", "In Lisbon, near work."
_FRAGMENT = re.compile(
    r"^\W*(?:on|in|at|by|from|since|until|till|around|after|before|next|last|every)\b"
    r"(?![^.!?]*\b(?:i|i'm|i've|we|we're|he|she|they|you|it's|is|was|are|were|will)\b)",
    re.IGNORECASE,
)


# A clause of time or reason with no main clause after it: what it answers is its main clause.
# Its own subject is the word after the opener; another subject later starts the main clause
# ("Since March I've been vegetarian", "Before I started I was nervous").
_CLAUSE_ONLY = re.compile(
    r"^\W*(?:ever since|since|until|till|after|before|when|because|'cause)\s+\S+"
    r"(?![^,;:\u2013\u2014]*\b(?:i|i'm|i've|i'd|we|we're|we've|he|she|they|it|it's)\b)"
    r"[^,;:\u2013\u2014]*$",
    re.IGNORECASE,
)


def answer_fragment(sentence: str) -> bool:
    """Whether a sentence is only a time or a place (short, no clause of its own) or a clause of
    time or reason alone ("Since I was 17 or so."): what it means is the question it answers."""
    if len(sentence.split()) <= 6 and _FRAGMENT.match(sentence):
        return True
    return len(sentence.split()) <= 8 and bool(_CLAUSE_ONLY.match(sentence))


def may_be_pointed_to(raw: str, sentence: str, role: str, listener: str) -> bool:
    """Whether a statement of the turn may be what a sentence after it points back to: not
    thanks or agreement ("Thanks, Caroline!" would leave "Caroline; it was Matt"), not a
    reaction, cheer or word to the listener ("You should try it" is no thing "it" stands for),
    not an answer's bare time ("Since I was 17 or so.")."""
    return (
        len(sentence.split()) >= 3
        and not answer_fragment(sentence)  # its own "it" is in the question it answers
        and sentence_kinds.sentence_kind(raw, role) not in ("ack", "greeting", "meta")
        and not _REACTION.search(sentence)
        and not _CHEER.search(sentence)
        and not addresses(sentence, listener)
    )


# A statement, not a question typed without its mark or a mood let out: no question word,
# "any", negation, interjection or pronoun first ("any ideas for rainy days with two kids",
# "ugh this traffic is unreal", "not just wikipedia rabbit holes at 2am")
_ASKS_OR_VENTS = re.compile(
    r"^\W*(?:any|anyone|anybody|anything|what|how|when|where|why|which|who|whose|should|shall"
    r"|not|no|just|ugh|argh|ok|okay|lol|haha|omg|wow|hmm+|meh|so|well|also|and|but|or|if|maybe"
    # ... nor a pronoun, which stands for what was said before: "They're 7 and 9" is an answer
    r"|he|she|they|it|this|that|these|those|he's|she's|they're|it's|that's|its)\b",
    re.IGNORECASE,
)


def own_thing(sentence: str) -> bool:
    """Whether a sentence told to the assistant with no owner is a statement of the speaker's
    own things: not a question (with or without its mark) nor a mood let out ("car insurance
    renews 12th of next month w admiral, £640")."""
    said = sentence.rstrip()
    return not (said.endswith("?") or _ASKS_OR_VENTS.match(said) or _ASKS_AFTER.search(said))


# ... nor a question after a statement ("his knee is killing him though, what can he take")
_ASKS_AFTER = re.compile(
    r"[,;:]\s*(?:so\s+)?(?:what|how|where|when|why|which|who)\s+(?:can|could|do|does|did|should"
    r"|would|is|are|will)\b",
    re.IGNORECASE,
)
