"""Slot frames of the dedup judge: a few slots that a rewording may name without shared words.

"Moved to Bath" is the residence slot of "Lives in Bristol"; "back in the office" is the
work-mode slot of "fully remote"; "got engaged" is the relationship slot of "has been seeing
Jude". `judge_rules.analyse` records the frames an item holds; two items in one frame speak of one
slot, and in a frame that holds one value at a time, another value replaces the first. General
English, never topic words.
"""

from __future__ import annotations

import re

# Small frames: slots that a rewording may express without shared words ("moved to X" is the
# residence slot of "lives in Y"; "back in the office" is the work-mode slot of "fully remote").
_FRAMES: tuple[tuple[str, str], ...] = (
    (
        "residence",
        # "lives with her parents", "moved back to Valencia", "moved out of her parents' place"
        r"\b(lives|living|live|based|resides|settled) (in|with)\b"
        r"|\b(moved|moving) (back |away |out )?(to|from|house|into|in with|out of|abroad)\b"
        r"|\brelocated\b|\bhome is in\b"
        # "Lives at 4 Crown Street", "Home address: 27 Maple Row"
        r"|\b(lives|living) at \d+\w* (?-i:[A-Z])|\bhome address\b"
        # living alone or sharing a home: "lives on her own", "shares a flat with Ola"
        r"|\b(lives|living|live) (alone|on (his|her|their|my) own)\b"
        r"|\bshares? an? (flat|house|home|place|apartment) with\b",
    ),
    (
        "work mode",
        r"\bremote(ly)?\b|\bin the office\b|\bin-office\b|\bfrom home\b|\bhybrid\b|\bwfh\b"
        r"|\boffice \w+ days\b|\bdays a week in\b|\breturn-to-office\b",
    ),
    (
        "relationship",
        r"\b(dating|engaged|married|divorced|single|broke up|split up|girlfriend|boyfriend"
        r"|seeing someone|in a relationship)\b"
        # "Has been seeing Jude for two years": seeing a person named
        r"|\bseeing (?-i:[A-Z])",
    ),
    (
        "employer",
        r"\bworks (as|at|for)\b|\bjob\b|\bemployer\b|\bjoined\b|\bhired\b|\bworking (as|at|for)\b"
        # a role at a named organisation: "is a product designer at Flutterwave"
        r"|\b(is|am|'s) an? [\w-]+( [\w-]+)? (at|for) (?-i:[A-Z])",
    ),
    # "Salary is £62k" is the income slot of "Earns £54,000 a year"
    ("income", r"\bsalary\b|\bearns\b|\bearning\b|\bincome\b|\btake-home\b"),
    ("travel", r"\b(flying|flight|trip|travell?ing|holiday|vacation) (to|in)\b|\bvisiting\b"),
    # ... or the slot named ("Diet: poultry and fish are fine")
    ("diet", r"\b(vegetarian|vegan|pescatarian|keto|kosher|halal|gluten-free|diet)\b"),
)
# Frames that hold one value at a time: a second value replaces or contradicts the first.
# ("travel" is not one: a person can fly to two places.)
SINGLE_VALUED_FRAMES = frozenset(
    {"residence", "employer", "diet", "relationship", "work mode", "income"}
)
FRAME_RES = tuple((name, re.compile(rx, re.IGNORECASE)) for name, rx in _FRAMES)
