"""SQLite (WAL) store: sessions, messages, turns, events. Numbered migrations.

Every write commits before the caller announces it, so a row always exists
before the event that tells a client about it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from machine.private_files import private_file, tighten
from protocol.jsonrpc import SaturnError
from protocol.methods import MessageKind
from saturnd.egress import EgressRow
from saturnd.memory.fact_store import FactStore


def _m1_initial(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            cwd TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL
        );
        CREATE TABLE turns (
            id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            text TEXT NOT NULL,
            status TEXT NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            answer TEXT NOT NULL DEFAULT '',
            receipt TEXT NOT NULL DEFAULT '{}',
            trace TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX turns_by_session ON turns(session_id, started_at);
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions(id),
            turn_id TEXT NOT NULL DEFAULT '',
            role TEXT NOT NULL,
            content TEXT NOT NULL DEFAULT '',
            tool_calls TEXT NOT NULL DEFAULT '[]',
            tool_call_id TEXT NOT NULL DEFAULT '',
            name TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL
        );
        CREATE INDEX messages_by_session ON messages(session_id, id);
        CREATE TABLE events (
            turn_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            type TEXT NOT NULL,
            body BLOB NOT NULL,
            PRIMARY KEY (turn_id, seq)
        ) WITHOUT ROWID;
        """
    )


def _m2_egress_and_taint(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        ALTER TABLE sessions ADD COLUMN tainted_at REAL;
        CREATE TABLE egress (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at REAL NOT NULL,
            session_id TEXT NOT NULL DEFAULT '',
            turn_id TEXT NOT NULL DEFAULT '',
            call_id TEXT NOT NULL DEFAULT '',
            tool TEXT NOT NULL DEFAULT '',
            host TEXT NOT NULL,
            port INTEGER NOT NULL,
            method TEXT NOT NULL DEFAULT '',
            bytes_out INTEGER NOT NULL DEFAULT 0,
            bytes_in INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT '',
            attributed INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX egress_by_turn ON egress(turn_id);
        CREATE INDEX egress_by_session ON egress(session_id)
        """,
    )


def _m3_memory(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        ALTER TABLE sessions ADD COLUMN incognito INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN resumed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN cleared_at REAL;
        CREATE TABLE facts (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
            text TEXT NOT NULL,
            kind TEXT NOT NULL,
            provenance TEXT NOT NULL,
            session_id TEXT NOT NULL DEFAULT '',
            sentence TEXT NOT NULL DEFAULT '',
            verdict TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL,
            forgotten_at REAL
        );
        CREATE TABLE review_queue (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL,
            source TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            created_at REAL NOT NULL
        )
        """,
    )


def _run_script(db: sqlite3.Connection, script: str) -> None:
    # executescript() would commit the migration's transaction half way; run statements one by one.
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _m4_message_kind(db: sqlite3.Connection) -> None:
    """A steer is stored as the user's own words with its kind, no longer behind a prefix that
    every reader had to strip again."""
    old_prefix = "[Correction from the user, sent while you were working] "
    db.execute("ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT ''")
    db.execute(
        "UPDATE messages SET kind = 'steer', content = substr(content, ?)"
        " WHERE role = 'user' AND substr(content, 1, ?) = ?",
        (len(old_prefix) + 1, len(old_prefix), old_prefix),
    )


def _m5_command_groups(db: sqlite3.Connection) -> None:
    """run_command's running commands (marker, process group), so a daemon killed mid-command
    leaves a list for the next one to end."""
    db.execute(
        "CREATE TABLE command_groups (marker TEXT PRIMARY KEY, pgid INTEGER,"
        " started_at REAL NOT NULL)"
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _m1_initial,
    _m2_egress_and_taint,
    _m3_memory,
    _m4_message_kind,
    _m5_command_groups,
]
"""Append only: migration N is MIGRATIONS[N-1]; PRAGMA user_version records the last applied."""


@dataclass(frozen=True)
class SessionRow:
    id: str
    cwd: str
    title: str
    created_at: float


@dataclass(frozen=True)
class SessionFlags:
    """What the store keeps about a session besides its messages."""

    incognito: bool = False
    resumed: bool = False
    """Continued with /resume: Saturn can't vouch for what it read before."""
    cleared_at: float | None = None
    """The last /clear: earlier messages are no longer part of the conversation."""
    tainted_at: float | None = None
    """When outside content first entered the conversation since /clear."""

    @property
    def tainted(self) -> bool:
        return self.tainted_at is not None


@dataclass(frozen=True)
class MessageRow:
    role: str
    content: str
    turn_id: str
    created_at: float
    tool_calls: list[dict[str, Any]]
    tool_call_id: str
    name: str
    kind: MessageKind = ""


class StoreError(SaturnError):
    pass


class Store:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # SQLite gives the -wal and -shm files the database file's own mode: 0600 for all three.
        private_file(path)
        for companion in ("-wal", "-shm"):
            tighten(path.with_name(path.name + companion))
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store at {path}: {exc}") from exc

    def _migrate(self) -> None:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
            self._db.execute("BEGIN IMMEDIATE")
            migration(self._db)
            self._db.execute(f"PRAGMA user_version={number}")
            self._db.execute("COMMIT")

    @property
    def memory(self) -> FactStore:
        return FactStore(self._db)

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    # sessions

    def create_session(self, session_id: str, cwd: str, title: str) -> SessionRow:
        row = SessionRow(session_id, cwd, title, time.time())
        self._db.execute(
            "INSERT INTO sessions(id, cwd, title, created_at) VALUES (?, ?, ?, ?)",
            (row.id, row.cwd, row.title, row.created_at),
        )
        return row

    def get_session(self, session_id: str) -> SessionRow | None:
        found = self._db.execute(
            "SELECT id, cwd, title, created_at FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        return SessionRow(*found) if found else None

    def list_sessions(self) -> list[SessionRow]:
        rows = self._db.execute(
            "SELECT id, cwd, title, created_at FROM sessions ORDER BY created_at DESC"
        )
        return [SessionRow(*r) for r in rows]

    def session_count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM sessions").fetchone()[0])

    def turn_count(self, session_id: str) -> int:
        return int(
            self._db.execute(
                "SELECT count(*) FROM turns WHERE session_id = ?", (session_id,)
            ).fetchone()[0]
        )

    # messages

    def add_message(
        self,
        session_id: str,
        turn_id: str,
        role: str,
        content: str = "",
        tool_calls: list[dict[str, Any]] | None = None,
        tool_call_id: str = "",
        name: str = "",
        kind: MessageKind = "",
    ) -> None:
        self._db.execute(
            "INSERT INTO messages(session_id, turn_id, role, content, tool_calls, tool_call_id,"
            " name, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session_id,
                turn_id,
                role,
                content,
                json.dumps(tool_calls or []),
                tool_call_id,
                name,
                kind,
                time.time(),
            ),
        )

    def messages(self, session_id: str, since: float | None = None) -> list[MessageRow]:
        rows = self._db.execute(
            "SELECT role, content, turn_id, created_at, tool_calls, tool_call_id, name, kind"
            " FROM messages WHERE session_id = ? AND created_at >= ? ORDER BY id",
            (session_id, since or 0.0),
        )
        return [MessageRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7]) for r in rows]

    # turns

    def create_turn(self, turn_id: str, session_id: str, text: str) -> None:
        self._db.execute(
            "INSERT INTO turns(id, session_id, text, status, started_at) VALUES (?, ?, ?, ?, ?)",
            (turn_id, session_id, text, "running", time.time()),
        )

    def finish_turn(
        self, turn_id: str, status: str, answer: str, receipt: dict[str, Any], trace: dict[str, Any]
    ) -> None:
        self._db.execute(
            "UPDATE turns SET status = ?, ended_at = ?, answer = ?, receipt = ?, trace = ?"
            " WHERE id = ?",
            (status, time.time(), answer, json.dumps(receipt), json.dumps(trace), turn_id),
        )

    def turn(self, turn_id: str) -> dict[str, Any] | None:
        found = self._db.execute(
            "SELECT id, session_id, text, status, started_at, ended_at, answer, receipt, trace"
            " FROM turns WHERE id = ?",
            (turn_id,),
        ).fetchone()
        if not found:
            return None
        keys = ("turn_id", "session_id", "text", "status", "started_at", "ended_at", "answer")
        turn = dict(zip(keys, found[:7], strict=True))
        turn["receipt"] = json.loads(found[7])
        turn["trace"] = json.loads(found[8])
        return turn

    def latest_turn_id(self, session_id: str | None = None) -> str | None:
        if session_id:
            found = self._db.execute(
                "SELECT id FROM turns WHERE session_id = ? ORDER BY started_at DESC LIMIT 1",
                (session_id,),
            ).fetchone()
        else:
            found = self._db.execute(
                "SELECT id FROM turns ORDER BY started_at DESC LIMIT 1"
            ).fetchone()
        return found[0] if found else None

    def interrupt_running_turns(self) -> list[str]:
        """Mark turns left running by a dead or stopping daemon, and answer their open calls."""
        running = [
            r[0] for r in self._db.execute("SELECT id FROM turns WHERE status = 'running'")
        ]
        for turn_id in running:
            self.interrupt_open_calls(turn_id, "tool error: interrupted")
            self._db.execute(
                "UPDATE turns SET status = 'interrupted', ended_at = ? WHERE id = ?",
                (time.time(), turn_id),
            )
        return running

    def interrupt_open_calls(self, turn_id: str, result: str) -> None:
        """Give every tool call of the turn that has no result this one."""
        rows = self._db.execute(
            "SELECT session_id, role, tool_calls, tool_call_id FROM messages WHERE turn_id = ?"
            " ORDER BY id",
            (turn_id,),
        ).fetchall()
        answered = {r[3] for r in rows if r[1] == "tool"}
        for session_id, role, tool_calls, _ in rows:
            if role != "assistant":
                continue
            for call in json.loads(tool_calls):
                if call.get("id") not in answered:
                    self.add_message(
                        session_id,
                        turn_id,
                        "tool",
                        result,
                        tool_call_id=call.get("id", ""),
                        name=call.get("function", {}).get("name", ""),
                    )

    # run_command's process groups

    def command_starting(self, marker: str) -> None:
        self._db.execute(
            "INSERT INTO command_groups(marker, started_at) VALUES (?, ?)", (marker, time.time())
        )

    def command_started(self, marker: str, pgid: int) -> None:
        self._db.execute("UPDATE command_groups SET pgid = ? WHERE marker = ?", (pgid, marker))

    def command_ended(self, marker: str) -> None:
        self._db.execute("DELETE FROM command_groups WHERE marker = ?", (marker,))

    def forget_command_groups(self) -> None:
        self._db.execute("DELETE FROM command_groups")

    def command_groups(self) -> list[tuple[str, int | None]]:
        """(marker, process group or None if not yet known) of every command recorded as running."""
        return [(str(r[0]), r[1]) for r in self._db.execute(
            "SELECT marker, pgid FROM command_groups ORDER BY started_at")]

    # session flags: incognito, resumed (/resume), cleared (/clear)

    def set_session_flags(
        self, session_id: str, incognito: bool | None = None, resumed: bool | None = None
    ) -> None:
        if incognito is not None:
            self._db.execute("UPDATE sessions SET incognito = ? WHERE id = ?", (int(incognito), session_id))
        if resumed is not None:
            self._db.execute("UPDATE sessions SET resumed = ? WHERE id = ?", (int(resumed), session_id))

    def session_flags(self, session_id: str) -> SessionFlags:
        found = self._db.execute(
            "SELECT incognito, resumed, cleared_at, tainted_at FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        return SessionFlags(bool(found[0]), bool(found[1]), found[2], found[3]) if found else SessionFlags()

    def clear_session(self, session_id: str) -> None:
        """/clear: the conversation so far is no longer sent, and its taint is gone."""
        self._db.execute(
            "UPDATE sessions SET cleared_at = ?, tainted_at = NULL WHERE id = ?",
            (time.time(), session_id),
        )

    def delete_session(self, session_id: str) -> None:
        """Everything of a session, gone (incognito sessions when they end)."""
        turns = [r[0] for r in self._db.execute("SELECT id FROM turns WHERE session_id = ?", (session_id,))]
        self._db.execute("BEGIN")
        for turn_id in turns:
            self._db.execute("DELETE FROM events WHERE turn_id = ?", (turn_id,))
        for table in ("messages", "turns", "egress", "review_queue"):
            self._db.execute(f"DELETE FROM {table} WHERE session_id = ?", (session_id,))
        self._db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        self._db.execute("COMMIT")

    def incognito_sessions(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT id FROM sessions WHERE incognito = 1")]

    # taint: outside content entered the conversation (memory asks from then on)

    def mark_tainted(self, session_id: str) -> None:
        self._db.execute(
            "UPDATE sessions SET tainted_at = coalesce(tainted_at, ?) WHERE id = ?",
            (time.time(), session_id),
        )

    # egress

    def add_egress(self, rows: list[EgressRow]) -> None:
        self._db.executemany(
            "INSERT INTO egress(at, session_id, turn_id, call_id, tool, host, port, method,"
            " bytes_out, bytes_in, status, attributed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (r.at, r.origin.session_id, r.origin.turn_id, r.origin.call_id, r.origin.tool,
                 r.host, r.port, r.method, r.bytes_out, r.bytes_in, r.status, int(r.attributed))
                for r in rows
            ],
        )

    def list_egress(
        self, session_id: str = "", turn_id: str = "", host: str = "", limit: int = 100
    ) -> list[dict[str, Any]]:
        where, args = [], []
        for column, value in (("session_id", session_id), ("turn_id", turn_id), ("host", host)):
            if value:
                where.append(f"{column} = ?")
                args.append(value)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._db.execute(
            "SELECT at, host, port, method, bytes_out, bytes_in, status, session_id, turn_id,"
            f" call_id, tool, attributed FROM egress {clause} ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        keys = ("at", "host", "port", "method", "bytes_out", "bytes_in", "status", "session_id",
                "turn_id", "call_id", "tool", "attributed")
        return [dict(zip(keys, row, strict=True)) | {"attributed": bool(row[11])} for row in rows]

    # events

    def append_event(self, turn_id: str, seq: int, kind: str, body: bytes) -> None:
        self._db.execute(
            "INSERT INTO events(turn_id, seq, type, body) VALUES (?, ?, ?, ?)",
            (turn_id, seq, kind, body),
        )

    def events_after(self, turn_id: str, after_seq: int) -> list[bytes]:
        rows = self._db.execute(
            "SELECT body FROM events WHERE turn_id = ? AND seq > ? ORDER BY seq",
            (turn_id, after_seq),
        )
        return [bytes(r[0]) for r in rows]
