"""Memory inside a turn: what the gate needs to decide `remember`, and saving what it let through."""

from __future__ import annotations

from protocol.events import MemoryCandidate, Remembered
from saturnd.memory.facts import find_similar, normalize_fact
from saturnd.memory.remember import (
    MemoryGate,
    decide_remember,
    kind_of,
    remembered_line,
    similar_line,
)
from saturnd.memory.stated_facts import stated_facts
from saturnd.store import MessageRow
from saturnd.turn import prompts
from saturnd.turn.context import TurnContext


def memory_gate(turn: TurnContext, conversation: list[MessageRow] | None = None) -> MemoryGate:
    """`conversation`: the session's messages since /clear, if the caller already read them."""
    incognito, resumed, cleared_at = turn.store.session_flags(turn.session_id)
    if conversation is None:
        conversation = turn.store.messages(turn.session_id, since=cleared_at)
    typed = [
        m.content.removeprefix(prompts.STEER_PREFIX) for m in conversation if m.role == "user"
    ]
    off = ""
    if incognito:
        off = "this is an incognito session"
    elif turn.headless:
        off = "saturn -p never saves memories"
    elif not turn.config.memory.auto_learn:
        off = "memory.auto_learn is off"
    return MemoryGate(
        user_messages=tuple(typed),
        tainted=turn.store.tainted_at(turn.session_id) is not None,
        resumed=resumed,
        off_reason=off,
    )


async def save_fact(turn: TurnContext, fact: str) -> str:
    """Runs only after review let the call through (silently, or by the person's approval)."""
    decided = decide_remember(fact, memory_gate(turn))
    if decided.outcome == "refuse":
        return decided.reason
    provenance = "said" if decided.outcome == "save" else "approved"
    memory = turn.store.memory
    text = normalize_fact(fact)
    similar = find_similar(text, [(f.number, f.text) for f in memory.active()])
    stored = memory.add(text, kind_of(text), provenance, turn.session_id, decided.sentence, decided.reason)
    turn.events.emit(Remembered(
        number=stored.number,
        text=stored.text,
        provenance=provenance,
        line=remembered_line(stored),
        similar=similar_line(*similar) if similar else "",
    ))
    return f"remembered #{stored.number}"


def queue_missed_facts(turn: TurnContext) -> None:
    """What the user stated and the model did not remember goes to the review queue."""
    if memory_gate(turn).off_reason:
        return
    memory = turn.store.memory
    known = {f.text.lower() for f in memory.active()} | {c.text.lower() for c in memory.pending()}
    for fact in stated_facts(turn.text):
        if fact.lower() in known:
            continue
        candidate = memory.propose(turn.session_id, fact, "catch")
        turn.events.emit(MemoryCandidate(
            id=candidate.id, text=fact,
            line=f"not remembered yet: {fact} · saturn memory accept {candidate.id} keeps it",
        ))
