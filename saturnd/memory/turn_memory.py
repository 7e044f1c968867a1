"""Memory inside a turn: what the gate needs to decide `remember`, and saving what it let through."""

from __future__ import annotations

from protocol.events import MemoryCandidate, Remembered
from saturnd.memory.catch import stated_facts
from saturnd.memory.facts import find_similar, normalize_fact
from saturnd.memory.remember import (
    MemoryGate,
    decide_remember,
    kind_of,
    remembered_line,
    similar_line,
)
from saturnd.sessions import SessionState
from saturnd.store import SessionFlags
from saturnd.turn.context import TurnContext


def memory_gate(turn: TurnContext, session: SessionState) -> MemoryGate:
    return MemoryGate(
        user_messages=session.typed,
        tainted=session.flags.tainted,
        resumed=session.flags.resumed,
        off_reason=memory_off_reason(turn, session.flags),
    )


def memory_off_reason(turn: TurnContext, flags: SessionFlags) -> str:
    """Why nothing may be remembered in this turn, or "" when memory is on."""
    off = ""
    if flags.incognito:
        off = "this is an incognito session"
    elif turn.headless:
        off = "saturn -p never saves memories"
    elif not turn.config.memory.auto_learn:
        off = "memory.auto_learn is off"
    return off


async def save_fact(turn: TurnContext, fact: str) -> str:
    """Runs only after review let the call through (silently, or by the person's approval)."""
    decided = decide_remember(fact, memory_gate(turn, turn.session.read()))
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
    if memory_off_reason(turn, turn.session.flags):
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
