"""Past-tense verb forms, for rules that tell what happened from what holds or is planned
("Never again: we lost a day" has a past mishap; "I never said that" narrates, it sets no rule).
Pure Python."""

from __future__ import annotations

# Words in -ed that are no past: "I need" -> "she needs", "Indeed, ...".
# fmt: off
NOT_PAST = frozenset([
    "need", "feed", "seed", "speed", "breed", "bleed", "proceed", "succeed", "indeed", "bed",
    "red", "shed", "wed",
])
# fmt: on

# fmt: off
# Irregular verbs, a closed class of English: base -> (past, participle).
_IRREGULAR = {
    "arise": ("arose", "arisen"), "awake": ("awoke", "awoken"), "bear": ("bore", "borne"),
    "beat": ("beat", "beaten"), "become": ("became", "become"), "begin": ("began", "begun"),
    "bend": ("bent", "bent"), "bet": ("bet", "bet"), "bind": ("bound", "bound"),
    "bite": ("bit", "bitten"), "bleed": ("bled", "bled"), "blow": ("blew", "blown"),
    "break": ("broke", "broken"), "breed": ("bred", "bred"), "bring": ("brought", "brought"),
    "build": ("built", "built"), "burn": ("burnt", "burnt"), "burst": ("burst", "burst"),
    "buy": ("bought", "bought"), "cast": ("cast", "cast"), "catch": ("caught", "caught"),
    "choose": ("chose", "chosen"), "cling": ("clung", "clung"), "come": ("came", "come"),
    "cost": ("cost", "cost"), "creep": ("crept", "crept"), "cut": ("cut", "cut"),
    "deal": ("dealt", "dealt"), "dig": ("dug", "dug"), "do": ("did", "done"),
    "draw": ("drew", "drawn"), "dream": ("dreamt", "dreamt"), "drink": ("drank", "drunk"),
    "drive": ("drove", "driven"), "eat": ("ate", "eaten"), "fall": ("fell", "fallen"),
    "feed": ("fed", "fed"), "feel": ("felt", "felt"), "fight": ("fought", "fought"),
    "find": ("found", "found"), "flee": ("fled", "fled"), "fling": ("flung", "flung"),
    "fly": ("flew", "flown"), "forbid": ("forbade", "forbidden"),
    "forget": ("forgot", "forgotten"), "forgive": ("forgave", "forgiven"),
    "freeze": ("froze", "frozen"), "get": ("got", "gotten"), "give": ("gave", "given"),
    "go": ("went", "gone"), "grind": ("ground", "ground"), "grow": ("grew", "grown"),
    "hang": ("hung", "hung"), "have": ("had", "had"), "hear": ("heard", "heard"),
    "hide": ("hid", "hidden"), "hit": ("hit", "hit"), "hold": ("held", "held"),
    "hurt": ("hurt", "hurt"), "keep": ("kept", "kept"), "kneel": ("knelt", "knelt"),
    "know": ("knew", "known"), "lay": ("laid", "laid"), "lead": ("led", "led"),
    "lean": ("leant", "leant"), "leap": ("leapt", "leapt"), "learn": ("learnt", "learnt"),
    "leave": ("left", "left"), "lend": ("lent", "lent"), "let": ("let", "let"),
    "lie": ("lay", "lain"), "light": ("lit", "lit"), "lose": ("lost", "lost"),
    "make": ("made", "made"), "mean": ("meant", "meant"), "meet": ("met", "met"),
    "mislead": ("misled", "misled"), "mistake": ("mistook", "mistaken"),
    "overcome": ("overcame", "overcome"), "pay": ("paid", "paid"), "put": ("put", "put"),
    "quit": ("quit", "quit"), "read": ("read", "read"), "ride": ("rode", "ridden"),
    "ring": ("rang", "rung"), "rise": ("rose", "risen"), "run": ("ran", "run"),
    "say": ("said", "said"), "see": ("saw", "seen"), "seek": ("sought", "sought"),
    "sell": ("sold", "sold"), "send": ("sent", "sent"), "set": ("set", "set"),
    "shake": ("shook", "shaken"), "shed": ("shed", "shed"), "shine": ("shone", "shone"),
    "shoot": ("shot", "shot"), "show": ("showed", "shown"), "shrink": ("shrank", "shrunk"),
    "shut": ("shut", "shut"), "sing": ("sang", "sung"), "sink": ("sank", "sunk"),
    "sit": ("sat", "sat"), "sleep": ("slept", "slept"), "slide": ("slid", "slid"),
    "speak": ("spoke", "spoken"), "speed": ("sped", "sped"), "spend": ("spent", "spent"),
    "spill": ("spilt", "spilt"), "spin": ("spun", "spun"), "spit": ("spat", "spat"),
    "split": ("split", "split"), "spread": ("spread", "spread"),
    "spring": ("sprang", "sprung"), "stand": ("stood", "stood"), "steal": ("stole", "stolen"),
    "stick": ("stuck", "stuck"), "sting": ("stung", "stung"), "stink": ("stank", "stunk"),
    "stride": ("strode", "stridden"), "strike": ("struck", "struck"),
    "strive": ("strove", "striven"), "swear": ("swore", "sworn"), "sweep": ("swept", "swept"),
    "swim": ("swam", "swum"), "swing": ("swung", "swung"), "take": ("took", "taken"),
    "teach": ("taught", "taught"), "tear": ("tore", "torn"), "tell": ("told", "told"),
    "think": ("thought", "thought"), "throw": ("threw", "thrown"), "tread": ("trod", "trodden"),
    "undergo": ("underwent", "undergone"), "understand": ("understood", "understood"),
    "undertake": ("undertook", "undertaken"), "wake": ("woke", "woken"),
    "wear": ("wore", "worn"), "weave": ("wove", "woven"), "weep": ("wept", "wept"),
    "win": ("won", "won"), "wind": ("wound", "wound"), "withdraw": ("withdrew", "withdrawn"),
    "write": ("wrote", "written"),
}
# fmt: on
# The simple pasts that are not their base too ("swore", "hid"; not "put", nor "lay", which is
# also a base of its own): a word of these after its subject takes no -s.
SIMPLE_PAST = frozenset(
    past for base, (past, _) in _IRREGULAR.items() if past != base and past not in _IRREGULAR
)
IRREGULAR_PAST = SIMPLE_PAST  # the name the past-tense rules know it by
# A past-tense verb: irregular, or regular in -ed (a rough test: "need", "bed" slip through).
PAST_VERB = r"(?:\w+ed|" + "|".join(sorted(IRREGULAR_PAST)) + r")"
_VOWELS = "aeiou"


def past_forms(verb: str) -> frozenset[str]:
    """The past and the participle of a verb: irregular ones from the table, else the regular
    -ed ("book" -> "booked", "file" -> "filed", "copy" -> "copied", "drop" -> "dropped")."""
    verb = verb.lower()
    if verb in _IRREGULAR:
        return frozenset(_IRREGULAR[verb])
    if verb.endswith("e"):
        return frozenset([verb + "d"])
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in _VOWELS:
        return frozenset([verb[:-1] + "ied"])
    forms = {verb + "ed"}
    # one short syllable ending consonant-vowel-consonant doubles: drop -> dropped
    if (
        len(verb) >= 3
        and verb[-1] not in _VOWELS + "wxy"
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
    ):
        forms.add(verb + verb[-1] + "ed")
    return frozenset(forms)
