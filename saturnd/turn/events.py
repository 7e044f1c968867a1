"""A running turn's outside face: numbered events, stored then sent, and subscribers."""

from __future__ import annotations

import time
from typing import Protocol

from protocol.events import Event, TurnEnded, TurnEvent
from protocol.jsonrpc import Notification, encode_line
from saturnd.store import Store


class Subscriber(Protocol):
    def send(self, line: bytes) -> bool:
        """Queue a line for the client; False once the client is gone."""
        ...

    def follow(self, turn_id: str) -> None:
        """The subscriber now receives this turn's events, up to its end."""
        ...

    def unfollow(self, turn_id: str) -> None:
        """The turn ended: its last event was sent."""
        ...


def event_line(turn_event: TurnEvent) -> bytes:
    return encode_line(Notification(method="turn/event", params=turn_event))


class TurnEvents:
    """Numbers, stores and broadcasts a turn's events.

    `emit` is synchronous: the row is committed and the line queued to every
    subscriber before the caller's next await, so `subscribe` (replay + join)
    can never miss or repeat an event.
    """

    def __init__(self, store: Store, turn_id: str, session_id: str) -> None:
        self.turn_id = turn_id
        self.session_id = session_id
        self.last_seq = 0
        self._store = store
        self._subscribers: list[Subscriber] = []

    def emit(self, event: Event) -> TurnEvent:
        self.last_seq += 1
        turn_event = TurnEvent(
            turn_id=self.turn_id,
            seq=self.last_seq,
            event=event,
            session_id=self.session_id,
            at=time.time(),
        )
        line = event_line(turn_event)
        self._store.append_event(self.turn_id, self.last_seq, str(event.__struct_config__.tag), line)
        self._subscribers = [s for s in self._subscribers if s.send(line)]
        if isinstance(event, TurnEnded):
            for subscriber in self._subscribers:
                subscriber.unfollow(self.turn_id)
        return turn_event

    @property
    def subscribers(self) -> list[Subscriber]:
        """Clients still attached that can answer an approval or a question (a dropped one is
        noticed on the next send; one that closed its sending side only listens)."""
        self._subscribers = [s for s in self._subscribers if not getattr(s, "closed", False)]
        return [s for s in self._subscribers if getattr(s, "answering", True)]

    def subscribe(self, subscriber: Subscriber, after_seq: int = 0) -> None:
        for line in self._store.events_after(self.turn_id, after_seq):
            if not subscriber.send(line):
                return
        if subscriber not in self._subscribers:
            self._subscribers.append(subscriber)
            subscriber.follow(self.turn_id)

