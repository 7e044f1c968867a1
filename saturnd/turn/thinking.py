"""Whether a pass thinks: decided by the harness from the kind of step, never by the model."""

from __future__ import annotations

from saturnd.config import ThinkLevel

RECOVERY_STEPS = frozenset({"after_error", "steered"})


def decide_think(level: ThinkLevel, step: str) -> bool:
    """off never thinks; on thinks on every pass but the final one; act thinks on recovery steps."""
    if level == "off" or step == "final":
        return False
    if level == "on":
        return True
    return step in RECOVERY_STEPS
