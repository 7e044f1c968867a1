"""The gate policy: per risk class defaults, then per-tool rules with argument globs.

First matching rule wins; a rule's `args` globs must all match. `{cwd}` in a
glob is the working folder; a leading `!` negates the glob. Path arguments
are matched where they really lead (reach.py: absolute, symlinks resolved),
so `{path: "!{cwd}/*"}` means "outside the working folder" even through a
symlink. With no rule matching, a path in a secret store is denied and a
read outside the working folder and the knowledge base asks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

import msgspec

from saturnd.gate.reach import Reach

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
    tell_model_why: bool = False
    """The reason also goes to the model when nobody can approve: it says what to do instead."""


def gate_verdict(
    tool: str, risk: str, arguments: dict[str, Any], config: GateConfig, reach: Reach
) -> Verdict:
    paths = {
        name: reach.real(str(arguments[name])) for name in PATH_ARGUMENTS if name in arguments
    }
    for index, rule in enumerate(config.rules, start=1):
        if fnmatchcase(tool, rule.tool) and _args_match(rule.args, arguments, paths, reach.cwd):
            shown = f"{rule.tool} {rule.args}" if rule.args else rule.tool
            return Verdict(rule.decision, f"rule {index} ({shown}: {rule.decision})")
    for name, real in paths.items():
        store = reach.secret_store(real)
        if store is not None:
            where = _where(str(arguments[name]), real, reach.cwd)
            return Verdict("deny", f"{where} is in a secret store ({store}); only a gate rule can allow it")
    decision: Decision = getattr(config.defaults, risk, "ask")
    if risk == "read_only" and decision == "allow":
        for name, real in paths.items():
            if not reach.inside(real):
                where = _where(str(arguments[name]), real, reach.cwd)
                return Verdict("ask", f"{where} is outside the working folder and the knowledge base", True)
    return Verdict(decision, f"the default for {risk} tools ({decision})")


def _where(written: str, real: str, cwd: str) -> str:
    """The path as the model wrote it, and where it really leads when a symlink took it elsewhere."""
    plain = os.path.normpath(os.path.join(cwd, os.path.expanduser(written)))
    return written if plain == real else f"{written} (really {real})"


def _args_match(globs: dict[str, str], arguments: dict[str, Any], paths: dict[str, str], cwd: str) -> bool:
    for name, pattern in globs.items():
        if name not in arguments:
            return False
        value = paths.get(name, str(arguments[name]))
        negate = pattern.startswith("!")
        glob = pattern[1:] if negate else pattern
        if fnmatchcase(value, glob.replace("{cwd}", cwd)) == negate:
            return False
    return True
