"""Everything one turn carries from start to end."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from protocol.events import Receipt
from saturnd.config import Config
from saturnd.model.client import ModelClient
from saturnd.store import Store
from saturnd.turn.run import TurnEvents


@dataclass
class Tally:
    """What the receipt counts, filled in as the turn goes."""

    passes: int = 0
    model_calls: int = 0
    tool_fates: Counter[str] = field(default_factory=Counter)
    thinking_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    started: float = field(default_factory=time.monotonic)

    def receipt(self) -> Receipt:
        return Receipt(
            passes=self.passes,
            model_calls=self.model_calls,
            tool_calls=sum(self.tool_fates.values()),
            tool_fates=dict(self.tool_fates),
            thinking_s=round(self.thinking_s, 3),
            wall_s=round(time.monotonic() - self.started, 3),
            tokens_in=self.tokens_in,
            tokens_out=self.tokens_out,
        )


@dataclass
class TurnContext:
    turn_id: str
    session_id: str
    text: str
    cwd: str
    config: Config
    model: ModelClient
    store: Store
    events: TurnEvents
    headless: bool = False
    tally: Tally = field(default_factory=Tally)
