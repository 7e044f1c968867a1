"""What a person can do to a running turn: pause, resume, steer, abort, answer a question."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from protocol.jsonrpc import InvalidState

T = TypeVar("T")


class TurnAborted(Exception):
    """The user asked the turn to stop; it ends with what it has."""


class TurnControl:
    def __init__(self) -> None:
        self._pause_requested = False
        self._resumed = asyncio.Event()
        self._aborted = asyncio.Event()
        self._steers: list[str] = []
        self._answer: asyncio.Future[str] | None = None
        self._decisions: dict[str, asyncio.Future[str]] = {}
        self._stop_thought = False

    # requests from clients

    def pause(self) -> None:
        self._pause_requested = True
        self._resumed.clear()

    def resume(self) -> None:
        self._pause_requested = False
        self._resumed.set()

    def steer(self, text: str) -> None:
        self._steers.append(text)

    def abort(self) -> None:
        self._aborted.set()

    def reply(self, text: str) -> None:
        if self._answer is None or self._answer.done():
            raise InvalidState("the turn is not waiting for an answer")
        self._answer.set_result(text)

    def stop_thought(self) -> None:
        """Cut the live thought; the pass answers without it."""
        self._stop_thought = True

    def take_stop_thought(self) -> bool:
        stop, self._stop_thought = self._stop_thought, False
        return stop

    def decide(self, call_id: str, decision: str) -> None:
        pending = self._decisions.get(call_id)
        if pending is None or pending.done():
            raise InvalidState(f"no approval is pending for call {call_id!r}")
        pending.set_result(decision)

    # what the loop asks

    @property
    def pause_requested(self) -> bool:
        return self._pause_requested

    @property
    def abort_requested(self) -> bool:
        return self._aborted.is_set()

    def take_steers(self) -> list[str]:
        steers, self._steers = self._steers, []
        return steers

    async def wait_resumed(self) -> None:
        await self.unless_aborted(self._resumed.wait())

    async def wait_answer(self, within_s: float) -> str | None:
        """The person's answer (turn/reply), or None when none came within `within_s`."""
        self._answer = asyncio.get_running_loop().create_future()
        try:
            return await self.unless_aborted(self._answer, within_s)
        except TimeoutError:
            return None
        finally:
            self._answer = None

    async def wait_decisions(self, call_ids: list[str], within_s: float) -> dict[str, str]:
        """once | always | decline for each call, as people answer turn/decide; "nobody" for
        every call when no answer came within `within_s`."""
        loop = asyncio.get_running_loop()
        self._decisions = {call_id: loop.create_future() for call_id in call_ids}
        try:
            answers = await self.unless_aborted(asyncio.gather(*self._decisions.values()), within_s)
        except TimeoutError:
            answers = ["nobody"] * len(call_ids)
        finally:
            self._decisions = {}
        return dict(zip(call_ids, answers, strict=True))

    async def unless_aborted(self, awaitable: Awaitable[T], within_s: float | None = None) -> T:
        """Await `awaitable`, or raise TurnAborted (cancelling it) if the user aborts first, or
        TimeoutError when `within_s` passes first."""
        if self._aborted.is_set():
            raise TurnAborted
        work = asyncio.ensure_future(awaitable)
        stop = asyncio.ensure_future(self._aborted.wait())
        try:
            await asyncio.wait({work, stop}, timeout=within_s, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            work.cancel()
            raise
        finally:
            stop.cancel()
        if work.done():
            return work.result()
        work.cancel()
        # A cancelled gather ends with CancelledError as its exception: read it, or asyncio
        # logs "exception was never retrieved".
        work.add_done_callback(_read_outcome)
        if not self._aborted.is_set():
            raise TimeoutError
        raise TurnAborted


def _read_outcome(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
