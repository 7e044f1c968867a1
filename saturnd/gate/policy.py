"""The gate policy: per risk class defaults, then per-tool rules with argument globs.

First matching rule wins; a rule's `args` globs must all match. `{cwd}` in a
glob is the working folder; a leading `!` negates the glob. Path arguments
are made absolute against the working folder before matching, so
`{path: "!{cwd}/*"}` means "outside the working folder".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

import msgspec

Decision = Literal["allow", "ask", "deny"]
PATH_ARGUMENTS = frozenset({"path"})


class GateRule(msgspec.Struct, forbid_unknown_fields=True):
    tool: str
    """A glob on the tool name, e.g. run_command or mail.*"""
    decision: Decision
    args: dict[str, str] = {}
    """Argument name -> glob on its value, e.g. {command: "git status*"}."""


class GateDefaults(msgspec.Struct, forbid_unknown_fields=True):
    """The decision for each risk class when no rule matches. A key left out keeps its default;
    a misspelt one (`wrte`) is an error, not a silent no-op."""

    read_only: Decision = "allow"
    write: Decision = "ask"
    exec: Decision = "ask"
    egress: Decision = "ask"
    messaging: Decision = "ask"
    external: Decision = "ask"


class GateConfig(msgspec.Struct, forbid_unknown_fields=True):
    defaults: GateDefaults = msgspec.field(default_factory=GateDefaults)
    rules: list[GateRule] = []


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    reason: str
    """Which rule or default decided: shown by explain."""


def gate_verdict(
    tool: str, risk: str, arguments: dict[str, Any], config: GateConfig, cwd: str
) -> Verdict:
    for index, rule in enumerate(config.rules, start=1):
        if fnmatchcase(tool, rule.tool) and _args_match(rule.args, arguments, cwd):
            shown = f"{rule.tool} {rule.args}" if rule.args else rule.tool
            return Verdict(rule.decision, f"rule {index} ({shown}: {rule.decision})")
    decision: Decision = getattr(config.defaults, risk, "ask")
    return Verdict(decision, f"the default for {risk} tools ({decision})")


def _args_match(globs: dict[str, str], arguments: dict[str, Any], cwd: str) -> bool:
    for name, pattern in globs.items():
        if name not in arguments:
            return False
        value = str(arguments[name])
        if name in PATH_ARGUMENTS:
            value = os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
        negate = pattern.startswith("!")
        glob = pattern[1:] if negate else pattern
        if fnmatchcase(value, glob.replace("{cwd}", cwd)) == negate:
            return False
    return True
