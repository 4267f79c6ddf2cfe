"""The form of a chat sentence, before it is judged: what is no part of what it says taken
off (its opener: "Yeah, I painted it" -> "I painted it"; a clause about the telling, a label,
the listener's name, a picture's frame). Its dropped subject put back is
core/sentence_subject.py; whether it only tells a mood is core/moods.py. Pure Python.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import wordlist
from memory_pipelines.core.past_tense import PAST_VERB

_INTERJECTION = (
    # "yes please, ..." answering an offer
    r"(?:yes|yeah|yep|sure|ok(?:ay)?) please|no,? thanks|no,? thank you|"
    r"yes|yeah|yep|yup|no|nope|oh|ooh|ah|aw+|well|sure|ok(?:ay)?|right|hmm+|um+|actually|wow|"
    r"hey|hi|hello|thanks|thank you|totally|definitely|absolutely|agreed|true|haha|lol|cool|"
    r"awesome|great|nice|indeed|exactly|of course|sorry|woah|whoa|yay|omg|i see|"
    # a request taken: "Got it, I'll book the table", "Noted, ...", "Will do, ..."
    r"got it|noted|will do|understood|gotcha|"
    # reassurance before what will be done: "Don't worry, I'll sort out the refund"
    r"don't worry|no worries|not to worry|"
    # how it is said: "To be frank, I never liked ...", "Seriously though, I'm moving ..."
    r"to be (?:frank|honest)|to tell (?:you )?the truth|seriously(?: though)?|honestly|frankly|"
    r"for what it's worth|funnily enough|funny enough|in any case|on another note|"
    r"that being said|having said that|in the meantime|meanwhile|besides that|apart from that|"
    r"on a different note|speaking of which|anyways|o{3,}|"
    # what only orders or turns the telling: "Best of all, my kids ...", "As for me, I've ..."
    r"best of all|most of all|above all|first of all|first off|as for me|"
    # said to flag what follows as worth knowing: "Just so you know, I moved to Leeds" (its
    # "you" is no word to the listener)
    r"just so you know|for the record|for your information|"
    # a heading: "Quick update: the GP switched me ...", "Heads up: ..."
    r"(?:(?:quick|small|big|little|short|brief|good|bad) )?(?:update|news|heads[- ]up|fyi)|"
    # "One important thing: she's allergic to bee stings", "Oh and one more thing: ..."
    r"(?:(?:one|another|the)(?: (?:more|last|other|important|quick|small|big|key))* thing|"
    r"(?:(?:quick|small|important|side) )?note|important"
    # "quick one - my landlord emailed ...": a heading before what is told
    r"|(?:a )?quick (?:one|q|question))(?= *[:–—-])"
)
# An opener: interjections, perhaps with the listener's name ("Yeah, Gina!", "Hey Jon,"), news
# announced ("Guess what, ..."), and linking words ("Oh, and BTW, ..."). An interjection needs
# its punctuation ("No more gluten" keeps its "No").
_OPENER = re.compile(
    rf"^\W*(?:(?:(?:{_INTERJECTION})(?:\s+(?-i:[A-Z][a-z]+))?\s*[,!.;:-]+|and\b|but\b|also\b,?"
    # "So I went home", not "So far ..." or "So much has happened"
    r"|so\b(?!\s+(?:far|much|many|long|few|little)\b)"
    # "ok so I'm Nadia": a word of assent run into "so", without a comma
    r"|(?:ok(?:ay)?|right|well|alright|yeah|hey|hi|hiya)\s+"
    r"(?=so\b(?!\s+(?:far|much|many|long|few|little)\b))"
    r"|plus\b|btw\b,?|by the way\b,?|anyway\b,?|oh\b"
    # typed without a comma before a first person: "ok ok I'll send it", "ugh I promised", or
    # a run of them with one: "haha yes yes, I'll upload them tonight"
    r"|(?:(?:ok(?:ay)?|yes|yeah|yep|yup|no|nope|sure|oh|ah|hmm+|um+|lol|haha|omg|wow|ugh|hey|hi"
    r"|just so you know|fyi|btw|no worries|no problem"
    r"|argh|meh)(?:\s+|\s*,\s*(?=(?-i:I|I'\w+|We|we)\b)))+(?=(?-i:I|I'\w+|We|we)\b"
    r"|i'(?:m|ve|ll|d)\b)"  # "hey i'm epileptic", typed lower case
    # a sigh run into the news of somebody named: "ugh Felix left" (not "hey Felix", called)
    r"|(?:ugh|argh|omg|meh|lol|haha|wow)\s+(?=(?-i:[A-Z][a-z]+\s+[a-z]))"
    # ... or into any news: "ugh payday's friday, I'll pay u back then", "omg the train ..."
    r"|(?:ugh+|argh+|meh|omg|ffs|smh)\s+(?=[a-z])"
    # a heading typed without its colon: "heads up the gas smell came back"
    r"|(?:heads[- ]up|fyi)\s+(?=(?:the|my|our|his|her|their|i|we)\b)"
    # news announced to the listener, perhaps by name: "Gina, you won't believe it - I got ..."
    r"|(?:(?-i:[A-Z][a-z]+),\s*)?(?:guess what|you won't believe (?:it|this)|you know what|"
    r"you'll never guess)\s*[,!.;:–—-]+)\s*)+",
    re.IGNORECASE,
)


# fmt: off
# fmt: on
def without_own_name(sentence: str, speaker: str) -> str:
    """ "I'm Tom, a nurse in Leeds" -> "I'm a nurse in Leeds": the speaker naming themselves
    before saying what they are (in the third person it had read "Tom is Tom, a nurse")."""
    if not speaker:
        return sentence
    return re.sub(
        rf"\b(I'm|I’m|I am)\s+{re.escape(speaker)}\s*,\s*(?=\w)", r"\1 ", sentence, count=1
    )


def is_interjection(word: str) -> bool:
    """Whether a word opens a sentence as an interjection ("Sure", "Honestly", "Noted"): no
    name of anybody called."""
    return bool(re.fullmatch(_INTERJECTION, word, re.IGNORECASE))


def without_opener(sentence: str) -> str:
    """The sentence without its opener ("Yeah, I painted it" -> "I painted it")."""
    rest = _OPENER.sub("", sentence, count=1).strip().lstrip(",;:-—– ")
    return rest[:1].upper() + rest[1:] if rest else ""


# A clause about the telling, not the told: "..., I don't think I told you", "forgot to say,
# ...", "just so you know", "..., got it". Its words are all of telling, knowing and the
# talk's small words; a clause with anything else in it says something of its own ("as I
# said" says the statement is told again, which the save policy reads).
_TELLING_WORDS = frozenset(
    wordlist(
        """i i'm i've i'd you we it this that so just to the a by way before already ever yet
    never not don't didn't do did think guess suppose probably maybe might have has had
    forgot forget remember mention mentioned mentioning tell told telling say said saying
    know knew let me wanted want meant mean note noted got okay ok right btw fyi anyway
    also oh well actually"""
    )
)
_TELLS = frozenset(
    wordlist(
        """forgot forget remember mention mentioned tell told say said know knew got noted btw
    fyi"""
    )
)
_ASKING = frozenset(
    wordlist(
        """is are am was were do does did can could will would should shall has have had may
        might must what who whom whose where when why how which isn't aren't don't doesn't
        didn't can't won't"""
    )
)
_ASIDE_SPLIT = re.compile(r"\s*(?:[,;:](?=\s)|\s[-–—]\s)\s*")


def _telling(clause: str) -> bool:
    said = [w.strip(".!?").lower().replace("’", "'") for w in clause.split()]
    said = [w for w in said if w]
    # a verb of telling in it: "I think" alone is a belief, which hedges the rest
    return bool(_TELLS & set(said)) and all(w in _TELLING_WORDS for w in said)


def without_telling(sentence: str, role: str = "user") -> str:
    """The sentence without an opening or closing clause about the telling itself ("Maya's
    teacher is Mr. Osei, I don't think I told you" -> "Maya's teacher is Mr. Osei."), when
    what is left has a few words of its own; the rest is left as written. The assistant's
    sentences are left whole: its "Got it: ..." is an echo, which the save policy reads."""
    if role.lower() == "assistant":
        return sentence
    text = sentence.strip()
    end = text[-1:] if text[-1:] in (".", "!", "?") else ""
    body = text.rstrip(".!?")
    seps = list(_ASIDE_SPLIT.finditer(body))
    first, last = 0, len(body)
    while seps and _telling(body[seps[-1].end() : last]):
        last = seps.pop().start()
    while seps and _telling(body[first : seps[0].start()]):
        first = seps.pop(0).end()
    kept = body[first:last]
    if (first, last) == (0, len(body)) or len(kept.split()) < 3:
        return sentence
    # "..., did I tell you?": the question was the aside's, unless what is left asks too
    # ("Is he allergic to penicillin, do you know?")
    asks = kept.split()[0].lower() in _ASKING
    mark = end if end and (last == len(body) or asks) else "."
    return kept[:1].upper() + kept[1:] + mark


# A label that files what follows ("Note to self: ...", "Reminder: ...", "PS: ...", "FYI ..."):
# it decides the sentence's kind (a note to self is a save reason), and is no part of the
# fact a memory keeps. "Correction:" stays: it says the value replaces another.
_LABEL = re.compile(
    r"^\W*(?:(?:note to self|reminder|p\.?s\.?|nb|n\.b\.)\s*[:,–—-]+|fyi\b[:,–—-]*)\s*",
    re.IGNORECASE,
)


# What follows a label when it is a statement with its subject: "the spare key is ...", "my
# dentist appointment is ...", "I'm allergic ...". "Renew the car insurance" is an instruction
# the label says whose it is, and keeps it.
SUBJECT_FIRST = re.compile(
    r"(?:the|a|an|my|our|his|her|their|its|this|that|these|those|i|i'm|i've|i'll|i'd|we|we're|"
    r"he|he's|she|she's|they|they're|it|it's|there|there's)\b",
    re.IGNORECASE,
)


def without_label(sentence: str) -> str:
    """The sentence as a memory keeps it: without a label that only files it ("Note to self:
    the spare key is under the blue pot" -> "The spare key is under the blue pot"), when what
    follows is a statement with its subject."""
    return _statement_after(sentence, _LABEL.match(sentence))


def _statement_after(sentence: str, m: re.Match[str] | None) -> str:
    """The sentence from the end of `m` on, capitalised, when a statement with its subject
    follows there; else the sentence as it is."""
    if m is None or not SUBJECT_FIRST.match(sentence, m.end()):
        return sentence
    rest = sentence[m.end() :]
    return rest[:1].upper() + rest[1:]


# "Between us: ...", "Off the record, ...": what follows is told in confidence. Read word by
# word ("between us" -> "between Tom and others") it says the opposite.
_CONFIDING = re.compile(
    r"^\W*(?:just\s+)?(?:between (?:us|you and me|ourselves|the two of us)|off the record"
    r"|in confidence|confidentially|(?:please\s+)?don't tell anyone(?: but)?)\s*[:,;.!–—-]*\s*",
    re.IGNORECASE,
)


def in_confidence(sentence: str) -> tuple[str, bool]:
    """The sentence without an opener that confides it, and whether it had one ("Between us:
    I have a job interview on Friday" -> ("I have a job interview on Friday", True)), when a
    statement with its subject follows."""
    kept = _statement_after(sentence, _CONFIDING.match(sentence))
    return kept, kept != sentence


def without_vocative(sentence: str, listener: str) -> str:
    """The sentence without the name of the one it is said to, when a statement with its
    subject follows ("Tom, I'll pick up the kids on Friday", said to Tom -> "I'll pick up the
    kids on Friday"): the memory says whom it is owed to apart."""
    if not listener:
        return sentence
    # ... or called at its end: "I'll have the slides to you tomorrow, Raj."
    called = re.search(rf",\s*{re.escape(listener)}(?P<end>\s*[.!?]*)\s*$", sentence)
    if called and len(sentence[: called.start()].split()) >= 3:
        sentence = sentence[: called.start()] + called.group("end").strip()
    # ... set off by a comma, or said straight before "I" in a chat ("Lu I promise I'll call")
    called_first = re.match(
        rf"\W*{re.escape(listener)}(?:\s*,\s*|\s+(?=(?i:i|i'll|i'm|i've|i'd|we|we'll)\b))", sentence
    )
    return _statement_after(sentence, called_first)


# A picture in the chat said to come from something the speaker did: "That pic's from when my crew
# won a comp", "That picture was from a trip we took last year", "that pic was from a show I
# went to". The memory will not have the picture; what it comes from is the fact.
_PICTURE_FROM = re.compile(
    r"^(?:that|this|the) (?:pic|picture|photo|snap|shot)(?:'s| is| was) from (?P<when>when )?"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_SUBJECT = r"(?:i|we|my \w+|our \w+)"
# "a trip we took last year": the thing, then who did what with it (its preposition perhaps
# left at the end: "a show I went to").
_DONE_WITH = re.compile(
    rf"^(?P<np>(?:a|an|the|my|our|this|that) (?:[\w'-]+ ){{0,2}}?[\w'-]+) (?P<subj>{_SUBJECT}) "
    rf"(?P<verb>{PAST_VERB})(?P<prep> (?:to|at|on|in|with|for|into))?(?P<tail>(?:\W.*)?)$",
    re.IGNORECASE,
)


def without_picture_frame(sentence: str) -> str:
    """What a picture shown in the chat comes from, said as the speaker's statement: "That pic's
    from when my dance crew took home first" -> "My dance crew took home first"; "that pic was
    from a show I went to" -> "I went to a show". Anything else is left alone ("This pic's from
    last night" says nothing done)."""
    m = _PICTURE_FROM.match(sentence.strip())
    if m is None:
        return sentence
    rest = m.group("rest")
    if m.group("when") or re.match(rf"{_SUBJECT}\s", rest, re.IGNORECASE):
        said = rest
    else:
        done = _DONE_WITH.match(rest)
        if done is None:
            return sentence
        prep = done.group("prep") or ""
        said = f"{done.group('subj')} {done.group('verb')}{prep} {done.group('np')}"
        said += done.group("tail")
    return said[:1].upper() + said[1:]


# A question tagged on after a comma, about what the head just said: it points back to it
# ("..., does that sound ok?", "..., is it worth it?") or asks for a view or advice on it
# ("..., any tips?", "..., thoughts?", "..., what should I bring?"). Not a request ("..., can
# you ask facilities?") nor a question of its own ("..., what do they mean by 'current
# medications'?"): those leave the sentence a question.
_COMMA_TAG = re.compile(
    r"^(?P<head>.+?),\s+(?P<tag>(?:(?:does|do|did|is|was|would|will|could|can|should)\s+"
    r"(?:that|it|this|these|those)\b|any\s+(?:tips|ideas|thoughts|advice|suggestions|"
    r"recommendations|pointers)\b|(?:thoughts|ideas|advice|right|ok|okay|yeah|no)\W*$|"
    r"what\s+(?:should|do|can)\s+(?:i|we)\s+\w+|how\s+(?:does|do|would)\s+(?:that|it|this)\b|"
    r"what\s+do\s+you\s+(?:think|reckon)\b)[^,]*)\?+\W*$",
    re.IGNORECASE,
)
# A head that asks itself ("Can you check, is it safe?") or is only a clause of time,
# condition or reason ("Before we go through your options, are you allergic to ...?") is no
# statement.
_ASKS = re.compile(
    r"^\W*(?:do|does|did|is|are|was|were|can|could|should|would|will|shall|may|might|what|how|"
    r"why|when|where|who|which|any|before|after|if|once|while|since|because|until|unless|as)\b",
    re.IGNORECASE,
)
# A question that only frames what it tells: "did you know she flew cargo planes for 30
# years??" tells that she did.
_DID_YOU_KNOW = re.compile(
    r"(?:^\W*|,\s*)(?:(?:and|oh|btw)\W+)?(?:did|do)\s+(?:you|u|ya)\s+know\s+(?:that\s+)?"
    r"(?!(?:where|what|who|whom|whose|how|when|why|which|if|whether)\b)(?=.*\?\W*$)",
    re.IGNORECASE,
)
# An exclamation tagged on, asked or not: "married with two kids now, can you believe it"
_EXCLAIMED_TAG = re.compile(
    r"^(?P<head>.+?),\s+(?:(?:can|could|would) you (?:believe|imagine) (?:it|that|this)|"
    r"you know|i know|go figure|who knew|imagine that|crazy right)\W*$",
    re.IGNORECASE,
)
_TAG_WORDS = 7
_HEAD_WORDS = 4


def without_tag_question(sentence: str) -> str:
    """A statement with a question tagged on, without it: "I finished another pottery project -
    want to see a pic?" -> "I finished another pottery project."; "plumber quoted 640 to fix the
    boiler, does that sound ok?" -> "plumber quoted 640 to fix the boiler." (the fact told to
    ask about it was lost with the question); "did you know she flew cargo planes?" -> "She
    flew cargo planes."."""
    if known := _DID_YOU_KNOW.search(sentence):  # "did you know she flew cargo planes?"
        told = sentence[known.end() :].rstrip(" ?!")
        if len(told.split()) < 3:
            return sentence
        head = sentence[: known.start()].rstrip(" ,")
        said = f"{head}; {told}" if head else told
        return said[:1].upper() + said[1:] + "."
    m = re.match(r"^(?P<head>.+?)\s+[-–—]\s+[^-–—]*\?$", sentence)
    if m is None:
        m = _EXCLAIMED_TAG.match(sentence)
        if m is not None and len(m.group("head").split()) < _HEAD_WORDS:
            return sentence
    if m is None:
        m = _COMMA_TAG.match(sentence)
        if m is None or len(m.group("tag").split()) > _TAG_WORDS:
            return sentence
        head = m.group("head")
        if len(head.split()) < _HEAD_WORDS or _ASKS.match(head):
            return sentence
    return m.group("head").rstrip(" ,;") + "."
