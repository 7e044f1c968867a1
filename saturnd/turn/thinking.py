"""Whether a pass thinks: decided by the harness from the kind of step, never by the model.

The step kind is state on the turn, set by what happened last (a tool round
with or without a setback, a steer, a claim sent back, a bound); the policy
maps a step to off, think, or draft (act: draft with thinking off, and think
only if the draft calls a tool; act_on_changes: only if it calls a tool that
changes, sends or reaches outside: a look is kept as drafted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from protocol.methods import StepKind
from saturnd.model.types import ToolCall

LEVELS = ("off", "auto", "on")
"""What users choose. `auto` is the act policy; `adaptive` (the v1 rule) is kept as a legacy name."""
POLICIES = ("off", "act", "on", "adaptive", "first_move", "first_and_errors", "act_no_steer", "act_on_changes")
"""Every policy selectable by name (the benchmark compares them all)."""
ALIASES = {"auto": "act"}


DRAFTING = ("act", "act_no_steer", "act_on_changes")
"""The policies that draft with thinking off and rethink a draft that calls a tool."""


def policy_name(value: str) -> str | None:
    """The policy a level or name means, or None if there is no such thing."""
    name = ALIASES.get(value, value)
    return name if name in POLICIES else None


def think_level(policy: str) -> str:
    """The level a user would name for a policy (act -> auto); other names stay as they are."""
    return next((level for level, name in ALIASES.items() if name == policy), policy)


def unknown_level_message(value: str) -> str:
    return (
        f"unknown thinking level {value!r}: use off, auto or on"
        f" (also accepted: adaptive, act, and the benchmark policies {', '.join(POLICIES[4:])})"
    )


@dataclass(frozen=True)
class ThinkPlan:
    mode: Literal["off", "think", "draft"]
    reason: str
    looks_are_final: bool = False
    """A draft that only looks (every call read-only) is kept as drafted, without a rethink."""


def think_plan(policy: str, step: StepKind, *, forced: bool = False) -> ThinkPlan:
    """`forced`: the pass must call one of a few tools. Under act it does not think: in such a pass
    every draft calls a tool, so each one thought (one thought ran 119 s to its token budget)."""
    if step == "wrap_up":
        return ThinkPlan("off", "a wrap-up pass never thinks")
    if policy == "off":
        return ThinkPlan("off", "thinking is off")
    if policy == "on":
        return ThinkPlan("think", "thinking is on")
    if forced and policy in DRAFTING:
        return ThinkPlan("off", "a forced call: the tools offered decide")
    if policy in DRAFTING:
        if step == "recovery":
            return ThinkPlan("think", "after a tool error")
        if step == "steered" and policy != "act_no_steer":
            return ThinkPlan("think", "after a steer")
        if policy == "act_on_changes":
            return ThinkPlan(
                "draft", "draft first; think only if it calls a tool that changes something", looks_are_final=True,
            )
        return ThinkPlan("draft", "draft first; think only if it calls a tool")
    if policy == "adaptive" and step == "recovery":
        return ThinkPlan("think", "after a tool error (v1 rule)")
    if policy in ("first_move", "first_and_errors") and step == "first_move":
        return ThinkPlan("think", "on the first move")
    if policy == "first_and_errors" and step == "recovery":
        return ThinkPlan("think", "after a tool error")
    return ThinkPlan("off", f"{policy} does not think on a {step.replace('_', ' ')} step")


def rethinks(plan: ThinkPlan, risks: list[str]) -> bool:
    """Whether a draft whose calls carry these risk classes is pulled back to think.

    `looks_are_final` (act_on_changes): a look (read-only) costs little when wrong, and its result
    corrects the next pass; a call that writes, runs, sends or reaches outside is rethought before
    it goes. Measured against act on the tasks that think, it lost the errands where the rethought
    look picked the right source (bench/results/README.md, stop 25), so act rethinks every call."""
    return plan.mode == "draft" and bool(risks) and not (plan.looks_are_final and set(risks) == {"read_only"})


def rethink_outcome(draft: list[ToolCall], thought: list[ToolCall]) -> str:
    """What the thinking rerun did to the draft's call, for the trace: the evidence for whether the
    rerun pays (a rerun that keeps the call costs a thought and buys nothing)."""
    drafted = ", ".join(c.name for c in draft)
    if not thought:
        return f"the thought answered instead of calling {drafted}"
    if [c.name for c in thought] != [c.name for c in draft]:
        return f"the thought changed the call: {drafted} -> {', '.join(c.name for c in thought)}"
    if [_arguments(c) for c in thought] != [_arguments(c) for c in draft]:
        return f"the thought changed {drafted}'s arguments"
    return f"the thought kept the draft's call to {drafted}"


def _arguments(call: ToolCall) -> object:
    try:
        return json.loads(call.arguments)
    except ValueError:
        return call.arguments
