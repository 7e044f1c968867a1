"""Everything one turn carries from start to end."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from protocol.events import PlanItem, Receipt
from protocol.methods import Attachment, PassTrace
from saturnd.config import Config
from saturnd.gate.judge import Judge, JudgeConfig
from saturnd.model.client import ModelClient
from saturnd.store import Store
from saturnd.tools.registry import Registry, ToolEnv
from saturnd.turn.bounds import Bounds
from saturnd.turn.control import TurnControl
from saturnd.turn.events import TurnEvents
from saturnd.turn.loop_rules import CallLedger
from saturnd.turn.review import Decision


@dataclass
class Tally:
    """What the receipt counts, filled in as the turn goes."""

    passes: int = 0
    model_calls: int = 0
    tool_passes: int = 0
    """Passes whose tool calls were reviewed and run: what runtime.max_iterations bounds."""
    tool_fates: Counter[str] = field(default_factory=Counter)
    thinking_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    started: float = field(default_factory=time.monotonic)

    def receipt(self, plan: list[PlanItem] | None = None) -> Receipt:
        return Receipt(
            plan=plan or [],
            passes=self.passes,
            model_calls=self.model_calls,
            tool_calls=sum(self.tool_fates.values()),
            tool_fates=dict(self.tool_fates),
            thinking_s=round(self.thinking_s, 3),
            wall_s=round(time.monotonic() - self.started, 3),
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
        )


@dataclass
class TurnContext:
    turn_id: str
    session_id: str
    text: str
    cwd: str
    home: Path
    """$SATURN_HOME: standing instructions and the knowledge base."""
    config: Config
    model: ModelClient
    store: Store
    events: TurnEvents
    registry: Registry
    env: ToolEnv
    headless: bool = False
    attachments: list[Attachment] = field(default_factory=list)
    control: TurnControl = field(default_factory=TurnControl)
    ledger: CallLedger = field(default_factory=CallLedger)
    tally: Tally = field(default_factory=Tally)
    trace: list[PassTrace] = field(default_factory=list)
    plan: list[PlanItem] = field(default_factory=list)
    last_text: str = ""
    """The most recent non-empty assistant text: what a bound or failure returns."""
    judge: Judge = field(default_factory=lambda: Judge(JudgeConfig()))
    session_approvals: set[str] = field(default_factory=set)
    """Approval keys the person gave "always" in this session (shared across its turns)."""
    allow: list[str] = field(default_factory=list)
    """Tools pre-approved for this turn."""
    tool_mode: str = "auto"
    """native | constrained | auto, resolved for this endpoint."""
    think_policy: str = "act"
    """The thinking policy for this turn (the session's /think, or the turn's --think)."""
    reviewed: dict[str, Decision] = field(default_factory=dict)
    """call_id -> how review decided it: what explain reports."""

    def __post_init__(self) -> None:
        self.bounds = Bounds.from_config(self.config.runtime)
