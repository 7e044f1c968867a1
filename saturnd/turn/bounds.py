"""The turn's bounds as one value object: passes that may run tools, the wall-clock budget."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from saturnd.config import RuntimeConfig

BUDGET_RAN_OUT = "the time budget ran out after {seconds:g} s"
"""The same words wherever the user reads why a turn ended early (prompts.NOTE_BUDGET)."""


@dataclass(frozen=True)
class BoundReached:
    reason: str
    """Told to the user and, on the final pass, to the model."""
    final_pass: bool
    """True: one more pass without tools may still answer. False: no model call may start."""


@dataclass
class Bounds:
    max_iterations: int
    turn_budget_s: float
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def from_config(cls, runtime: RuntimeConfig) -> Bounds:
        return cls(runtime.max_iterations, runtime.turn_budget_s)

    def remaining_s(self, now: float | None = None) -> float:
        """Seconds left of the turn's time budget (0 when it ran out)."""
        elapsed = (now if now is not None else time.monotonic()) - self.started
        return max(0.0, self.turn_budget_s - elapsed)

    def check_before_pass(self, tool_passes: int, now: float | None = None) -> BoundReached | None:
        """`tool_passes`: passes so far whose calls were run."""
        elapsed = (now if now is not None else time.monotonic()) - self.started
        if elapsed >= self.turn_budget_s:
            return BoundReached(BUDGET_RAN_OUT.format(seconds=self.turn_budget_s), final_pass=False)
        if tool_passes >= self.max_iterations:
            return BoundReached(
                f"the turn reached its limit of {self.max_iterations} tool rounds", final_pass=True
            )
        return None
