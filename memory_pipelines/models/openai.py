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

from memory_pipelines.core.judge import JudgeDecision, JudgeItem
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
    "due time when said). Skip greetings, chatter, restatements, speculation. Answer JSON "
    '{"items": [{"category": one of the allowed types, "context": one-line fact naming '
    'who it is about, "confidence": 1-6, "from_seq": int, "to_seq": int, '
    '"due_at": ISO date or null, "owed_to": name or null}]}.'
)


class JudgeAnswer(BaseModel):
    action: Literal["merge", "supersede", "create"]
    target: int | None = None
    reason: str = ""


class ExtractedItem(BaseModel):
    category: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$")
    context: str = Field(min_length=1, max_length=300)
    confidence: int = Field(ge=1, le=10)
    from_seq: int
    to_seq: int
    due_at: str | None = None
    owed_to: str | None = None


class ExtractAnswer(BaseModel):
    items: list[dict[str, Any]]


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
            resp = self._client.post(
                f"{self.base_url}/chat/completions",
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
            data = resp.json()
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
