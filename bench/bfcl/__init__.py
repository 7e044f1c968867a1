"""An optional BFCL v4 bridge: `saturn bench bfcl --category C[,C...]`.

Runs Berkeley Function Calling Leaderboard v4 cases through Saturn's loop (a real saturnd
per case, the case's functions served as MCP tools by `bench.bfcl.mcp_server`) and, as the
baseline, through plain raw model calls; both are scored by BFCL's own checkers.

Install (bfcl-eval's own requirements pull every provider SDK, so it goes in without them):

    pip install -e '.[bfcl]'
    pip install --no-deps bfcl-eval==2026.3.23

`bfcl_eval.constants.model_config` imports every provider handler; it is replaced by a stub
in sys.modules before anything from bfcl_eval is imported (see `bfcl()`).
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from typing import Any

INSTALL_HINT = (
    "the BFCL bridge needs bfcl-eval: pip install 'saturn[bfcl]' "
    "&& pip install --no-deps bfcl-eval==2026.3.23"
)
BFCL_VERSION = "2026.3.23"


class BfclMissing(RuntimeError):
    pass


@dataclass(frozen=True)
class _ModelConfigStub:
    """What the checkers read of a model's config: only `underscore_to_dot`."""

    underscore_to_dot: bool = False


class _AnyModel(dict[str, Any]):
    def __missing__(self, key: str) -> _ModelConfigStub:
        return _ModelConfigStub()


def stub_model_config() -> None:
    name = "bfcl_eval.constants.model_config"
    if name in sys.modules:
        return
    stub = types.ModuleType(name)
    stub.MODEL_CONFIG_MAPPING = _AnyModel()  # type: ignore[attr-defined]
    sys.modules[name] = stub


def bfcl() -> types.ModuleType:
    """bfcl_eval, imported with the model-config stub in place; BfclMissing if not installed."""
    stub_model_config()
    try:
        import bfcl_eval
        import bfcl_eval.eval_checker.ast_eval.ast_checker  # noqa: F401
        import bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker  # noqa: F401
        import bfcl_eval.utils  # noqa: F401
    except ImportError as exc:
        raise BfclMissing(f"{INSTALL_HINT} ({exc})") from exc
    return bfcl_eval
