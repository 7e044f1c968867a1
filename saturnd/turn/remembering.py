"""Memory inside a turn: what the gate needs to decide `remember`, and saving what it let through."""

from __future__ import annotations

from protocol.events import MemoryCandidate, Remembered
from saturnd.memory.remember import MemoryGate, RememberDecision, keep_fact
from saturnd.memory.stated_facts import stated_facts
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


def review_of(turn: TurnContext, fact: str) -> RememberDecision:
    """Review's decision on the `remember` call carrying `fact` (the latest, should the model
    have sent it twice). The tool runs only after review, so there always is one."""
    for reviewed in reversed(turn.reviewed.values()):
        if reviewed.remember is not None and reviewed.arguments.get("fact") == fact:
            return reviewed.remember
    raise AssertionError(f"remember ran without review: {fact!r}")


async def save_fact(turn: TurnContext, fact: str) -> str:
    """Carries out review's decision, without deciding again: saved silently when the words are
    the user's, or after the person approved the call."""
    decided = review_of(turn, fact)
    provenance = "said" if decided.outcome == "save" else "approved"
    kept = keep_fact(
        turn.store.memory, fact, provenance, turn.session_id, decided.sentence, decided.reason
    )
    turn.events.emit(Remembered(
        number=kept.fact.number, text=kept.fact.text, provenance=provenance, line=kept.line,
        similar=kept.similar,
    ))
    return f"remembered #{kept.fact.number}"


def queue_missed_facts(turn: TurnContext) -> None:
    """What the user stated and the model did not remember goes to the review queue."""
    if memory_off_reason(turn, turn.session.flags):
        return
    known = turn.store.memory.known()
    for fact in stated_facts(turn.text):
        if fact.lower() in known:
            continue
        candidate = turn.store.memory.propose(turn.session_id, fact, "catch")
        turn.events.emit(MemoryCandidate(
            id=candidate.id, text=fact,
            line=f"not remembered yet: {fact} · saturn memory accept {candidate.id} keeps it",
        ))
