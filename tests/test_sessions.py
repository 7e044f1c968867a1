"""Session: one object for what the store keeps and what lives while saturnd runs."""

from __future__ import annotations

import sqlite3

import pytest

from protocol.jsonrpc import Busy, NotFound
from saturnd.sessions import Sessions
from saturnd.store import MIGRATIONS, SessionFlags, Store


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "s.db")
    yield opened
    opened.close()


def test_flags_are_one_typed_read(store):
    session = Sessions(store).create("/tmp", "", incognito=True)
    assert session.flags == SessionFlags(incognito=True)
    session.mark_tainted()
    store.set_session_flags(session.id, resumed=True)
    flags = session.flags
    assert (flags.incognito, flags.resumed, flags.tainted) == (True, True, True)
    store.clear_session(session.id)
    assert not session.flags.tainted and session.flags.cleared_at is not None


def test_read_gives_the_conversation_since_clear_and_what_the_user_typed(store):
    session = Sessions(store).create("/tmp", "", incognito=False)
    store.add_message(session.id, "t1", "user", "before the clear")
    store.clear_session(session.id)
    store.add_message(session.id, "t2", "user", "read a")
    store.add_message(session.id, "t2", "assistant", "done")
    store.add_message(session.id, "t2", "user", "b, not a", kind="steer")
    state = session.read()
    assert [m.content for m in state.conversation] == ["read a", "done", "b, not a"]
    assert state.typed == ("read a", "b, not a")


def test_one_turn_at_a_time(store):
    session = Sessions(store).create("/tmp", "", incognito=False)
    session.claim("t1")
    with pytest.raises(Busy, match="already running turn t1; use session/queue"):
        session.claim("t2")
    with pytest.raises(Busy, match="is running turn t1"):
        session.ensure_idle()
    session.release()
    session.claim("t2")
    assert session.running_turn_id == "t2"


def test_the_same_object_answers_until_the_session_closes(store):
    sessions = Sessions(store)
    session = sessions.create("/tmp", "", incognito=False)
    session.approvals.add("read_file a.txt")
    session.think_level = "on"
    session.queue.append("next")
    assert sessions.get(session.id) is session
    sessions.close(session)
    again = sessions.get(session.id)
    assert (again.approvals, again.think_level, list(again.queue)) == (set(), "", [])


def test_closing_an_incognito_session_leaves_nothing(store):
    sessions = Sessions(store)
    session = sessions.create("/tmp", "", incognito=True)
    sessions.close(session)
    with pytest.raises(NotFound):
        sessions.get(session.id)


def test_a_running_session_cannot_close(store):
    sessions = Sessions(store)
    session = sessions.create("/tmp", "", incognito=False)
    session.claim("t1")
    with pytest.raises(Busy):
        sessions.close(session)


def test_the_kind_migration_turns_stored_steer_prefixes_into_a_kind(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:3]:
        migration(db)
    db.execute("PRAGMA user_version=3")
    db.execute("INSERT INTO sessions(id, cwd, created_at) VALUES ('s1', '/tmp', 0)")
    for content in ("read a", "[Correction from the user, sent while you were working] b, not a"):
        db.execute(
            "INSERT INTO messages(session_id, role, content, created_at) VALUES ('s1', 'user', ?, 0)",
            (content,),
        )
    db.close()
    store = Store(path)
    assert [(m.content, m.kind) for m in store.messages("s1")] == [("read a", ""), ("b, not a", "steer")]
    store.close()
