"""What the model client hands the turn: engine types, not wire types."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """The arguments exactly as the model wrote them (a JSON text, maybe malformed)."""
    recovered_from_text: bool = False
    """True when parsed out of the reply's text rather than native `tool_calls`."""


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token with its log-probability and the server's most likely alternatives."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()
    """(token, logprob) of the likeliest candidates at this position, best first."""


@dataclass
class Usage:
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    """Prompt tokens the server reused from its cache rather than evaluating them again."""


@dataclass
class ModelReply:
    content: str = ""
    """The answer text, with any inline <think> removed."""
    reasoning: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = ""
    thinking_s: float = 0.0
    logprobs: list[TokenLogprob] | None = None
    """The tokens' log-probabilities, when asked for and sent (None: the server sent none)."""


@dataclass
class ModelUsage:
    """What a turn's model calls have cost so far."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
