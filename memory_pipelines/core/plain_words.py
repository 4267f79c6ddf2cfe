"""Chat shorthand written out, so a memory reads plainly and is found by the words a question
uses: "took my fam camping" -> "took my family camping", "a pic of the new biz" -> "a picture
of the new business", "gonna" -> "going to". Whole words only; pure Python.
"""

from __future__ import annotations

import re

# fmt: off
_PLAIN = {
    "fam": "family", "biz": "business", "pic": "picture", "pics": "pictures", "vid": "video",
    "vids": "videos", "cuz": "because", "coz": "because", "'cause": "because", "bday": "birthday",
    "peeps": "people", "kinda": "kind of", "sorta": "sort of", "lemme": "let me",
    "gonna": "going to", "wanna": "want to", "tho": "though", "thru": "through",
    "convo": "conversation", "fave": "favorite", "faves": "favorites", "'bout": "about",
    "pls": "please",
}
# fmt: on
_WORD = re.compile(
    r"(?<![\w'])("
    + "|".join(re.escape(w) for w in sorted(_PLAIN, key=len, reverse=True))
    + r")(?!\w|'\w\w)",  # a possessive may follow: "the biz's website"
    re.IGNORECASE,
)


def plain_words(text: str) -> str:
    """Text with chat shorthand written out (a capital kept at the start of a word)."""

    def full(m: re.Match[str]) -> str:
        word = _PLAIN[m.group(1).lower()]
        return word[:1].upper() + word[1:] if m.group(1)[:1].isupper() else word

    return _WORD.sub(full, text)
