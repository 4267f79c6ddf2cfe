"""The `openai` backend: any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp).

Answers are JSON validated against a schema; an invalid answer is retried once, then raised as
Invalid so the caller drops and counts it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, TypeVar

import httpx
import numpy as np
from pydantic import BaseModel, Field, ValidationError

from memory_pipelines.core.contradiction import Contradiction
from memory_pipelines.core.judge import JudgeDecision, JudgeItem
from memory_pipelines.core.links import LinkNode, LinkProposal
from memory_pipelines.core.rerank import check_order
from memory_pipelines.errors import ModelUnavailable
from memory_pipelines.models.base import Invalid, ModelCall, WindowTurn

M = TypeVar("M", bound=BaseModel)

JUDGE_SYSTEM = (
    "You deduplicate a memory store. Given a NEW memory and EXISTING memories numbered from 0, "
    'answer JSON {"action": "merge"|"supersede"|"create", "target": number or null, '
    '"reason": short text}. merge: NEW states the same fact as one existing memory (paraphrase, '
    "more detail, confirmation). supersede: same subject and slot but the value changed or was "
    "corrected. create: no existing memory states this fact. target is the existing number for "
    "merge and supersede, null for create."
)
EXTRACT_SYSTEM = (
    "You pick out what is worth remembering from a conversation window. Only stable facts: "
    "preferences, decisions with their why, durable facts, lessons, commitments (with owner and "
    "due time when said). Skip greetings, chatter, restatements, speculation. At most two "
    "items a turn, the most lasting first, a health or safety fact always. Turns marked "
    '"context_only" were said before the window: read them, take nothing from them. Answer JSON '
    '{"items": [{"category": one of the allowed types, "context": one-line fact naming '
    'who it is about, "confidence": 1-6, "from_seq": int, "to_seq": int, '
    '"due_at": ISO date or null, "owed_to": name or null}]}.'
)

LINK_SYSTEM = (
    "You link the records of a memory store. Given a SOURCE record and CANDIDATE records "
    "numbered from 0, propose typed links from SOURCE to candidates, using only these types: "
    "relates_to (same subject), caused_by (SOURCE happened because of the candidate), "
    "supersedes (SOURCE replaces the candidate), decided_in (SOURCE was decided in the "
    "candidate), part_of (SOURCE is a part of the candidate), owned_by (the candidate is who "
    "owns SOURCE), discussed_in (SOURCE was talked about in the candidate). Propose nothing "
    'when unsure. Answer JSON {"links": [{"target": candidate number, "type": one of the '
    'types, "confidence": 0-1}]}.'
)

SUMMARISE_SYSTEM = (
    "You summarise a stretch of a conversation for an agent's long-term memory. The input is "
    "either turns, each as 'Speaker (date): text', or summaries of consecutive stretches, oldest "
    "first. Write one summary of at most {max_words} words: what happened and what was decided "
    "or learnt, keeping people's names, dates (as absolute dates), places and numbers; no "
    'greetings, no commentary. Answer JSON {{"summary": text}}.'
)

RERANK_SYSTEM = (
    "You rank passages from a memory store by how well each answers a question. Passages are "
    'numbered from 0. Answer JSON {"order": [numbers of the passages, best first]}, using '
    "each number at most once."
)

CONTRADICT_SYSTEM = (
    "You check a memory store for contradictions. Given two records A and B kept for the same "
    "person (or shared by everyone), decide whether both can be true at the same time. They "
    "contradict when one negates the other, or when they give different values (a place, "
    "number, date, time, name) for the same single-valued attribute of the same subject. "
    "Records about different subjects or different occasions, or where one only adds detail, "
    "do not contradict. Do not decide which is right. Answer JSON "
    '{"contradicts": true or false, "reason": short text}.'
)


class JudgeAnswer(BaseModel):
    action: Literal["merge", "supersede", "create"]
    target: int | None = None
    reason: str = ""


class ContradictionAnswer(BaseModel):
    # strict: "yes" or 1 is not an answer to a yes/no question; it is retried
    contradicts: bool = Field(strict=True)
    reason: str = ""


class ExtractAnswer(BaseModel):
    items: list[dict[str, Any]]


class SummaryAnswer(BaseModel):
    summary: str = Field(min_length=1)


class ProposedLink(BaseModel):
    # type and confidence stay loose here: core.links.check_proposals drops and counts a bad
    # proposal alone, where a schema failure would drop the whole answer.
    target: int
    type: str
    confidence: float = 0.5


class RerankAnswer(BaseModel):
    order: list[int]


class LinksAnswer(BaseModel):
    links: list[ProposedLink] = Field(default_factory=list)


def _link_line(node: LinkNode, source: LinkNode) -> str:
    """A record as the model sees it: no database ids, provenance relative to the source."""
    what = f"chunk, level {node.level}" if node.kind == "chunk" else f"item, {node.category}"
    if node.chat_id is not None and node.from_seq is not None:
        where = "same conversation" if node.chat_id == source.chat_id else "another conversation"
        what += f", {where}, turns {node.from_seq}-{node.to_seq or node.from_seq}"
    text = node.text if len(node.text) <= 500 else node.text[:499] + "…"
    return f"[{what}] {text}"


class OpenAIBackend:
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 60.0):
        if not base_url:
            raise ValueError("openai backend: base_url is required (e.g. http://localhost:8000/v1)")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._client = httpx.Client(
            timeout=timeout,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
        )

    def _ask(
        self, system: str, user: str, schema: type[M], call: ModelCall, check: Any = None
    ) -> M:
        last = ""
        for _ in range(2):  # one retry for an invalid answer
            data = self._post(system, user)
            usage = data.get("usage") or {}
            call.tokens_in += int(usage.get("prompt_tokens", 0))
            call.tokens_out += int(usage.get("completion_tokens", 0))
            try:
                content = data["choices"][0]["message"]["content"]
                answer = schema.model_validate_json(content)
                if check is not None:
                    check(answer)
                return answer
            except (KeyError, IndexError, TypeError, ValidationError, ValueError) as exc:
                last = str(exc).splitlines()[0]
        raise Invalid(f"{schema.__name__} invalid twice: {last}")

    def _post(self, system: str, user: str) -> dict[str, Any]:
        """The endpoint's answer; ModelUnavailable naming it and where it is set when it gives
        none (refused, timed out, an error status)."""
        url = f"{self.base_url}/chat/completions"
        try:
            resp = self._client.post(
                url,
                json={
                    "model": self.model,
                    "temperature": 0,
                    "response_format": {"type": "json_object"},
                    "messages": [
                        {"role": "system", "content": system},
                        {"role": "user", "content": user},
                    ],
                },
            )
            resp.raise_for_status()
            return resp.json()
        except (httpx.HTTPError, ValueError) as exc:
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ModelUnavailable(
                f"model endpoint {url} (model {self.model!r}) gave no answer: {why}. Check that"
                " it is running and reachable, and where it is set: the model resource's"
                " base_url or MEMORY_LLM_BASE_URL; or set the store's extraction backend to"
                " 'local' (the console's Extraction card, or the store's settings)"
            ) from exc

    def judge(
        self,
        candidate: JudgeItem,
        existing: Sequence[JudgeItem],
        cand_vec: np.ndarray,
        existing_vecs: np.ndarray,
        call: ModelCall,
    ) -> JudgeDecision:
        # Ids are small integers local to this question, so an answer cannot invent a record id.
        lines = [f"NEW: {candidate.context} ({candidate.category})", "EXISTING:"]
        lines += [
            f"{i}: {e.context} ({e.category}, since {e.valid_from})" for i, e in enumerate(existing)
        ]

        def check(a: JudgeAnswer) -> None:
            if a.action == "create":
                return
            if a.target is None or not 0 <= a.target < len(existing):
                raise ValueError(f"target must be 0-{len(existing) - 1} for {a.action}")

        ans = self._ask(JUDGE_SYSTEM, "\n".join(lines), JudgeAnswer, call, check)
        target = None if ans.action == "create" else ans.target
        return JudgeDecision(ans.action, target, ans.reason or f"{self.model} judged {ans.action}")

    def extract(
        self, window: Sequence[WindowTurn], instructions: str, types: Sequence[str], call: ModelCall
    ) -> list[dict[str, Any]]:
        turns = "\n".join(
            json.dumps(
                {
                    "seq": t.seq,
                    "speaker": t.speaker or t.role,
                    "said_at": t.created_at.isoformat(),
                    "text": t.text,
                    **({"context_only": True} if t.context else {}),
                }
            )
            for t in window
        )
        user = (
            f"Allowed types: {', '.join(types)}.\n"
            + (f"What is worth remembering here: {instructions}\n" if instructions else "")
            + f"Turns:\n{turns}"
        )
        ans = self._ask(EXTRACT_SYSTEM, user, ExtractAnswer, call)
        return [dict(item, source="machine") for item in ans.items]

    def propose_links(
        self, source: LinkNode, candidates: Sequence[LinkNode], call: ModelCall
    ) -> list[LinkProposal]:
        """Links as the model proposes them, candidates numbered from 0 (never record ids)."""
        if not candidates:
            return []
        lines = [f"SOURCE: {_link_line(source, source)}", "CANDIDATES:"]
        lines += [f"{i}: {_link_line(c, source)}" for i, c in enumerate(candidates)]
        ans = self._ask(LINK_SYSTEM, "\n".join(lines), LinksAnswer, call)
        return [LinkProposal(p.target, p.type, p.confidence) for p in ans.links]

    def summarise(
        self,
        texts: Sequence[str],
        call: ModelCall,
        vectors: np.ndarray | None = None,
        max_words: int = 60,
    ) -> str:
        """Abstractive, through the chat endpoint; `vectors` are not needed here."""
        # A summary well past the asked length is as unusable as a malformed one: retried.
        limit = max_words * 3 // 2

        def check(a: SummaryAnswer) -> None:
            words = len(a.summary.split())
            if not a.summary.strip() or words > limit:
                raise ValueError(f"summary must be 1-{limit} words, got {words}")

        user = "\n".join(f"{i}. {t}" for i, t in enumerate(texts, start=1))
        system = SUMMARISE_SYSTEM.format(max_words=max_words)
        return " ".join(self._ask(system, user, SummaryAnswer, call, check).summary.split())

    def rerank(self, query: str, texts: Sequence[str], call: ModelCall) -> list[int]:
        """The model orders the passages, shown as 0..n-1 (never by database id)."""
        user = f"Question: {query}\n" + "\n".join(f"{i}. {t}" for i, t in enumerate(texts))

        def check(a: RerankAnswer) -> None:
            check_order(a.order, len(texts))

        return check_order(
            self._ask(RERANK_SYSTEM, user, RerankAnswer, call, check).order, len(texts)
        )

    def contradicts(self, a: str, b: str, call: ModelCall) -> Contradiction:
        """The model's judgement on two records, shown as A and B (never by database id)."""
        ans = self._ask(CONTRADICT_SYSTEM, f"A: {a}\nB: {b}", ContradictionAnswer, call)
        verdict = "contradicts" if ans.contradicts else "no contradiction"
        return Contradiction(ans.contradicts, ans.reason or f"{self.model}: {verdict}")
