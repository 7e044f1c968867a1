"""The `remember` tool and the rule that decides whether a fact is kept silently, asked, or refused."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from saturnd.memory.fact_store import Fact
from saturnd.memory.facts import is_rule
from saturnd.memory.own_words import words_are_yours
from saturnd.memory.secrets import find_secret
from saturnd.tools.harness import REMEMBER_TOOL

REMEMBER = REMEMBER_TOOL.name


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
    secret = find_secret(fact)
    if secret:
        return RememberDecision("refuse", f"refused: that looks like {secret}; Saturn never keeps secrets")
    if gate.off_reason:
        return RememberDecision("refuse", f"not saved: {gate.off_reason}")
    verdict = words_are_yours(fact, list(gate.user_messages), gate.tainted, gate.resumed)
    if verdict.ok:
        return RememberDecision("save", verdict.reason, verdict.sentence)
    return RememberDecision("ask", verdict.reason)


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
