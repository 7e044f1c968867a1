"""The model caller: one request in the endpoint's tool mode, read into a usable reply.

Tool modes: `native` sends `tools`; `constrained` sends no tools but a JSON
schema that only admits a real call or an answer (a thinking call's schema
opens with a bounded "thought" the grammar writes); `auto` is native and
retries an unreadable reply in constrained mode. Tool calls a small model
writes as text are recovered in native mode. A thought streams to the turn
and is cut at the token budget, or when the person stops it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from saturnd import egress
from saturnd.model import constrained
from saturnd.model.client import ModelClient, ModelHttpError
from saturnd.model.recovery import recover_tool_calls
from saturnd.model.runaway import RAN_ON, RanOn, RunawayWatch
from saturnd.model.types import ModelReply, ModelUsage, ToolCall

if TYPE_CHECKING:
    from saturnd.tools.registry import Registry

CallMode = Literal["native", "constrained", "plain"]
"""How one request is made: with `tools`, with the JSON schema, or with no tools at all."""


class ThoughtCut(Exception):
    """Raised from the stream to end a thought: at the budget, or stopped by the person."""


class ResponseSink(Protocol):
    """Where a reply's answer text streams to (the turn decides what the person sees)."""

    def feed(self, text: str) -> None: ...

    def finish(self, answer: str | None) -> None: ...


class CallControl(Protocol):
    """What the person can do to a call in flight."""

    def take_stop_thought(self) -> bool:
        """Whether the person asked to stop the live thought (asking again starts afresh)."""
        ...

    def unless_aborted(self, awaitable: Awaitable[ModelReply]) -> Awaitable[ModelReply]: ...


@dataclass(frozen=True)
class Readable:
    """A reply Saturn can use: an answer, or tool calls whose arguments parse."""

    reply: ModelReply
    thought: str = ""
    """What the model thought (on a call without thinking: what the server sent anyway)."""
    remarks: tuple[str, ...] = ()
    """Anything unusual on the way (a retry, reasoning nobody asked for), for the trace."""


@dataclass(frozen=True)
class Unreadable:
    """No usable reply: empty, arguments that are not JSON, or a thought that was cut."""

    problem: str
    thought: str = ""
    cut: str = ""
    """Why the thought was cut (at the budget, stopped by you); empty if it was not."""
    remarks: tuple[str, ...] = ()


READ_CALL_TOKENS = 384
"""A call the pass must make among reading tools is a path, a pattern or one SELECT: this many
tokens hold any of them, and a reply still open here has run on (stop 54: a forced look-up of
2,048 tokens, 140 s, twice)."""


def first_mode(tool_mode: str, tools_offered: bool) -> CallMode:
    if not tools_offered:
        return "plain"
    return "constrained" if tool_mode == "constrained" else "native"


def retry_mode(tool_mode: str, tools_offered: bool) -> CallMode:
    if not tools_offered:
        return "plain"
    return "native" if tool_mode == "native" else "constrained"


def reply_problem(reply: ModelReply) -> str | None:
    """Why this reply cannot be used, or None."""
    if not reply.content.strip() and not reply.tool_calls:
        return "the reply was empty"
    if reply.tool_calls and not any(_is_json_object(c.arguments) for c in reply.tool_calls):
        return "the tool-call arguments were not JSON"
    return None


def _offered(tools: list[dict[str, Any]], only: tuple[str, ...]) -> list[dict[str, Any]]:
    return [t for t in tools if not only or t["function"]["name"] in only]


def whole_calls(reply: ModelReply) -> list[ToolCall]:
    """The reply's streamed calls, marked as read from text, if each has a name and JSON-object
    arguments; else none."""
    if not reply.tool_calls or not all(c.name and _is_json_object(c.arguments) for c in reply.tool_calls):
        return []
    return [dataclasses.replace(c, recovered_from_text=True) for c in reply.tool_calls]


def _is_json_object(text: str) -> bool:
    if not text.strip():
        return True
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


class _Thought:
    """A call's thinking as it streams: shown, counted against the budget, stoppable."""

    def __init__(self, budget: int, show: Callable[[str], object], control: CallControl) -> None:
        self._budget = budget
        self._show = show
        self._control = control
        self._parts: list[str] = []

    def feed(self, text: str) -> None:
        self._parts.append(text)  # one streamed delta is one token on the servers Saturn targets
        self._show(text)
        if self._control.take_stop_thought():
            raise ThoughtCut("stopped by you")
        if len(self._parts) > self._budget:
            raise ThoughtCut(f"at the budget of {self._budget} tokens")

    @property
    def streamed(self) -> bool:
        return bool(self._parts)

    @property
    def text(self) -> str:
        return "".join(self._parts).strip()


@dataclass
class ModelCaller:
    """Makes one turn's model calls and counts what they cost."""

    model: ModelClient
    registry: Registry
    control: CallControl
    open_response: Callable[[bool], ResponseSink]
    """A sink for one reply's answer text; True holds all of it back (constrained JSON is no prose)."""
    show_thinking: Callable[[str], object]
    origin: egress.EgressOrigin
    """Whom the egress log names for these calls."""
    tool_mode: str = "auto"
    """native | constrained | auto, resolved for this endpoint."""
    think_budget: int = 0
    """Tokens a thought may take before it is cut."""
    think_switch: bool = True
    """False when the server has no per-request thinking switch (model.think_style: none)."""
    usage: ModelUsage = field(default_factory=ModelUsage)
    fixed_opening: str = ""
    """The system prompt's opening that never changes: the tool list goes just after it, ahead of
    everything that can change between turns, for the server's prompt cache."""

    async def with_thinking(
        self, messages: list[dict[str, Any]], tools_offered: bool, only: tuple[str, ...] = ()
    ) -> Readable | Unreadable:
        """One call with thinking on, never retried: the caller falls back to one without it.

        `only`: offer just these tools, and no answer (the reply must call one of them)."""
        self.control.take_stop_thought()  # a stop meant for an earlier thought does not carry over
        thought = self._thought()
        try:
            reply, problem = await self._attempt(
                messages, first_mode(self.tool_mode, tools_offered), thought, think=True, only=only
            )
        except ThoughtCut as stop:
            return Unreadable(problem="the thought was cut", thought=thought.text, cut=str(stop))
        if problem:
            return Unreadable(problem=problem, thought=thought.text)
        return Readable(reply, thought.text)

    async def without_thinking(
        self, messages: list[dict[str, Any]], tools_offered: bool, only: tuple[str, ...] = ()
    ) -> Readable | Unreadable:
        """A call with thinking off; an unreadable reply is retried once (constrained for auto)."""
        thought = self._thought()  # a server that thinks anyway is cut at the budget all the same
        mode = first_mode(self.tool_mode, tools_offered)
        reply, problem = await self._thinking_off(messages, mode, thought, only)
        remarks: list[str] = []
        if problem and problem.startswith(RAN_ON) and retry_mode(self.tool_mode, tools_offered) == mode:
            # The same temperature-0 request would run on the same way.
            return Unreadable(problem=problem, thought=thought.text)
        if problem:
            mode = retry_mode(self.tool_mode, tools_offered)
            reply, again = await self._thinking_off(messages, mode, thought, only)
            if again:
                return Unreadable(
                    problem=again, thought=thought.text,
                    remarks=(f"{problem}; retried once in {mode} mode; again: {again}",),
                )
            remarks.append(f"{problem}; retried once in {mode} mode")
        if thought.streamed:
            remarks.append("the server sent reasoning although thinking was off")
        return Readable(reply, thought.text, tuple(remarks))

    def _thought(self) -> _Thought:
        return _Thought(self.think_budget, self.show_thinking, self.control)

    async def _thinking_off(
        self, messages: list[dict[str, Any]], mode: CallMode, thought: _Thought, only: tuple[str, ...]
    ) -> tuple[ModelReply, str | None]:
        try:
            return await self._attempt(messages, mode, thought, think=False, only=only)
        except ThoughtCut as stop:
            return ModelReply(), f"the server thought although thinking was off ({stop})"

    async def _attempt(
        self, messages: list[dict[str, Any]], mode: CallMode, thought: _Thought, think: bool,
        only: tuple[str, ...] = (),
    ) -> tuple[ModelReply, str | None]:
        """One request in `mode`, read; returns the reply and why it is unusable (None: usable)."""
        tools = self.registry.openai_tools(strict=mode == "constrained")
        stream = self.open_response(mode == "constrained")
        try:
            if mode == "constrained":
                reply = await self._constrained(messages, tools, stream, thought, think, only)
                if isinstance(reply, str):
                    return ModelReply(), reply
            else:
                native_tools = _offered(tools, only) if mode == "native" else None
                reply = await self._request(
                    messages, stream, thought, tools=native_tools, think=think, thinking_prompt=think,
                    tool_choice="required" if only and native_tools else None,
                )
        except RanOn as ran_on:
            stream.finish(None)
            return ModelReply(), str(ran_on)
        except ModelHttpError as exc:
            if not exc.is_format_failure:
                raise
            if exc.streamed is not None and (calls := whole_calls(exc.streamed)):
                # llama.cpp streams a call as it parses it, then fails on what follows (the 1.5B
                # closes its call with a code fence): the call itself arrived whole.
                reply = dataclasses.replace(exc.streamed, tool_calls=calls, content="")
                stream.finish(None)
                return reply, None
            return ModelReply(), f"the server could not read the model's output ({exc.server_message})"
        if mode == "native" and not reply.tool_calls and reply.content:
            recovered = recover_tool_calls(reply.content, self.registry.names())
            if recovered.calls:
                reply.tool_calls, reply.content = recovered.calls, recovered.text
        stream.finish(None if reply.tool_calls else reply.content)
        return reply, reply_problem(reply)

    def _only_reads(self, only: tuple[str, ...]) -> bool:
        return all((tool := self.registry.get(name)) is not None and tool.risk in ("read_only", "egress") for name in only)

    async def _constrained(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], stream: ResponseSink,
        thought: _Thought, think: bool, only: tuple[str, ...],
    ) -> ModelReply | str:
        """The reply read from the schema's JSON; why not, when it is not that JSON.

        The instructions list every tool whatever `only` says: only the grammar narrows, so the
        prompt stays the one the server has cached."""
        # The grammar writes the thought, so the server itself is never asked to think.
        budget = self.think_budget if think else 0
        reply = await self._request(
            constrained.with_instructions(messages, constrained.instructions(tools, think), after=self.fixed_opening),
            stream, thought, think=False, thinking_prompt=think,
            response_format=constrained.response_format(tools, budget, only),
            thought_field=constrained.ThoughtField() if think else None,
            max_tokens=READ_CALL_TOKENS + budget if only and self._only_reads(only) else None,
        )
        if (read := constrained.read_reply(reply, self.usage.calls)) is not None:
            return read
        if reply.finish_reason == "length":
            # cut at the token cap: the same temperature-0 request would be cut the same way
            # (stop 54: two forced look-ups of 2,048 tokens each, 294 s, for one errand)
            return f"{RAN_ON} to the token cap, never closing its JSON"
        return "the reply was not the required JSON"

    async def _request(
        self, messages: list[dict[str, Any]], stream: ResponseSink, thought: _Thought, *,
        tools: list[dict[str, Any]] | None = None, think: bool, thinking_prompt: bool,
        response_format: dict[str, Any] | None = None,
        thought_field: constrained.ThoughtField | None = None, tool_choice: str | None = None,
        max_tokens: int | None = None,
    ) -> ModelReply:
        watch = RunawayWatch()

        def on_delta(kind: str, text: str) -> None:
            watch.feed(text)
            if kind == "thinking":
                thought.feed(text)
                return
            stream.feed(text)
            if thought_field is not None and (written := thought_field.feed(text)):
                thought.feed(written)

        self.usage.calls += 1
        with egress.origin(self.origin):
            reply = await self.control.unless_aborted(self.model.complete(
                messages, tools=tools, think=think if self.think_switch else None,
                on_delta=on_delta, response_format=response_format, thinking_prompt=thinking_prompt,
                tool_choice=tool_choice, max_tokens=max_tokens,
            ))
        self.usage.tokens_in += reply.usage.tokens_in
        self.usage.tokens_out += reply.usage.tokens_out
        self.usage.tokens_cached += reply.usage.tokens_cached
        return reply
