"""Tools: the registry and the built-in tools."""

from __future__ import annotations

import importlib

from protocol.jsonrpc import ConfigError
from saturnd.tools.acting import ACTING_TOOLS
from saturnd.tools.builtin_files import FILE_TOOLS
from saturnd.tools.calculate import CALCULATE
from saturnd.tools.edits import EDIT_TOOLS
from saturnd.tools.harness import HARNESS_TOOLS
from saturnd.tools.kb import KB_TOOLS
from saturnd.tools.messaging import MESSAGING_TOOLS
from saturnd.tools.query import QUERY
from saturnd.tools.registry import Registry, Tool
from saturnd.tools.web import WEB_TOOLS


def builtin_registry(extra_modules: list[str] | None = None) -> Registry:
    registry = Registry(
        [*FILE_TOOLS, CALCULATE, *KB_TOOLS, *HARNESS_TOOLS, *ACTING_TOOLS, *EDIT_TOOLS, *WEB_TOOLS, *MESSAGING_TOOLS, QUERY]
    )
    for module_name in extra_modules or []:
        for tool in _module_tools(module_name):
            registry.register(tool)
    return registry


def _module_tools(module_name: str) -> list[Tool]:
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise ConfigError(f"tools.modules: cannot import {module_name!r}: {exc}") from exc
    tools = getattr(module, "TOOLS", None)
    if not isinstance(tools, list) or not all(isinstance(t, Tool) for t in tools):
        raise ConfigError(f"tools.modules: {module_name!r} has no TOOLS list of Tool objects")
    return tools
