"""Ranking: candidates from every kind of record scored on one scale, best first.

Kept apart from candidate generation (store/search.py). A candidate's score is its lexical
score (BM25 divided by the query's best, 0..1) plus ALPHA times its cosine to the query (for a
turn, plus a part of its neighbours' cosines: a reply is read with what it answers), plus small
boosts: a record naming an entity of the question (the graph; a turn spoken by a person the
question names counts more), a turn or item dated within a time the question names, a turn or
item that says when for a question that asks when, and for memory items their salience (decay
scores), confidence and recency; minus a penalty for a record that asks rather than tells.
A turn also gains part of the match of the summary covering it and of the turn asking what
it answers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

# Meaning counts more than words. ALPHA, SPEAKER_BONUS and CHUNK_SUPPORT were chosen again
# once the question came to be embedded without its speakers' names (its cosines moved): each
# half of the LoCoMo dev conversations, searched alone (coordinate search over a grid), chose
# more meaning (1.5-1.75), a larger speaker bonus (0.5-0.6) and chunk support 0.2, and each
# choice raised the other half's recall@10 (+0.003 and +0.018). The round values common to
# both, on all six: recall@10 0.7806 -> 0.7924 (conv-26/30/41 0.8066 -> 0.8198, conv-42/43/44
# 0.7607 -> 0.7713), MRR 0.6183 -> 0.6190, multi-hop 0.5090 -> 0.5222.
ALPHA = 1.5
GRAPH_BONUS = 0.1  # per entity of the question a record names, up to two
# A turn spoken by a person the question names: questions about somebody ("What books has
# Melanie read?") are answered by what that person said, in whatever words.
SPEAKER_BONUS = 0.5
# A turn's cosine plus this part of the cosine of each neighbouring turn of the same session
# (store/search.py): a reply ("Her name is Shadow!") means little without the turn it answers,
# and a question is answered by the next turn.
CONTEXT_WEIGHT = 0.2
# A record that asks (its text ends with a question mark) rather than tells: "Seen any good
# movies lately?" matches a question about movies well and answers nothing.
QUESTION_PENALTY = 0.3
# A turn inside a summary of its stretch of the chat (a level-1 chunk, ten turns) that matches
# the question gains this part of that chunk's own match (its lexical + ALPHA * cosine): the
# stretch as a whole is about the question, so its turns are likelier evidence than a turn
# alike in words elsewhere. First 0.1 (chosen on three LoCoMo dev conversations, checked on
# the other three: recall@10 0.7244 -> 0.7260), now 0.2 with ALPHA (see there).
CHUNK_SUPPORT = 0.2
# A turn said, or an item true from, within a time the question names ("What did Gina find for
# her store on 1 February, 2023?", "in August 2023": question_times.question_windows): asked about a
# day, a person means what was said that day. The same weight as a person the question names
# (SPEAKER_BONUS). Chosen on three LoCoMo dev conversations (0.3-1.0 gave the same recall@10
# there, 0.5 a better MRR) and checked on the other three: recall@10 0.7713 -> 0.7746, MRR
# 0.6143 -> 0.6296 (96 of 883 questions name a date).
DATE_BONUS = 0.5
# A turn or item that says when (a weekday, a month, a year, "last week", "three days ago":
# core/question_times.SAYS_WHEN_SQL), for a question that asks when ("When did Caroline go to the
# support group?"): what answers when mostly says when. Chosen on three LoCoMo dev
# conversations (0.2 and 0.3 gave the same recall@10 there, 0.2 the smaller change) and
# checked on the other three: recall@10 0.7760 -> 0.7790, MRR 0.6286 -> 0.6294 (151 of 883
# questions ask when).
WHEN_BONUS = 0.2
# A turn that replies to a turn asking what the question asks ("Where is the internship?" ->
# "It's part-time, in the fashion department of an international company.") gains this part
# of the asking turn's match (its lexical + ALPHA * cosine): in a conversation a question is
# answered by the next turn, whose own words often name little of it. A reply that asks in
# turn gains nothing (see QUESTION_PENALTY). Chosen on three LoCoMo dev conversations
# (0.1-0.2 tried; 0.15 best there on recall@10 and MRR: 0.8322 -> 0.8503, 0.6450 -> 0.6572)
# and checked on the other three: MRR 0.6294 -> 0.6451, recall@10 0.7790 -> 0.7752.
ANSWER_SUPPORT = 0.15
SALIENCE_WEIGHT = 0.05
CONFIDENCE_WEIGHT = 0.03
RECENCY_WEIGHT = 0.02
RECENCY_DAYS = 365.0
# A record's weight by kind. A chunk stands for ten turns or chunks, so its match is coarse; an
# item is a one-line restatement whose short text scores high on cosine alone. Chosen on three
# LoCoMo dev conversations and checked on the other three (see the recall issue's note); so
# were ALPHA, SPEAKER_BONUS, CONTEXT_WEIGHT and QUESTION_PENALTY.
KIND_WEIGHTS: dict[str, float] = {"chunk": 0.5, "item": 0.8}


@dataclass
class Candidate:
    kind: str
    id: int
    lexical: float
    cos: float
    named: int = 0  # entities of the question the record names
    salience: float | None = None
    confidence: int | None = None
    at: datetime | None = None  # an item: valid_from; a turn: when it was said
    asks: bool = False  # the record's text is a question
    context: float = 0.0  # a turn: the summed cosine of its neighbours in the same session
    # turns and chunks: (chat_id, from_seq, to_seq) of the turns covered; a chunk's level
    span: tuple[int, int, int] | None = None
    level: int | None = None
    says_when: bool = False  # its text says when (only read for a question that asks when)

    @property
    def key(self) -> tuple[str, int]:
        return self.kind, self.id


def score(
    c: Candidate, now: datetime | None = None, windows: Sequence[tuple[datetime, datetime]] = ()
) -> float:
    """`windows`: the stretches of time the question names (question_times.question_windows)."""
    # A turn's `named` says whether its speaker is a person of the question.
    bonus = SPEAKER_BONUS * min(c.named, 1) if c.kind == "turn" else GRAPH_BONUS * min(c.named, 2)
    if c.at is not None and any(start <= c.at < end for start, end in windows):
        bonus += DATE_BONUS
    if c.says_when:
        bonus += WHEN_BONUS
    s = c.lexical + ALPHA * (c.cos + CONTEXT_WEIGHT * c.context) + bonus
    if c.asks:
        s -= QUESTION_PENALTY
    if c.kind == "item":
        if c.salience is not None:
            s += SALIENCE_WEIGHT * c.salience
        if c.confidence is not None:
            s += CONFIDENCE_WEIGHT * (c.confidence - 5) / 5
        if c.at is not None and now is not None:
            age = max((now - c.at).total_seconds() / 86400, 0.0)
            s += RECENCY_WEIGHT * math.exp(-age / RECENCY_DAYS)
    return s * KIND_WEIGHTS.get(c.kind, 1.0)


def rank(
    cands: Iterable[Candidate],
    now: datetime | None = None,
    windows: Sequence[tuple[datetime, datetime]] = (),
) -> list[tuple[Candidate, float]]:
    """Candidates with their scores, best first (ties by kind and id, so stable). A turn
    covered by a level-1 chunk among the candidates gains CHUNK_SUPPORT of its match, a turn
    replying to an asking turn among them ANSWER_SUPPORT of that one's; a record dated within
    a time the question names (`windows`), DATE_BONUS."""
    cands = list(cands)
    summaries: dict[int, list[tuple[int, int, float]]] = {}
    asked: dict[tuple[int, int], float] = {}  # (chat, seq) of a reply: its asking turn's match
    for c in cands:
        if c.span is None:
            continue
        chat, first, last = c.span
        if c.kind == "chunk" and c.level == 1:
            summaries.setdefault(chat, []).append((first, last, c.lexical + ALPHA * c.cos))
        elif c.kind == "turn" and c.asks:
            asked[chat, first + 1] = c.lexical + ALPHA * c.cos
    scored = [(c, score(c, now, windows) + _support(c, summaries, asked)) for c in cands]
    return sorted(scored, key=lambda cs: (-cs[1], cs[0].kind, cs[0].id))


def _support(
    c: Candidate,
    summaries: dict[int, list[tuple[int, int, float]]],
    asked: dict[tuple[int, int], float],
) -> float:
    if c.kind != "turn" or c.span is None:
        return 0.0
    chat, seq, _ = c.span
    best = max((m for first, last, m in summaries.get(chat, ()) if first <= seq <= last), default=0)
    answers = 0.0 if c.asks else ANSWER_SUPPORT * max(asked.get((chat, seq), 0.0), 0.0)
    return CHUNK_SUPPORT * max(best, 0.0) + answers


_NAME = re.compile(r"\b[A-Z][a-zA-Z'-]+\b")


def capitalised(question: str) -> list[str]:
    """Words that may name somebody or something: capitalised, possessive 's dropped."""
    return sorted({w.removesuffix("'s") for w in _NAME.findall(question)})


def without_names(question: str, names: Iterable[str]) -> str:
    """The question as search embeds it: without the names of its speakers (`names`, and
    their possessive 's). A turn is embedded with its speaker ("Melanie: ..."), so a name in
    the question makes every turn that person spoke look alike to it and crowds out what they
    said about the question; who spoke counts through SPEAKER_BONUS instead. A question of
    nothing but names is kept whole. Taking them out raised LoCoMo recall@10 from 0.7989 to
    0.8144 on the three conversations it was tried on and from 0.7293 to 0.7557 on the other
    three (multi-hop 0.5266 -> 0.5529 and 0.4388 -> 0.4911), with every constant unchanged."""
    out = question
    for name in names:
        out = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", " ", out)
    if not re.search(r"\w\w", out):
        return question
    return " ".join(out.split())
