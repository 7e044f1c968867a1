"""Facts and the review queue in SQLite (the daemon's one store connection)."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    number: int
    text: str
    kind: str
    """fact | rule (a rule loads on every request)."""
    provenance: str
    """said | approved | review | added | imported."""
    session_id: str
    sentence: str
    """The user's own sentence it came from, when there is one."""
    verdict: str
    """What the words-are-yours check said."""
    created_at: float


@dataclass(frozen=True)
class Candidate:
    id: int
    session_id: str
    text: str
    source: str
    """review | imported | catch (stated, but the model did not remember it)."""
    status: str


_FACT_COLUMNS = "number, text, kind, provenance, session_id, sentence, verdict, created_at"


class FactStore:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def add(
        self, text: str, kind: str, provenance: str, session_id: str = "", sentence: str = "",
        verdict: str = "",
    ) -> Fact:
        cursor = self._db.execute(
            "INSERT INTO facts(text, kind, provenance, session_id, sentence, verdict, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (text, kind, provenance, session_id, sentence, verdict, time.time()),
        )
        fact = self.get(int(cursor.lastrowid or 0))
        assert fact is not None
        return fact

    def get(self, number: int) -> Fact | None:
        found = self._db.execute(
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE number = ? AND forgotten_at IS NULL",
            (number,),
        ).fetchone()
        return Fact(*found) if found else None

    def active(self) -> list[Fact]:
        rows = self._db.execute(
            f"SELECT {_FACT_COLUMNS} FROM facts WHERE forgotten_at IS NULL ORDER BY number"
        )
        return [Fact(*row) for row in rows]

    def forget(self, number: int) -> bool:
        cursor = self._db.execute(
            "UPDATE facts SET forgotten_at = ? WHERE number = ? AND forgotten_at IS NULL",
            (time.time(), number),
        )
        return cursor.rowcount == 1

    def propose(self, session_id: str, text: str, source: str) -> Candidate:
        cursor = self._db.execute(
            "INSERT INTO review_queue(session_id, text, source, created_at) VALUES (?, ?, ?, ?)",
            (session_id, text, source, time.time()),
        )
        return Candidate(int(cursor.lastrowid or 0), session_id, text, source, "pending")

    def pending(self) -> list[Candidate]:
        rows = self._db.execute(
            "SELECT id, session_id, text, source, status FROM review_queue"
            " WHERE status = 'pending' ORDER BY id"
        )
        return [Candidate(*row) for row in rows]

    def candidate(self, candidate_id: int) -> Candidate | None:
        found = self._db.execute(
            "SELECT id, session_id, text, source, status FROM review_queue WHERE id = ?",
            (candidate_id,),
        ).fetchone()
        return Candidate(*found) if found else None

    def known(self) -> set[str]:
        """Kept facts and pending candidates, lower-cased: what is never proposed again."""
        return {f.text.lower() for f in self.active()} | {c.text.lower() for c in self.pending()}

    def settle(self, candidate_id: int, status: str) -> None:
        self._db.execute(
            "UPDATE review_queue SET status = ? WHERE id = ?", (status, candidate_id)
        )
