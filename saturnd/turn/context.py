"""Everything one turn carries from start to end."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.events import PlanItem, Receipt, ResponseDelta, ThinkingDelta
from protocol.methods import Attachment, GroundTrace, PassTrace, StepKind
from saturnd.config import Config
from saturnd.egress import EgressOrigin
from saturnd.gate.judge import Judge, JudgeConfig
from saturnd.model.caller import ModelCaller
from saturnd.model.client import ModelClient
from saturnd.model.types import ModelUsage
from saturnd.sessions import Session
from saturnd.store import Store
from saturnd.tools.registry import Registry, ToolEnv
from saturnd.turn import prompts
from saturnd.turn.bounds import Bounds
from saturnd.turn.control import TurnControl
from saturnd.turn.events import TurnEvents
from saturnd.turn.first_move import FirstMove
from saturnd.turn.loop_rules import CallLedger
from saturnd.turn.period import Period
from saturnd.turn.review import Decision
from saturnd.turn.stream_filter import ResponseStream


@dataclass
class Tally:
    """What the receipt counts, filled in as the turn goes."""

    passes: int = 0
    model: ModelUsage = field(default_factory=ModelUsage)
    """Filled in by the turn's model caller."""
    tool_passes: int = 0
    """Passes whose tool calls were reviewed and run: what runtime.max_iterations bounds."""
    tool_fates: Counter[str] = field(default_factory=Counter)
    thinking_s: float = 0.0
    started: float = field(default_factory=time.monotonic)

    def receipt(self, plan: list[PlanItem] | None = None, note: str = "") -> Receipt:
        return Receipt(
            plan=plan or [], note=note,
            passes=self.passes,
            model_calls=self.model.calls,
            tool_calls=sum(self.tool_fates.values()),
            tool_fates=dict(self.tool_fates),
            thinking_s=round(self.thinking_s, 3),
            wall_s=round(time.monotonic() - self.started, 3),
            tokens_in=self.model.tokens_in,
            tokens_out=self.model.tokens_out,
            tokens_cached=self.model.tokens_cached,
        )


@dataclass
class TurnContext:
    turn_id: str
    session: Session
    text: str
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
    note: str = ""
    """The answer's note (why the turn ended early, an unbacked claim), once it has answered."""
    history_note: str = ""
    """Which earlier turns were left out of the request to stay within runtime.history_tokens."""
    judge: Judge = field(default_factory=lambda: Judge(JudgeConfig()))
    allow: list[str] = field(default_factory=list)
    """Tools pre-approved for this turn."""
    tool_mode: str = "auto"
    """native | constrained | auto, resolved for this endpoint."""
    think_policy: str = "act"
    """The thinking policy for this turn (the session's /think, or the turn's --think)."""
    ground: GroundTrace = field(default_factory=GroundTrace)
    """What the ground found for this turn (folder map, ranked excerpts)."""
    shown: list[tuple[str, str, bool]] = field(default_factory=list)
    """(source, text, whole file) of each excerpt the ground showed: the gate counts them as read."""
    reviewed: dict[str, Decision] = field(default_factory=dict)
    """call_id -> how review decided it: what explain reports."""
    step: StepKind = "first_move"
    """What kind of step the coming pass is, set by what happened last."""
    caller_history: list[dict[str, Any]] | None = None
    """The conversation a front-door caller sent before its request: it stands in for the
    session's earlier turns."""
    move: FirstMove | None = None
    """The first move the model chose for this request (first_move.py), when the server could say."""
    file_names: str = ""
    """The working folder's file names, as the ground mapped them: what the first move may look up."""
    first_move_note: str = ""
    """The first move as the trace shows it: the route, its probability, how long the decision took."""
    must_call: tuple[str, ...] = ()
    """The coming pass offers only these tools and no answer (the first move's route)."""
    steps_after: list[tuple[str, ...]] = field(default_factory=list)
    """The passes after it, each offering only these (a message's look-up or send, then its send)."""
    no_tool_fits: bool = False
    """The first move was that no tool can do what is asked: the passes offer none."""
    period: Period | None = None
    """The time the question is about, as the model read it (period.py): a query's rows are checked against it."""
    asked_which: bool = False
    """The person was asked, before the first pass, which of several entries their words fit."""
    sent_back: set[str] = field(default_factory=set)
    """The kinds of check (checks.Finding.kind) an answer already went back to the model for, and
    the once-a-turn steps already taken ("ran_on": asked again after a run-on; "resend": the send
    step after a refused recipient)."""
    told: list[str] = field(default_factory=list)
    """What those checks told the model: an answer that copies it goes back too."""
    opening: int = 0
    """How many messages the turn opened with (ground, earlier turns, the request): the assistant
    messages after them are the model's own words this turn, no source of a figure."""
    worked: list[str] = field(default_factory=list)
    """What calculate worked out this turn, as it said it: shown to the user with the answer."""
    unanswered: dict[str, str] = field(default_factory=dict)
    """call_id -> tool name of calls stored without a result yet: a turn cut by its budget answers them."""

    @property
    def person_present(self) -> bool:
        """Someone can answer ask_user (service.ask_person gives NO_ANSWER otherwise)."""
        return not self.headless and bool(self.events.subscribers)

    def __post_init__(self) -> None:
        self.bounds = Bounds.from_config(self.config.runtime)
        self.caller = ModelCaller(
            model=self.model,
            registry=self.registry,
            control=self.control,
            open_response=lambda hold_all: ResponseStream(self._show_response, hold_all=hold_all),
            show_thinking=lambda text: self.events.emit(ThinkingDelta(text=text)),
            origin=EgressOrigin(self.session_id, self.turn_id, tool="model"),
            tool_mode=self.tool_mode,
            think_budget=self.config.runtime.think_budget,
            fixed_opening=prompts.SYSTEM,
            think_switch=self.config.model.think_style != "none",
            usage=self.tally.model,
        )

    def _show_response(self, text: str) -> None:
        self.events.emit(ResponseDelta(text=text))

    @property
    def session_id(self) -> str:
        return self.session.id

    @property
    def cwd(self) -> str:
        return self.session.cwd
