"""Tools: the registry and the built-in tools."""

from __future__ import annotations

from saturnd.tools.builtin_files import FILE_TOOLS
from saturnd.tools.harness import HARNESS_TOOLS
from saturnd.tools.kb import KB_TOOLS
from saturnd.tools.registry import Registry


def builtin_registry() -> Registry:
    return Registry([*FILE_TOOLS, *KB_TOOLS, *HARNESS_TOOLS])
