"""The rule that decides whether a `remember` call's fact is kept silently, asked, or refused,
and keeping a fact once it is decided."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from saturnd.memory.fact_store import Fact, FactStore
from saturnd.memory.facts import find_similar, is_rule, normalize_fact, too_long
from saturnd.memory.own_words import words_are_yours
from saturnd.memory.secrets import secret_refusal

REMEMBER = "remember"
"""The tool's name (tools/harness.py builds the tool): the one call review decides by memory's rule."""


@dataclass(frozen=True)
class MemoryGate:
    """What decides a `remember` call, besides the fact itself."""

    user_messages: tuple[str, ...] = ()
    tainted: bool = False
    resumed: bool = False
    off_reason: str = ""
    """Non-empty: nothing is saved in this turn at all (incognito, auto_learn off, saturn -p)."""


@dataclass(frozen=True)
class RememberDecision:
    outcome: str
    """save (silently: the words are yours) | ask | refuse."""
    reason: str
    sentence: str = ""


def decide_remember(fact: str, gate: MemoryGate) -> RememberDecision:
    refusal = secret_refusal(fact) or too_long(normalize_fact(fact))
    if refusal:
        return RememberDecision("refuse", refusal)
    if gate.off_reason:
        return RememberDecision("refuse", f"not saved: {gate.off_reason}")
    verdict = words_are_yours(fact, list(gate.user_messages), gate.tainted, gate.resumed)
    if verdict.ok:
        return RememberDecision("save", verdict.reason, verdict.sentence)
    return RememberDecision("ask", verdict.reason)


@dataclass(frozen=True)
class Kept:
    fact: Fact
    line: str
    """What the person is shown: remembered #N, how, and how to undo it."""
    similar: str
    """A stored fact the new one may contradict, as a line; "" when none."""


def keep_fact(
    memory: FactStore, text: str, provenance: str, session_id: str = "", sentence: str = "",
    verdict: str = "",
) -> Kept:
    """Stores a fact already decided on (by review, or by the person's own command)."""
    text = normalize_fact(text)
    similar = find_similar(text, [(f.number, f.text) for f in memory.active()])
    fact = memory.add(text, kind_of(text), provenance, session_id, sentence, verdict)
    return Kept(fact, remembered_line(fact), similar_line(*similar) if similar else "")


def kind_of(fact: str) -> str:
    return "rule" if is_rule(fact) else "fact"


def remembered_line(fact: Fact) -> str:
    how = {"said": "you said it", "approved": "you approved it", "added": "you added it",
           "review": "from your review", "imported": "imported"}[fact.provenance]
    return f"remembered #{fact.number}: {fact.text} — {how} · /memory forget {fact.number} undoes it"


def similar_line(number: int, text: str) -> str:
    return f'similar: #{number} "{text}" — /memory forget {number} if that is no longer true'


def memory_block(facts: list[Fact]) -> str:
    """The rules layer (every request) and the dated facts, with what outranks what."""
    rules = [f for f in facts if f.kind == "rule"]
    dated = [f for f in facts if f.kind != "rule"]
    parts = []
    if rules:
        parts.append("The user's standing rules (follow them on every request):\n"
                     + "\n".join(f"- {f.text}" for f in rules))
    if dated:
        lines = [f"- {_date(f.created_at)}: {f.text} (#{f.number}, {f.provenance})" for f in dated]
        parts.append(
            "What the user told you earlier, dated. A later fact outranks an earlier one; what the"
            " user says now and what a tool returns now outrank all of it:\n" + "\n".join(lines)
        )
    return "\n\n".join(parts)


def _date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d")
