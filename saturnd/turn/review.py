"""Review: what happens to each call a pass proposed, before anything runs.

Cap -> ask_user alone -> validation -> loop rules -> gate. Pure: the loop
runs what comes back approved and sends the rest their results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from saturnd.model.types import ToolCall
from saturnd.tools.registry import Registry, Tool
from saturnd.turn.loop_rules import CallLedger, call_signature
from saturnd.turn.validation import Invalid, validate_call

ASK_USER = "ask_user"
ASK_FIRST = "not run: ask first. ask_user runs alone; call this again after the user answers."


@dataclass(frozen=True)
class Decision:
    call: ToolCall
    fate: str
    """approved | ask_user | invalid | refused_loop | declined | ask_first | capped."""
    result: str = ""
    """What the model is sent for a call that does not run."""
    tool: Tool | None = None
    params: Any = None
    signature: str = ""

    @property
    def runs(self) -> bool:
        return self.fate in ("approved", "ask_user")


def gate(tool: Tool) -> str | None:
    """Until the approval gate exists: read-only tools run, anything else is declined."""
    if tool.risk == "read_only":
        return None
    return (
        f"declined: '{tool.name}' is a {tool.risk} tool and this Saturn runs only read-only"
        " tools without approval. Say what you would have done instead."
    )


def review_calls(
    calls: list[ToolCall], registry: Registry, ledger: CallLedger, max_calls: int
) -> list[Decision]:
    kept, beyond = calls[:max_calls], calls[max_calls:]
    asks = [c for c in kept if c.name == ASK_USER]
    decisions: list[Decision] = []
    for call in kept:
        if asks and call is not asks[0]:
            decisions.append(Decision(call, "ask_first", ASK_FIRST))
        else:
            decisions.append(_review_one(call, registry, ledger))
    decisions += [Decision(c, "capped") for c in beyond]
    return decisions


def _review_one(call: ToolCall, registry: Registry, ledger: CallLedger) -> Decision:
    checked = validate_call(call, registry)
    if isinstance(checked, Invalid):
        return Decision(call, "invalid", f"tool error: {checked.message}")
    signature = call_signature(call.name, checked.arguments)
    fields = {"tool": checked.tool, "params": checked.params, "signature": signature}
    if call.name == ASK_USER:
        return Decision(call, "ask_user", **fields)
    refusal = ledger.refusal(signature)
    if refusal is not None:
        fate, why = refusal
        return Decision(call, fate, why, **fields)
    declined = gate(checked.tool)
    if declined is not None:
        ledger.record_declined(signature)
        return Decision(call, "declined", declined, **fields)
    return Decision(call, "approved", **fields)
