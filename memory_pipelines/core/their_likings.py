"""What somebody other than the speaker eats, likes or cannot bear, told of them by name or
pronoun ("Oskar is vegetarian", "oh and she hates mushrooms"): a preference of theirs, as lasting
as the speaker's own ("I'm vegetarian", "I hate mushrooms"). Read by
`sentence_kinds.sentence_kind`. Pure Python."""

from __future__ import annotations

import re

# Somebody else's way of eating or drinking, said of them by name or pronoun ("Oskar is
# vegetarian", "and he's vegan now"): as lasting as the speaker's own ("I'm vegetarian"), and
# not the dish's ("It's vegan", "The soup is vegetarian").
_THEIR_DIET = re.compile(
    # "he" or "she" opening the sentence, or a name after a joining word or a comma (a word
    # opening the sentence may be the dish: "Dinner is vegetarian tonight")
    r"(?:^\W*(?i:he|she)|(?:[,;:]\s*|\b(?i:and|but|so|also|oh|btw)\s+)"
    r"(?:(?!(?:It|That|This|There|The|Everything|Everyone|Nothing|What|Which|Who)\b)"
    r"[A-Z][a-z]+|(?i:he|she)))"
    r"(?:['\u2019]s| is| are)\s+(?:(?:now|strictly|fully|mostly|still|also)\s+)?"
    r"(?:an?\s+)?(?:vegetarian|vegan|pescatarian|teetotal)\b"
)
# What somebody else likes or cannot bear, said of them by name or pronoun ("she hates
# mushrooms", "oh and Ruth loves anything with lemon"): as lasting as the speaker's own liking
# ("I hate mushrooms"); not what everybody or a thing does ("Everyone loves a long weekend").
_THEIR_LIKING = re.compile(
    r"^\W*(?:(?i:oh|and|but|so|also|btw|plus)\W+)*"
    r"(?:(?i:he|she)|(?!(?:It|That|This|There|The|Everyone|Everybody|Nobody|Noone|No|Nothing|"
    r"Anyone|Anybody|Someone|Somebody|Who|What|Which|Everything|Mine|Yours)\b)[A-Z][a-z]+)"
    r"\s+(?:(?i:really|absolutely|just|totally|still|also|always)\s+)?"
    r"(?i:loves|hates|adores|loathes|likes|dislikes|detests|can['\u2019]t stand|cannot stand|"
    r"won['\u2019]t eat|doesn['\u2019]t eat|doesn['\u2019]t drink|never eats|never drinks)\b"
)


def their_preference(sentence: str) -> bool:
    """Whether the sentence tells another person's way of eating or drinking (`_THEIR_DIET`)
    or their liking (`_THEIR_LIKING`)."""
    return bool(_THEIR_DIET.search(sentence) or _THEIR_LIKING.match(sentence))
