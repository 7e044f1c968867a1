"""The memory/* methods: list, forget, add, why, review, queue, accept, reject, import."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from protocol.jsonrpc import InvalidParams, NotFound
from protocol.methods import (
    CandidateInfo,
    CandidateRefParams,
    Empty,
    FactInfo,
    MemoryAddParams,
    MemoryAddResult,
    MemoryImportParams,
    MemoryListResult,
    MemoryNumberParams,
    MemoryQueueResult,
    MemoryWhyResult,
    Ok,
    SessionRefParams,
)
from saturnd.memory.fact_store import Candidate, Fact
from saturnd.memory.facts import normalize_fact, too_long
from saturnd.memory.remember import keep_fact
from saturnd.memory.secrets import find_secret, secret_refusal
from saturnd.model.endpoint import ModelEndpointManager
from saturnd.store import Store

REVIEW_PROMPT = (
    "From the conversation below, list facts about the user worth remembering in later"
    " conversations: what they stated about themselves, their people, their preferences and their"
    " standing rules. One per line, in the user's own words. If there are none, answer NONE."
)
IMPORT_CHECK = "imported facts are never saved silently: accept or reject each"
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


def fact_info(fact: Fact) -> FactInfo:
    return FactInfo(
        number=fact.number, text=fact.text, kind=fact.kind, provenance=fact.provenance,
        created_at=fact.created_at, session_id=fact.session_id, sentence=fact.sentence,
        verdict=fact.verdict,
    )


def review_messages(conversation: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The review pass sees only the conversation's own words: what the user typed and what
    Saturn answered — never a tool result, never a summary (seed 001)."""
    said = [
        {"role": m["role"], "content": m["content"]}
        for m in conversation
        if (m["role"] == "user" or (m["role"] == "assistant" and not m.get("tool_calls")))
        and m["content"].strip()
    ]
    return [{"role": "system", "content": REVIEW_PROMPT}, *said]


def candidates_from(reply: str) -> list[str]:
    lines = [_BULLET.sub("", line).strip() for line in reply.splitlines()]
    return [line for line in lines if line and line.upper().rstrip(".") != "NONE"]


class MemoryMethods:
    def __init__(self, store: Store, endpoint: ModelEndpointManager) -> None:
        self._store = store
        self._endpoint = endpoint

    def handlers(self) -> dict[str, Any]:
        return {
            "memory/list": self.list,
            "memory/forget": self.forget,
            "memory/add": self.add,
            "memory/why": self.why,
            "memory/review": self.review,
            "memory/queue": self.queue,
            "memory/accept": self.accept,
            "memory/reject": self.reject,
            "memory/import": self.import_lines,
        }

    async def list(self, params: Empty, connection: Any) -> MemoryListResult:
        return MemoryListResult(facts=[fact_info(f) for f in self._store.memory.active()])

    async def forget(self, params: MemoryNumberParams, connection: Any) -> Ok:
        if not self._store.memory.forget(params.number):
            raise NotFound(f"no remembered fact #{params.number}")
        return Ok()

    async def add(self, params: MemoryAddParams, connection: Any) -> MemoryAddResult:
        return self._save(params.text, "added")

    def _save(self, text: str, provenance: str, session_id: str = "") -> MemoryAddResult:
        text = normalize_fact(text)
        if not text:
            raise InvalidParams("the fact is empty")
        refusal = secret_refusal(text) or too_long(text)
        if refusal:
            raise InvalidParams(refusal)
        kept = keep_fact(self._store.memory, text, provenance, session_id, verdict=f"{provenance} by you")
        return MemoryAddResult(fact=fact_info(kept.fact), line=kept.line, similar=kept.similar)

    async def why(self, params: MemoryNumberParams, connection: Any) -> MemoryWhyResult:
        fact = self._store.memory.get(params.number)
        if fact is None:
            raise NotFound(f"no remembered fact #{params.number}")
        return MemoryWhyResult(fact=fact_info(fact), explanation=explain(fact))

    async def review(self, params: SessionRefParams, connection: Any) -> MemoryQueueResult:
        if self._store.get_session(params.session_id) is None:
            raise NotFound(f"no session {params.session_id!r}")
        flags = self._store.session_flags(params.session_id)
        if flags.incognito:
            raise InvalidParams("an incognito session is never reviewed")
        conversation = [
            {"role": m.role, "content": m.content, "tool_calls": m.tool_calls}
            for m in self._store.messages(params.session_id, since=flags.cleared_at)
        ]
        model = await self._endpoint.client()
        reply = await model.complete(review_messages(conversation), think=False)
        known = self._store.memory.known()
        queued = []
        for text in candidates_from(reply.content):
            text = normalize_fact(text)
            if find_secret(text) or too_long(text) or text.lower() in known:
                continue
            queued.append(self._store.memory.propose(params.session_id, text, "review"))
        return MemoryQueueResult(candidates=[_candidate(c) for c in queued])

    async def queue(self, params: Empty, connection: Any) -> MemoryQueueResult:
        return MemoryQueueResult(candidates=[_candidate(c) for c in self._store.memory.pending()])

    def _pending(self, candidate_id: int) -> Candidate:
        candidate = self._store.memory.candidate(candidate_id)
        if candidate is None or candidate.status != "pending":
            raise NotFound(f"no pending candidate {candidate_id}")
        return candidate

    async def accept(self, params: CandidateRefParams, connection: Any) -> MemoryAddResult:
        candidate = self._pending(params.id)
        provenance = "imported" if candidate.source == "imported" else "review"
        saved = self._save(candidate.text, provenance, candidate.session_id)
        self._store.memory.settle(candidate.id, "accepted")
        return saved

    async def reject(self, params: CandidateRefParams, connection: Any) -> Ok:
        self._store.memory.settle(self._pending(params.id).id, "rejected")
        return Ok()

    async def import_lines(self, params: MemoryImportParams, connection: Any) -> MemoryQueueResult:
        results = []
        for line in params.lines:
            text = normalize_fact(line)
            if not text:
                continue
            refusal = secret_refusal(text) or too_long(text)
            if refusal:
                results.append(CandidateInfo(id=0, text=text, source="imported", check=refusal))
                continue
            candidate = self._store.memory.propose("", text, "imported")
            results.append(_candidate(candidate))
        return MemoryQueueResult(candidates=results)


CANDIDATE_CHECKS = {
    "imported": IMPORT_CHECK,
    "review": "proposed by the session review",
    "catch": "you stated it and the model did not remember it",
}


def _candidate(candidate: Candidate) -> CandidateInfo:
    check = CANDIDATE_CHECKS[candidate.source]
    return CandidateInfo(
        id=candidate.id, text=candidate.text, source=candidate.source,
        session_id=candidate.session_id, check=check,
    )


def explain(fact: Fact) -> str:
    when = datetime.fromtimestamp(fact.created_at).strftime("%Y-%m-%d %H:%M")
    how = {
        "said": "saved without asking because you said it",
        "approved": "saved after you approved it",
        "review": "accepted by you from a session review",
        "added": "added by you with /memory add",
        "imported": "imported and accepted by you",
    }[fact.provenance]
    lines = [f'#{fact.number} "{fact.text}" ({fact.kind}): {how}, {when}.']
    if fact.sentence:
        lines.append(f'From your sentence: "{fact.sentence}"')
    if fact.verdict:
        lines.append(f"The check said: {fact.verdict}.")
    if fact.kind == "rule":
        lines.append("As a rule it is put in front of the model on every request.")
    return "\n".join(lines)
