"""The `local` backend: deterministic and offline, rules plus the embedder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from memory_pipelines.core import judge as judge_rules
from memory_pipelines.core.contradiction import Contradiction
from memory_pipelines.core.contradiction import judge as judge_contradiction
from memory_pipelines.core.extract import extract_window
from memory_pipelines.core.judge import JudgeDecision, JudgeItem
from memory_pipelines.core.links import LinkNode, LinkProposal, cause_clause, propose_local
from memory_pipelines.core.name_case import as_written_carefully, names_given
from memory_pipelines.core.rerank import order_by_best_sentence
from memory_pipelines.core.sentence_kinds import sentences as sentences_of
from memory_pipelines.core.summarise import summarise as summarise_extractive
from memory_pipelines.models.base import ModelCall, WindowTurn
from memory_pipelines.models.embedder import Embedder
from memory_pipelines.models.name_pronouns import pronoun_for
from memory_pipelines.models.person_names import Lookup, is_english_word, name_lookups

PRONOUN_PROTOTYPES = ("she is a woman", "he is a man")
PRONOUN_MARGIN = 0.06  # cosine margin; "Alex" sits inside it


# A speaker named by a role, not a name ("User", "Assistant", "Customer"): nobody's sex is known,
# and the embedding of "User" against the prototypes had made every user "he".
ROLE_NAMES = frozenset(
    ["", "user", "assistant", "human", "ai", "bot", "customer", "client", "agent", "system",
     "me", "caller", "patient", "guest", "visitor", "member", "speaker", "person"]
)  # fmt: skip


def _written_carefully(turn: WindowTurn, given: set[str], is_name: Lookup) -> WindowTurn:
    """The turn with first names typed in lower case capitalised (those `is_name` knows, and
    the names `given` in its window) and words shouted in capitals lowered
    (core/name_case.py), its sentences' vectors kept (the model reads no case: the same
    vectors)."""

    def careful(text: str) -> str:
        return as_written_carefully(text, is_name, is_english_word, given)

    text = careful(turn.text)
    if text == turn.text:
        return turn
    return replace(turn, text=text, sentences={careful(s): v for s, v in turn.sentences.items()})


class LocalBackend:
    name = "local"
    model = "local-rules-v1"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._pronouns: dict[str, str] = {}

    def pronoun_of(self, name: str) -> str:
        """she, he or they for a speaker's name: from counts of the people who bear it
        (models/name_pronouns.py: "they" for a name borne by men and women alike, and for a role
        such as "User"); for a name
        the data does not hold, the name's embedding against two prototypes, 'they' unless one
        is clearly nearer (a name the model cannot place stays neutral)."""
        if name not in self._pronouns:
            known = "they" if name.strip().lower() in ROLE_NAMES else pronoun_for(name)
            if known is None:
                name_vec, she, he = self.embedder.embed([name, *PRONOUN_PROTOTYPES])
                margin = float(name_vec @ she - name_vec @ he)
                near = margin > PRONOUN_MARGIN, margin < -PRONOUN_MARGIN
                known = "she" if near[0] else "he" if near[1] else "they"
            self._pronouns[name] = known
        return self._pronouns[name]

    def _tokens(self, *texts: str) -> int:
        return sum(self.embedder.count_tokens(t) for t in texts)

    def judge(
        self,
        candidate: JudgeItem,
        existing: Sequence[JudgeItem],
        cand_vec: np.ndarray,
        existing_vecs: np.ndarray,
        call: ModelCall,
    ) -> JudgeDecision:
        call.tokens_in = self._tokens(candidate.context, *(e.context for e in existing))
        return judge_rules.decide(
            candidate, existing, cand_vec, existing_vecs, embed=self.embedder.embed
        )

    def extract(
        self, window: Sequence[WindowTurn], instructions: str, types: Sequence[str], call: ModelCall
    ) -> list[dict[str, Any]]:
        # `instructions` are for a language model; the rules follow the spec's save policy.
        call.tokens_in = self._tokens(*(t.text for t in window))
        is_name, is_name_or_word = name_lookups()
        given = {name for t in window for name in names_given(t.text, is_name_or_word)}
        window = [_written_carefully(t, given, is_name) for t in window]
        known = {t.text.strip(): t.embedding for t in window if t.embedding is not None}
        # The save policy compares each turn with the sentences of the turns before it: their
        # vectors are those ingest stored (late chunking, turn_sentences), and any missing are
        # embedded in one pass for the window, not again in a call per turn (a LoCoMo
        # conversation: 3,049 texts in 355 calls, 1,125 of them different).
        for t in window:
            for sentence, vec in t.sentences.items():
                known.setdefault(sentence.strip(), vec)
        self.vectors([s for t in window for s in sentences_of(t.text)], known)
        out = extract_window(
            window,
            types,
            similarity=lambda a, b: self.similarity(a, b, known),
            pronoun_of=self.pronoun_of,
            # the learned save policy decides on top of the rules, from the turn's stored vector
            embed=lambda texts: self.vectors(texts, known),
        )
        call.tokens_out = self._tokens(*(c["context"] for c in out))
        return out

    def propose_links(
        self, source: LinkNode, candidates: Sequence[LinkNode], call: ModelCall
    ) -> list[LinkProposal]:
        """Rules over provenance, entities and cosines (core.links.propose_local)."""
        call.tokens_in = self._tokens(source.text, *(c.text for c in candidates))
        if not candidates:
            return []
        # Stored embeddings are reused; only nodes without one (e.g. a chunk) are embedded.
        missing = [n.text for n in (source, *candidates) if n.embedding is None]
        fresh = iter(self.embedder.embed(missing)) if missing else iter(())
        vecs = np.stack(
            [n.embedding if n.embedding is not None else next(fresh) for n in (source, *candidates)]
        )
        sims = [float(v) for v in vecs[1:] @ vecs[0]]
        clause = cause_clause(source.text)
        cause_sims = None
        if clause is not None:
            cause_sims = [float(v) for v in vecs[1:] @ self.embedder.embed_one(clause)]
        return propose_local(source, candidates, sims, cause_sims)

    def summarise(
        self,
        texts: Sequence[str],
        call: ModelCall,
        vectors: np.ndarray | None = None,
        max_words: int = 60,
    ) -> str:
        """Extractive (core.summarise): central sentences, names and dates kept. Pass the
        stored vectors of the texts: without them every text is embedded here."""
        call.tokens_in = self._tokens(*texts)
        if vectors is None:
            vectors = self.embedder.embed(texts)
        out = summarise_extractive(texts, vectors, max_words)
        call.tokens_out = self._tokens(out)
        return out

    def contradicts(self, a: str, b: str, call: ModelCall) -> Contradiction:
        """Negation, a changed value or another value of a single-valued slot
        (core.contradiction)."""
        call.tokens_in = self._tokens(a, b)
        return judge_contradiction(a, b)

    def rerank(self, query: str, texts: Sequence[str], call: ModelCall) -> list[int]:
        """Each text read sentence by sentence against the query (core.rerank)."""
        call.tokens_in = self._tokens(query, *texts)
        sentences = [sentences_of(t) or [t] for t in texts]
        flat = [s for group in sentences for s in group]
        vecs = self.embedder.embed([query, *texts, *flat])
        query_vec, whole, rest = vecs[0], vecs[1 : 1 + len(texts)], vecs[1 + len(texts) :]
        groups, at = [], 0
        for group in sentences:
            groups.append(rest[at : at + len(group)])
            at += len(group)
        return order_by_best_sentence(query_vec, groups, whole)

    def similarity(
        self, text: str, others: Sequence[str], known: dict[str, np.ndarray] | None = None
    ) -> list[float]:
        """Cosines of text to others, reusing stored embeddings of known texts (keyed by the
        stripped text: the policy strips what it compares)."""
        if not others:
            return []
        vecs = self.vectors([text, *others], known)
        return [float(v) for v in vecs[1:] @ vecs[0]]

    def vectors(
        self, texts: Sequence[str], known: dict[str, np.ndarray] | None = None
    ) -> np.ndarray:
        """Embeddings of texts, the stored one of a known text (keyed by the stripped text)
        instead of embedding it again. Those embedded here are added to `known` (the caller's
        cache, e.g. for one extraction window)."""
        known = {} if known is None else known
        texts = [t.strip() for t in texts]
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known.update(zip(missing, self.embedder.embed(missing), strict=True))
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([known[t] for t in texts])
