"""The SQLite store: migrations, rows, and recovery after a killed daemon."""

from __future__ import annotations

import sqlite3

from saturnd.store import MIGRATIONS, Store


def test_migrations_run_once_and_record_the_version(tmp_path):
    store = Store(tmp_path / "s.db")
    assert store.schema_version == len(MIGRATIONS)
    store.close()
    again = Store(tmp_path / "s.db")  # re-opening must not re-run migration 1
    assert again.schema_version == len(MIGRATIONS)
    mode = sqlite3.connect(tmp_path / "s.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    again.close()


def test_an_interrupted_turn_gets_results_for_its_open_calls(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create_session("s1", "/tmp", "")
    store.create_turn("t1", "s1", "read two files")
    store.add_message("s1", "t1", "user", "read two files")
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "list_dir", "arguments": "{}"}},
    ]
    store.add_message("s1", "t1", "assistant", "", tool_calls=calls)
    store.add_message("s1", "t1", "tool", "contents", tool_call_id="c1", name="read_file")
    store.close()

    reopened = Store(tmp_path / "s.db")
    assert reopened.interrupt_running_turns() == ["t1"]
    assert reopened.turn("t1")["status"] == "interrupted"
    tool_rows = [(m.tool_call_id, m.content) for m in reopened.messages("s1") if m.role == "tool"]
    assert tool_rows == [("c1", "contents"), ("c2", "tool error: interrupted")]
    assert reopened.interrupt_running_turns() == []
    reopened.close()


def test_events_replay_after_a_seq(tmp_path):
    store = Store(tmp_path / "s.db")
    for seq in range(1, 5):
        store.append_event("t", seq, "x", f"line{seq}".encode())
    assert store.events_after("t", 2) == [b"line3", b"line4"]
    store.close()
