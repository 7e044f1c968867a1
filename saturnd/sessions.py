"""Sessions as the daemon holds them.

The store keeps what must outlive saturnd: the flags, the taint and the
conversation. What only lives while saturnd runs (approvals given "always",
the /think level, the queue, the running turn) sits on the Session beside
it, so one object answers every question about a session.
"""

from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass, field

from protocol.jsonrpc import Busy, NotFound
from saturnd.store import MessageRow, SessionFlags, SessionRow, Store


@dataclass(frozen=True)
class SessionState:
    """The session as read from the store at one moment: flags and the conversation since /clear."""

    flags: SessionFlags
    conversation: list[MessageRow]

    @property
    def typed(self) -> tuple[str, ...]:
        """Everything the user wrote in the conversation: requests and steers."""
        return tuple(m.content for m in self.conversation if m.role == "user")


@dataclass
class Session:
    row: SessionRow
    store: Store
    approvals: set[str] = field(default_factory=set)
    """Approval keys the person gave "always"; forgotten when the session closes."""
    think_level: str = ""
    """The thinking policy set with /think; empty: the configured default."""
    queue: deque[str] = field(default_factory=deque)
    """Messages waiting to run as the session's next turns."""
    running_turn_id: str = ""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def cwd(self) -> str:
        return self.row.cwd

    @property
    def flags(self) -> SessionFlags:
        return self.store.session_flags(self.id)

    def read(self) -> SessionState:
        """Flags and conversation in one read, for a caller that needs both (a tool round)."""
        flags = self.flags
        return SessionState(flags, self.store.messages(self.id, since=flags.cleared_at))

    def mark_tainted(self) -> None:
        """Outside content entered the conversation: memory asks from now on."""
        self.store.mark_tainted(self.id)

    def claim(self, turn_id: str) -> None:
        """Make `turn_id` the running turn, or refuse: one turn at a time per session."""
        if self.running_turn_id:
            raise Busy(
                f"session {self.id} is already running turn {self.running_turn_id};"
                " use session/queue to run a message after it"
            )
        self.running_turn_id = turn_id

    def release(self) -> None:
        self.running_turn_id = ""

    def ensure_idle(self) -> None:
        """For what may not happen under a running turn (/clear, close)."""
        if self.running_turn_id:
            raise Busy(f"session {self.id} is running turn {self.running_turn_id}")


class Sessions:
    """Every session saturnd has touched since it started, looked up by id."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._known: dict[str, Session] = {}

    def create(self, cwd: str, title: str, incognito: bool) -> Session:
        row = self._store.create_session(f"s_{uuid.uuid4().hex[:12]}", cwd, title)
        if incognito:
            self._store.set_session_flags(row.id, incognito=True)
        return self._hold(row)

    def get(self, session_id: str) -> Session:
        known = self._known.get(session_id)
        if known is not None:
            return known
        row = self._store.get_session(session_id)
        if row is None:
            raise NotFound(f"no session {session_id!r}")
        return self._hold(row)

    def all(self) -> list[Session]:
        return [self._known.get(row.id) or Session(row, self._store) for row in self._store.list_sessions()]

    def close(self, session: Session) -> None:
        """What was given for the session's life ends; an incognito session leaves nothing."""
        session.ensure_idle()
        if session.flags.incognito:
            self._store.delete_session(session.id)
        self._known.pop(session.id, None)

    def _hold(self, row: SessionRow) -> Session:
        session = self._known[row.id] = Session(row, self._store)
        return session
