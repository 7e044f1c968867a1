"""The judge (seed 003): two surfaces, `tool_call` right before a call runs and `context`
right before a result reaches the model. A block never errors the turn: the model gets
`tool error: blocked by policy: <reason>`.

Rules live in config.yaml; a custom judge is any `module:function` taking
(surface, tool, text) and returning a JudgeVerdict or None (no opinion).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Literal

import msgspec

from protocol.jsonrpc import ConfigError

Surface = Literal["tool_call", "context"]
REDACTED = "[redacted by policy]"


class JudgeRule(msgspec.Struct, forbid_unknown_fields=True):
    surface: Surface
    match: str
    """A regex searched in the call's arguments (tool_call) or the result's text (context)."""
    action: Literal["allow", "block", "redact"]
    tool: str = "*"
    reason: str = ""

    def __post_init__(self) -> None:
        # msgspec turns this into a config error at the rule's path; config names the line
        try:
            re.compile(self.match)
        except re.error as exc:
            raise ValueError(f"match: not a valid regex: {exc}") from None


class JudgeConfig(msgspec.Struct, forbid_unknown_fields=True):
    rules: list[JudgeRule] = []
    entry_point: str = ""
    """module:function for a custom judge, consulted after the rules."""


@dataclass(frozen=True)
class JudgeVerdict:
    action: Literal["allow", "block", "redact"]
    reason: str = ""
    text: str = ""
    """For redact on the context surface: the text the model gets instead."""


ALLOW = JudgeVerdict("allow")
CustomJudge = Callable[[str, str, str], "JudgeVerdict | None"]


class Judge:
    def __init__(self, config: JudgeConfig) -> None:
        try:
            self._rules = [(rule, re.compile(rule.match)) for rule in config.rules]
        except re.error as exc:
            raise ConfigError(f"judge.rules: not a valid regex: {exc}") from exc
        self._custom = _load(config.entry_point) if config.entry_point else None

    def check(self, surface: Surface, tool: str, text: str) -> JudgeVerdict:
        """`text`: the call's arguments as JSON (tool_call) or the result (context)."""
        for rule, pattern in self._rules:
            if rule.surface != surface or not fnmatchcase(tool, rule.tool):
                continue
            if not pattern.search(text):
                continue
            reason = rule.reason or f"matched {rule.match!r}"
            if rule.action == "redact":
                if surface == "tool_call":
                    return JudgeVerdict("block", reason)
                return JudgeVerdict("redact", reason, pattern.sub(REDACTED, text))
            return JudgeVerdict(rule.action, reason)
        if self._custom is not None:
            verdict = self._custom(surface, tool, text)
            if verdict is not None:
                return verdict
        return ALLOW


def blocked_result(verdict: JudgeVerdict) -> str:
    return f"tool error: blocked by policy: {verdict.reason}"


def _load(entry_point: str) -> CustomJudge:
    module_name, _, attribute = entry_point.partition(":")
    try:
        judge = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(f"judge.entry_point: cannot load {entry_point!r}: {exc}") from exc
    if not callable(judge):
        raise ConfigError(f"judge.entry_point: {entry_point!r} is not callable")
    return judge  # type: ignore[no-any-return]
