"""Tools that act on the turn itself: the plan checklist and ask_user. Neither faces the gate."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from protocol.events import PlanItem
from saturnd.memory.remember import REMEMBER
from saturnd.tools.registry import Tool, ToolEnv


class PlanStep(msgspec.Struct, forbid_unknown_fields=True):
    text: str
    status: Literal["pending", "in_progress", "done", "skipped"] = "pending"


class PlanParams(msgspec.Struct, forbid_unknown_fields=True):
    items: list[PlanStep]


async def _plan(params: PlanParams, env: ToolEnv) -> str:
    env.on_plan([PlanItem(text=step.text, status=step.status) for step in params.items])
    done = sum(step.status == "done" for step in params.items)
    return f"plan recorded: {done} of {len(params.items)} done"


PLAN = Tool(name="plan", description="Record or update the checklist for a task needing several tool calls.",
            params=PlanParams, run=_plan)


class AskUserParams(msgspec.Struct, forbid_unknown_fields=True):
    question: Annotated[str, msgspec.Meta(min_length=1)]


async def _ask_user(params: AskUserParams, env: ToolEnv) -> str:
    return await env.ask(params.question)


ASK_USER = Tool(name="ask_user", description="Ask the user one question when a needed value is missing.",
                params=AskUserParams, run=_ask_user, waits_for_person=True,
                timeout_s=86_400.0)  # a person answers in their own time; the turn's controls still apply

class RememberParams(msgspec.Struct, forbid_unknown_fields=True):
    fact: str


async def _remember(params: RememberParams, env: ToolEnv) -> str:
    return await env.remember(params.fact)


REMEMBER_TOOL = Tool(name=REMEMBER,
                     description="Keep a fact or rule the user just stated about themselves, in their words.",
                     params=RememberParams, run=_remember)
"""Whether a fact is kept silently, asked or refused is decided by review (saturnd.memory)."""

HARNESS_TOOLS = [PLAN, ASK_USER, REMEMBER_TOOL]
