"""Change cues of the dedup judge: which words report a change of a stored value ("no longer",
"moved", "pushed to"), the old value a change names ("from X", "stopped X"), the slot it names
("a new manager"), and the verbs a negation denies. How an item holds its claim (a plan, a
hedge, an exception, a condition, an addition, a choice) is `judge_modes`; the small slot
frames ("lives in" = residence) are in `judge_frames`. General English, never topic words.
"""

from __future__ import annotations

import re

from memory_pipelines.core.judge_lexicon import (
    DETERMINERS,
    MONTH_NAMES,
    PREPOSITIONS,
    SENTENCE_VERBS,
    WEEKDAYS,
    stem,
    words,
)
from memory_pipelines.core.judge_modes import CONDITION

_MONTH_ALT = "|".join(MONTH_NAMES)
_WEEKDAY_ALT = "|".join(WEEKDAYS)
# Being off a thing named with a determiner ("I'm off the amlodipine", not "off the hook"), and
# an instruction to stop doing something ("Stop using British spellings"): shared by the
# "stopped" cue and the old value it names (OLD_VALUE).
_OFF_THE = (
    r"\b(?:i'm|i am|he's|she's|they're|we're|is|are|been)\s+off\s+(?:the|my|his|her|their)\s+"
    r"(?!(?:hook|charts?|grid|table|record|top|wall|rails)\b)"
)
_STOP_DOING = r"^\W*(?:please\s+|pls\s+)?stop\s+(?:\w+ing|with\s+the)"
# Cues that the candidate reports a change of a stored value (supersede). Weak ones ("now",
# "new", "started") often ride along with a fact that did not change; judge.py knows which.
_CHANGE_CUES: tuple[tuple[str, str], ...] = (
    # "Doesn't eat berries any more", "isn't taking the statin any more": a negation that
    # reaches "any more" reports a habit ended. ("Won't fly economy any more" sets a rule for
    # what is to come, which the store may already hold.)
    (
        "no longer",
        r"\bno longer\b|(?:\bnot|(?<!\bwo)n't)\b[^,;.]{0,40}?\bany ?more\b|\banymore\b",
    ),
    (
        "stopped",
        r"\b(stopped|quit|quitting|gave up|given up|dropped|ditched|abandoned)\b"
        # ... or withdrawn from: "Withdrew from the OU course", "pulled out of the marathon"
        r"|\b(?:withdrew|withdrawn|withdrawing|pulled out|dropped out)\b"
        # a medicine or habit left: "I'm off the amlodipine now" (not "off the hook")
        rf"|{_OFF_THE}\w+"
        # an instruction ended: "Stop using British spellings", "please stop adding emojis"
        rf"|{_STOP_DOING}\b"
        # "Came off sertraline", "let the membership lapse", "unsubscribed from", "opted out of",
        # "done with dorms": a habit, a medicine or a membership ended, said without "stopped".
        r"|\b(?:came|come|coming|weaned) off\b|\blapsed\b|\blet\b[^,;.]{0,40}\blapse\b"
        r"|\bunsubscribed\b|\bopted out\b|\b(?:done|finished) with\b",
    ),
    # ... or said to be off ("the Japan trip is off; ..."), not a person off work or off a food
    # ("Leo is off nuts"): "off" ends the clause
    (
        "cancelled",
        r"\b(cancell?ed|called off|scrapped|cancell?ing)\b"
        r"|\b(?:is|are|'s|was|were)\s+(?:now\s+|all\s+)?off\b"
        # ... for a while said after it ("Iceland's off this year, ...")
        r"(?:\s+(?:this|next|for this) (?:year|month|summer|winter|spring|autumn|time))?"
        r"(?=\s*(?:[,;.!]|$))",
    ),
    ("moved", r"\b(moved|relocated|moving)\b"),
    # "Upgraded the phone plan to unlimited data": another value of the same thing. What
    # changed someone's life, outlook or game moved no value of theirs ("really changed his
    # perspective on his goals").
    (
        "switched",
        # not a participle naming a thing ("show only the changed lines", "a replaced part")
        r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bany )(?<!\bevery )(?<!\bonly )"
        r"\b(switched|switching|changed|swapped|replaced|migrated|upgraded|downgraded)\b"
        r"(?! on\b| off\b)"
        r"(?! (?:[\w-]+['’]s |the |my |his |her |their |our |your |so much |a lot )?"
        r"(?:life|lives|perspective|outlook|views?|world|game|mindset|attitude|everything"
        r"|things)\b)",
    ),
    # "fails instead of blocking writes" describes a mechanism, not a changed choice.
    ("instead", r"\binstead\b(?! of \w+ing\b)"),
    ("after all", r"\bafter all\b|\bchanged (my|their|his|her) mind\b|\breversed\b"),
    # "Staying on one release a week", "sticking with Postgres": a planned change given up.
    # ("Staying at the Hilton" is a stay, not a decision.)
    ("kept", r"\bstaying on\b|\bsticking (with|to)\b"),
    # not "for now" (until something changes), "just now" (a moment ago) or "right now" (at
    # this moment: "has got about £4k saved right now" tells a value, not that one moved)
    ("now", r"(?<!\bfor )(?<!\bjust )(?<!\bright )\bnow\b|\bthese days\b|\bnowadays\b"),
    ("new", r"\bnew\b(?! york| zealand)"),  # narrowed further by _new_value_cue()
    # A value said wrong and put right: "Correction: the offsite is Wednesday the 15th",
    # "I had the date wrong, it's the 15th" (the "X, not Y" form is read by core/corrections).
    (
        "corrected",
        r"^\W*(?:correction|typo|my mistake)\b"
        r"|\b(?:had|got) (?:it|that|this|the \w+) (?:all )?wrong\b",
    ),
    (
        "left",
        r"^left\b|\bleft (the|a|an|their|his|her)\b|\bhas left\b|\bstepped down\b"
        # a place or employer left, by name ("Jasmine left Boots", "Prof Hale left for
        # Oxford"), not a thing left for somebody ("left Tom a note")
        r"|\bleft (?:for )?(?-i:[A-Z])[\w'’&-]*(?: (?-i:[A-Z])[\w'’&-]*)*\b"
        r"(?! (?:a|an|the|some|his|her|my|their|our|your|me|him|them|us|with)\b)"
        r"|\bresigned\b|\bhanded (in )?(my|their|his|her) notice\b"
        # "Sunday was my last night at the houseshare"
        r"|\b(?:my|his|her|their|our) last (?:day|night|shift|week) (?:at|in)\b",
    ),
    # "ended up with some great sponsors": how something turned out, not an end
    ("ended", r"\bbroke up\b|\bsplit up\b|\bdivorced\b|\bseparated\b|\bended\b(?! up\b)|\bsold\b"),
    # ... or a pet or person lost, by name ("Owen lost Biscuit last week"; not "lost Tom's
    # number")
    (
        "died",
        r"\b(died|passed away|put down|was put to sleep|rehomed)\b"
        # "had her old cat Dumpling put to sleep": one has a pet put to sleep, never a child
        # ("put Ava down at 7", "put Noah to sleep") or oneself ("be put to sleep for the op")
        r"|\b(?:had|have|has|having) (?:[\w'’-]+ ){1,4}put (?:to sleep|down)\b"
        r"|\b(?:lost|buried) (?-i:[A-Z])[\w-]*\b(?!['’]s\b)",
    ),
    (
        "status",
        r"^married\b|\bgot (married|engaged|divorced)\b|\bnow married\b|\bpassed\b"
        # "Ana married Luís in June" (the wedding, not "is married to")
        r"|(?<!\bis )(?<!\bare )(?<!\bbeen )(?<!'s )(?<!\bget )(?<!\bgetting )(?<!\bbe )"
        r"\bmarried (?!to\b|with\b|for\b)"
        r"|\bgraduated\b|\bretired\b"
        r"|\bfinished\b|\bcompleted\b|\bgave birth\b|\bpromoted\b|\bdemoted\b"
        r"|\bpaid off\b|\bwent live\b"
        # "The migration is done." (not "... until the block is done keeps ...")
        r"|\b(is|are|was|were|all) (done|over|complete|live)\b(?=\s*(?:[.,;:!]|$|now\b))",
    ),
    # The outcome of what was awaited: "the application came through", "the loan was
    # approved", "got the contract signed" ("signed up for" starts something). Weak: it
    # settles what awaits an outcome (judge_modality.plan_settled), and only names a change of
    # another item with its old value or slot ("Caroline is accepted, loved and supported"
    # replaced a LoCoMo item when it was a status cue).
    (
        "outcome",
        # ... and a place won: "got into Edinburgh" (not "got into running"), "got a place at"
        r"\bcame through\b|\bgot into (?-i:[A-Z])|\bgot a place\b"
        r"|\b(?:was|were|got|been|get|gets) (?:\w+ )?(?:granted|approved"
        r"|accepted|rejected|refused|declined|signed(?! up\b))\b",
    ),
    ("started", r"\b(started|began|begun|starting)\b"),
    # A state come about: "went vegan", "has gone teetotal", "turned vegetarian", "became a
    # manager": a person's state of belief, diet or work taken up, read by how such words end
    # (-an, -ian, -ist, -ic, -tal, -free; in lower case: "went Dutch" is no state) or named
    # (freelance, sober, keto), not a going
    # somewhere, a doing or a thing spoiled ("went to Leeds", "went well", "the milk went sour",
    # "turned it down", "turned 40"), nor a state for a while ("went vegan for Lent").
    (
        "became",
        r"\bbecame\b|\b(?:has|have|had)(?: now)? become\b|['’](?:s|ve) become\b"
        r"|\b(?:went|gone|turned) (?-i:(?:semi-|fully |full )?(?:[a-z]+(?:an|ian|ist|ic|tal)"
        r"|[a-z]+-free|freelance|self-employed|sober|keto|plant-based))\b(?![\w-])"
        r"(?!\s+(?:for|until|till|during|over)\b)(?<!\bmental)",
    ),
    # "Daughter Nora was born on 21 May": a birth date, which never changes afterwards; only an
    # expectation ("due in May") is what a birth settles, so the cue is weak.
    ("born", r"\b(?:was|were) born\b"),
    (
        "number moved",
        r"\b(grew|grown|risen|raised|lowered|increased|decreased|reduced|dropped|fell|fallen|cut"
        r"|go up|went up|goes up|going up|gone up|go down|went down|goes down|going down"
        r"|gone down|bumped)\b"
        # "the rent rose to £1,500", not a Rose ("their kids, alfie (5) and rose (2)")
        r"|\b(?-i:rose)(?=\s+(?:to|by|from|again|sharply|steadily|slightly|a little|a bit)\b"
        r"|\s+[£$€\d])"
        # "Rent is up to £1,500", "Down to six hens": a level reached ("matches up to 6%" is a
        # cap, no change).
        r"|\b(is|are|was|now|been|be) (up|down) to\b|^(up|down) to\b"
        # "since the price rise", "after my pay rise": a number moved, named as a noun
        r"|\b(?:price|pay|rent|fee|fare|tax|rate|salary) (?:rise|hike|increase|cut|drop)s?\b"
        # "two hens left after a fox took one": a count of what remains
        # (not the time left: "six months left" on a passport)
        r"|\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|only)"
        r" (?!(?:minute|hour|day|week|month|year)s?\b)[a-z]+s? left\b",
    ),
    (
        "date moved",
        r"\b(postponed|delayed|slipped|brought forward|moved up|rescheduled|deferred|extended)\b"
        # "Pushed back a week", "push the proposal to 19 June": a push moves a date only back,
        # out or to a time ("push notifications", "pushed him to keep going" move none).
        r"|\bpush(es|ed|ing)?\b(?: [\w'-]+){0,4}? (back|out)\b"
        rf"|\bpush(es|ed|ing)?\b(?: [\w'-]+){{0,4}}? (to|till|until|into) (the )?(\d|next\b"
        rf"|later\b|early\b|mid\b|late\b|end\b|{_MONTH_ALT}|{_WEEKDAY_ALT})"
        # "Moved to 30 June", "changed to Thursdays": a move to a time is a date's, not a home's
        rf"|\b(moved|changed|shifted)( back| forward| up)? (to|till|until|into) (the )?"
        rf"(\d{{1,2}}(st|nd|rd|th)? ({_MONTH_ALT})|\d{{1,2}}[:.]\d\d|\d{{1,2}} ?[ap]m\b"
        rf"|(19|20)\d\d\b|next (week|month|year|{_WEEKDAY_ALT})|({_MONTH_ALT}|{_WEEKDAY_ALT})s?\b)",
    ),
    # "Remortgaged at 3.6%", "came to £610 at renewal": a deal made again on new terms; a
    # value of its kind (a rate, a price) moved, as with "number moved".
    (
        "renewed",
        r"\b(?:remortgaged|refinanced|renegotiated|renewed|re-signed)\b|\bat (?:the )?renewal\b",
    ),
    # "Back in Leeds", "back to running"; not a thing handed back ("send the form back to him"),
    # nor a trip back to a named place ("going back to Enugu for Christmas": a visit, and the
    # place is still where it was; "moved back to Valencia" is a move), nor a result
    (
        "back",
        r"^(?!.*\b(send|sent|give|gave|pay|paid|bring|brought|hand|handed|get|got|call|called"
        r"|ring|rang|write|wrote|post|posted|text|texted|e?mail|e?mailed)\b"
        r"(\s+[\w'’-]+){0,5}\s+back\b)"
        r"(?!.*\b(go|goes|going|gone|went|fly|flies|flying|flew|head|heads|heading|headed"
        r"|travel\w*|visit\w*)\s+back\s+(to|in)\s+(?-i:[A-Z]))"
        # ... nor a result come back ("the HbA1c came back at 48", "came back as benign"), nor
        # the talk come back to its topic ("Back to the allotment questions: it's plot 14")
        r"(?!.*\b(come|comes|came|coming)\s+back\s+(at|as|on)\b)"
        r"(?!.*\bback to (the|my|our|your|this|that) ([\w-]+ )?(questions?|topic|subject|point"
        r"|matter|issue|chat|conversation)\b)"
        # ... nor the past said as "back in 2019", "back in the day", "back then"
        r".*?\bback (in|to|at|on)\b(?! (?:(?:19|20)\d\d|the day|the \d+s|the (?:19|20)\d0s)\b)",
    ),
    # "Eating fish again after years as a vegetarian": a habit resumed ends the state between.
    # "realised again how much they helped": a thought had again, nothing taken up again
    # (and see _AGAIN_NEVER)
    (
        "resumed",
        r"(?<!\brealized )(?<!\brealised )(?<!\bthought )(?<!\bthink )(?<!\bfelt )"
        r"(?<!\breminded )\bagain\b|\bresumed\b",
    ),
    # "works three days a week from October": a value that holds from some point on.
    (
        "since",
        rf"\b(from|since|as of|starting|effective) (the )?(\d{{1,2}} )?(next|this|last"
        rf"|{_MONTH_ALT}|spring|summer|autumn|fall|winter)\b"
        r"|\b(went|gone|going) (part|full)-time\b",
    ),
    (
        "settled",
        r"\bgone off\b|\bgone back\b|\bgot rid of\b|\bsettled on\b|\bwent with\b|\bopted for\b"
        r"|\bdecided on\b|\bdecided against\b",
    ),
)
CUE_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _CHANGE_CUES)
# Cues that also accompany unchanged values ("now", "a new job", "moved to" the same city).
# ... and a deal made again ("renewed") keeps its value unless a value of its kind moved.
WEAK_CUES = frozenset(
    {"moved", "now", "new", "back", "started", "since", "born", "renewed", "outcome", "became"}
)
# Cues that name the value changed to ("switched to SQLite", "went with SQLite", "started at
# Brookfield Primary"): a stored item that already holds it was told of the change before.
TO_CUES = frozenset({"switched", "settled", "started"})
VALUE_MOVE_CUES = frozenset({"number moved", "date moved", "renewed"})
# Kinds of value that say when, the cues of an end, and the cues that can move a time ("moved
# to Friday", "now on Thursdays", "it's the 27th, not the 20th"). An end told with a date
# ("handed in her notice, joining Medisync from July 1st") dates itself: it moves no date
# stored beside it.
TIME_KINDS = frozenset({"date", "month", "weekday", "year", "clock", "day_part"})
END_CUES = frozenset({"left", "ended", "died", "stopped", "cancelled", "no longer"})
TIME_MOVING_CUES = frozenset(
    {"date moved", "switched", "now", "new", "corrected", "instead", "after all", "moved", "back"}
)

_NEGATION = re.compile(
    r"\b(won't|wont|will not|doesn't|does not|don't|do not|isn't|is not|can't|cannot|never|not"
    r"|didn't|no longer|hasn't|haven't|aren't)\s+(\w+)",
    re.IGNORECASE,
)
# "from X to Y", "instead of X", "stopped X", "replaced X with Y": X is the old value.
OLD_VALUE = re.compile(
    # not a time said from ("from now on", "from next week"): no value it held
    r"\bfrom (?!(?:now|then|today|tomorrow|tonight|scratch|time|next|this)\b)"
    r"(?:the |a |an |their |his |her )?(.+?)(?= to\b| in\b| for\b|[,;:.]|$)"
    r"|\binstead of (?:the |a |an )?(.+?)(?=[,;:.]|$)"
    r"|\b(?:stopped|quit|dropped|cancell?ed|left|gone off|gave up|no longer|ditched|broke up with"
    r"|split up with|sold|not|came off|come off|weaned off|moved off|unsubscribed from|opted out of"
    r"|done with|finished with)\s+(?:using |doing |eating |drinking |going to "
    r"|the |a |an |their |his |her )?"
    r"(.+?)(?=[,;:.]| in \w+ \d| in (?:19|20)\d\d| to focus| onto\b| because| after| so\b| but\b|$)"
    r"|\bafter trying (?:the |a |an )?(.+?)(?=[,;:.]|$)"
    # "Sunday was my last night at the houseshare": where the speaker was
    r"|\blast (?:day|night|shift|week) (?:at|in) (?:the |a |an |my |our )?(.+?)(?=[,;:.]|$)"
    rf"|{_STOP_DOING}\s+(?:the |a |an |any )?(.+?)(?=[,;:.]|$)"
    rf"|{_OFF_THE}(.+?)(?=[,;:.]| now\b| since\b|$)"
    # "isn't taking the statin any more", "Off the statins, ...": what a habit ended held
    r"|(?:\bnot|(?<!\bwo)n't) \w+ (?:the |a |an |their |his |her |my )?([^,;:.]+?)(?= any ?more\b)"
    r"|^\W*off (?:the |their |his |her |my )?(.+?)(?=[,;:.]|$)"
    r"|\b(?:replaced|swapped|traded in) (?:the |a |an |their |his |her |old )*(.+?)"
    r"(?= with\b| for\b|[,;:.]|$)",
    re.IGNORECASE,
)
# "a new manager", "New half-marathon PB": the noun after "new" names the slot that changed; so
# does the object of a change to a value ("switched energy supplier to ...", "changed surname
# to ...", "updated the billing address to ...").
NEW_SLOT = re.compile(
    r"\bnew ([\w-]+(?: [a-z][\w-]*)?)"
    r"|\b(?:switched|changed|swapped|updated|moved) (?:the |their |his |her |my |our )?"
    r"([a-z][\w-]*(?: [a-z][\w-]*)?) (?:to|over to)\b",
    re.IGNORECASE,
)


def change_cues(text: str) -> frozenset[str]:
    said = CONDITION.sub(" ", text)
    cues = {name for name, rx in CUE_RES if rx.search(said)}
    if "new" in cues and not _new_value_cue(text):
        cues.discard("new")
    if "resumed" in cues and _AGAIN_NEVER.search(said) and not _RESUMED.search(said):
        cues.discard("resumed")  # "never wants to go through this again": a vow
    # "Still can't stand mushrooms, even the new place's ...", "changed career in 2022 and still
    # teaches maths": what the main clause says still holds did not change; a cue beside it
    # tells its story. ("Moved to Bedminster; still in Bristol" still moved.)
    # A clause of its own after it, with its own subject, tells its own news ("Still an hour
    # a day, and the lessons are now fortnightly").
    if _STILL.search(_MAIN_CLAUSE.split(said)[0]):
        own = _OWN_CLAUSE.split(said)[1:]
        told = {name for part in own for name, rx in CUE_RES if rx.search(part)}
        cues -= (WEAK_CUES | TO_CUES) - told
    return frozenset(cues)


_OWN_CLAUSE = re.compile(
    r"(?:,\s*(?:and|but|so)|;)\s+(?=(?:the|my|his|her|their|our|i|he|she|they|we)\b)",
    re.IGNORECASE,
)


_STILL = re.compile(r"\bstill\b", re.IGNORECASE)
_AGAIN_NEVER = re.compile(r"\bnever\b[^.;!?]*\bagain\b", re.IGNORECASE)
_RESUMED = re.compile(r"\bresumed\b", re.IGNORECASE)
_MAIN_CLAUSE = re.compile(r"[,;:(]|\s[-–—]\s")


def _new_value_cue(text: str) -> bool:
    """'Has a new manager' reports a changed value; '... for the new admin panel' names a new
    thing, and 'no time with the new job' only mentions one."""
    lows = [w.lower() for w in words(text)]
    for i, low in enumerate(lows):
        if low == "new":
            before = [w for w in lows[max(0, i - 2) : i] if w not in DETERMINERS]
            if before and before[-1] in PREPOSITIONS:
                continue
            if any(_ENCOUNTER.fullmatch(w) for w in lows[max(0, i - 3) : i]):
                continue  # "meets new people", "trying out new recipes": novelty, no slot
            if not before and not _NEW_SLOT_VALUE.match(text):
                continue  # "The new flat is on the fourth floor": which flat, not a change
            return True
    return False


# Verbs of meeting, trying or finding out: what is new to them is new to the person, not a
# stored value replaced ("met new people", "facing new setbacks", "learning new skills").
_ENCOUNTER = re.compile(
    r"meet(?:s|ing)?|met|mak(?:e|es|ing)|made|tr(?:y|ies|ying|ied)|discover\w*|explor\w*"
    r"|fac(?:e|es|ing|ed)|learn\w*|see(?:s|ing)?|saw|visit\w*|experienc\w*"
)


# "New manager is Tom", "New rent is £1,500", "New half-marathon PB: 1:41:20": an item that
# opens with "new X" gives the slot X a value (a copula or a colon, then a name or a number).
_NEW_SLOT_VALUE = re.compile(
    r"^\W*(?:the |a |my |our |her |his |their )?new\b[^.;:]{0,40}?"
    r"(?:\b(?:is|are|was|will be)\s+|:\s*)(?=(?-i:[A-Z0-9£$€]))",
    re.IGNORECASE,
)


# "can't wait to see it", "couldn't believe it", "can't help smiling": eagerness, wonder, a
# thing one is moved to do; nothing is denied.
IDIOM_NOT = re.compile(
    r"\b(?:can['’]?t|cannot|couldn['’]?t|could not)\s+(?=(?:wait|believe|help)\b)",
    re.IGNORECASE,
)


def negated_verbs(text: str) -> frozenset[str]:
    """Verbs under a negation ("won't renew"); "not paragraphs" negates no verb."""
    out = set()
    text = IDIOM_NOT.sub("", text)
    for m in _NEGATION.finditer(text):
        neg, word = m.group(1).lower(), m.group(2).lower()
        if neg in ("not", "never", "no longer") and word not in SENTENCE_VERBS:
            continue
        if word in ("be", "been"):
            continue  # "won't be easy": the copula is no claim; what it links is compared
        before = text[: m.start()].split()[-1:]
        if neg == "not" and word.endswith("ing") and before and before[0].lower() in PREPOSITIONS:
            continue  # "set off by not sleeping enough": a cause named, not a claim denied
        out.add(stem(word))
    return frozenset(out)
