"""write_file, edit_file, run_command: semantics, and that no process of a command outlives it."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from saturnd.testing.fake_model import call, text
from saturnd.tools import acting
from saturnd.tools.acting import (
    ACTING_TOOLS,
    EDIT_FILE,
    RUN_COMMAND,
    WRITE_FILE,
    EditFileParams,
    RunCommandParams,
    WriteFileParams,
)
from saturnd.tools.registry import Registry, ToolEnv, ToolFailure

PR_SET_CHILD_SUBREAPER = 36


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    (tmp_path / "work").mkdir()
    return ToolEnv(cwd=tmp_path / "work", kb_dir=tmp_path / "kb")


@pytest.fixture
def subreaper() -> Iterator[None]:
    """Orphans of the command become this process's children, so they can be reaped here.

    Under an init that does not reap (some containers), a killed group would otherwise stay
    as zombies and os.killpg(pgid, 0) would still find it.
    """
    if not sys.platform.startswith("linux"):
        yield
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


async def started_group(path: Path) -> int:
    """The process group id the command wrote into `path` (its shell's $$)."""
    for _ in range(200):
        with contextlib.suppress(ValueError, OSError):
            return int((await asyncio.to_thread(path.read_text)).strip())
        await asyncio.sleep(0.02)
    raise AssertionError("the command never started")


def run(command: str, timeout_s: float = 60) -> RunCommandParams:
    return RunCommandParams(command=command, timeout_s=timeout_s)


def test_tool_set_metadata() -> None:
    assert [t.name for t in ACTING_TOOLS] == ["write_file", "edit_file", "run_command"]
    assert {t.name: (t.risk, t.target, t.parent) for t in ACTING_TOOLS} == {
        "write_file": ("write", "path", None),
        "edit_file": ("write", "path", "read_file"),
        "run_command": ("exec", "command", None),
    }
    assert all(len(t.description) <= 80 for t in ACTING_TOOLS)
    assert RUN_COMMAND.timeout_s is None and RUN_COMMAND.cleanup_s > 3 * acting.KILL_GRACE_S
    Registry(ACTING_TOOLS)  # schemas build
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"path": "a", "content": "b", "mode": "x"}, WriteFileParams)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"command": "true", "timeout_s": 601}, RunCommandParams)


# -- write_file / edit_file ------------------------------------------------------------------


async def test_write_file_creates_parents(env: ToolEnv) -> None:
    out = await WRITE_FILE.run(WriteFileParams(path="a/b/notes.txt", content="hello, wörld"), env)
    assert out == "wrote a/b/notes.txt (13 bytes)"
    assert (env.cwd / "a/b/notes.txt").read_text() == "hello, wörld"
    out = await WRITE_FILE.run(WriteFileParams(path="a/b/notes.txt", content="x"), env)
    assert out == "wrote a/b/notes.txt (1 bytes)"
    assert (env.cwd / "a/b/notes.txt").read_text() == "x"


async def test_writing_what_a_file_already_holds_says_nothing_changed(env: ToolEnv) -> None:
    (env.cwd / "shopping.txt").write_text("flour\neggs\ncheddar\n")
    out = await WRITE_FILE.run(WriteFileParams(path="shopping.txt", content="flour\neggs\ncheddar"), env)
    assert out == "nothing changed: shopping.txt already held exactly this (19 bytes)"
    assert (env.cwd / "shopping.txt").read_text() == "flour\neggs\ncheddar\n"


async def test_rewriting_a_file_that_ends_a_line_keeps_its_final_newline(env: ToolEnv) -> None:
    (env.cwd / "groceries.txt").write_text("bread\ncoffee\n")
    out = await WRITE_FILE.run(WriteFileParams(path="groceries.txt", content="bread\ncoffee\noat milk"), env)
    assert out == "wrote groceries.txt (22 bytes; kept its final newline)"
    assert (env.cwd / "groceries.txt").read_text() == "bread\ncoffee\noat milk\n"
    (env.cwd / "no-newline.txt").write_text("a")
    await WRITE_FILE.run(WriteFileParams(path="no-newline.txt", content="b"), env)
    assert (env.cwd / "no-newline.txt").read_text() == "b", "a file without one stays without"


async def test_write_file_refuses_a_directory(env: ToolEnv) -> None:
    (env.cwd / "d").mkdir()
    with pytest.raises(ToolFailure, match="d is a directory"):
        await WRITE_FILE.run(WriteFileParams(path="d", content="x"), env)


async def test_edit_file_replaces_exactly_once(env: ToolEnv) -> None:
    (env.cwd / "f.py").write_bytes(b"a = 1\r\nb = 2\r\n")
    out = await EDIT_FILE.run(EditFileParams(path="f.py", old="b = 2", new="b = 3"), env)
    assert out == "edited f.py: replaced 1 occurrence"
    assert (env.cwd / "f.py").read_bytes() == b"a = 1\r\nb = 3\r\n"  # line endings kept


async def test_edit_file_takes_the_one_whole_line_of_text_found_more_than_once(env: ToolEnv) -> None:
    (env.cwd / "shopping.txt").write_bytes(b"coconut milk\r\nmilk\r\nbread\r\n")
    await EDIT_FILE.run(EditFileParams(path="shopping.txt", old="milk", new="milk\r\ngarlic"), env)
    assert (env.cwd / "shopping.txt").read_bytes() == b"coconut milk\r\nmilk\r\ngarlic\r\nbread\r\n"


async def test_edit_file_refusals(env: ToolEnv) -> None:
    (env.cwd / "f.txt").write_text("x x x\n")
    with pytest.raises(ToolFailure, match="^old text not found in f.txt$"):
        await EDIT_FILE.run(EditFileParams(path="f.txt", old="y", new="z"), env)
    with pytest.raises(ToolFailure, match="^old text occurs 3 times in f.txt; include more"):
        await EDIT_FILE.run(EditFileParams(path="f.txt", old="x", new="z"), env)
    with pytest.raises(ToolFailure, match="no such file: nope.txt"):
        await EDIT_FILE.run(EditFileParams(path="nope.txt", old="x", new="z"), env)
    with pytest.raises(ToolFailure, match="^old and new are the same text: nothing in f.txt would change$"):
        await EDIT_FILE.run(EditFileParams(path="f.txt", old="x x x", new="x x x"), env)
    assert (env.cwd / "f.txt").read_text() == "x x x\n"


# -- run_command -----------------------------------------------------------------------------


async def test_run_command_output_and_exit_code(env: ToolEnv) -> None:
    (env.cwd / "here.txt").write_text("")
    out = await RUN_COMMAND.run(run("ls; echo oops >&2; exit 3"), env)
    assert out == "exit code 3\nhere.txt\noops\n"
    assert await RUN_COMMAND.run(run("true"), env) == "exit code 0\n"


@pytest.mark.parametrize("command", [f"{sys.executable} hello.py", "sh hello.py", "cat hello.py"])
async def test_a_command_missing_a_file_says_where_files_of_its_name_are(env: ToolEnv, command: str) -> None:
    (env.cwd / "scripts").mkdir()
    (env.cwd / "scripts" / "hello.py").write_text("print('Hello from the bench')\n")
    out = await RUN_COMMAND.run(run(command), env)
    assert out.endswith("\n[hello.py is not where the command looked; in the working folder: scripts/hello.py]")


async def test_a_missing_file_found_nowhere_adds_nothing(env: ToolEnv) -> None:
    out = await RUN_COMMAND.run(run("cat nowhere.txt"), env)
    assert out == "exit code 1\ncat: nowhere.txt: No such file or directory\n"


async def test_run_command_caps_output(env: ToolEnv) -> None:
    out = await RUN_COMMAND.run(run("head -c 100000 /dev/zero | tr '\\0' a; echo END"), env)
    assert out.startswith("exit code 0\naaaa")
    assert out.rstrip().endswith("aEND")
    assert "[output capped at 16 KB: 84004 bytes not shown]" in out
    assert len(out) < acting.OUTPUT_CAP + 200


async def test_run_command_timeout_kills_the_group(env: ToolEnv, subreaper: None) -> None:
    command = "echo $$ > pgid; sleep 100 & sleep 100"
    started = time.monotonic()
    with pytest.raises(ToolFailure) as failure:
        await RUN_COMMAND.run(run(command, timeout_s=0.5), env)
    assert str(failure.value) == (
        "'run_command' timed out after 0.5s; the process group was killed"
    )
    assert time.monotonic() - started < 5
    pgid = int((env.cwd / "pgid").read_text())
    assert not group_alive(pgid)


async def test_the_users_tool_timeout_caps_the_models_timeout_s(harness) -> None:
    await harness.start(
        "gate:\n  rules:\n    - {tool: run_command, decision: allow}\n", runtime_extra="  tool_timeout_s: 1\n"
    )
    harness.model.enqueue(call("run_command", {"command": "sleep 5", "timeout_s": 60}), text("It timed out."))
    started = time.monotonic()
    await harness.turn("run sleep 5")
    assert time.monotonic() - started < 5
    assert harness.sent(1)[-1]["content"] == (
        "tool error: 'run_command' timed out after 1s (the user's runtime.tool_timeout_s);"
        " the process group was killed"
    )


async def test_run_command_cancellation_kills_the_group(env: ToolEnv, subreaper: None) -> None:
    command = "echo $$ > pgid; trap '' TERM; sleep 100 & sleep 100"  # the shell ignores TERM
    task = asyncio.ensure_future(RUN_COMMAND.run(run(command), env))
    pgid = await started_group(env.cwd / "pgid")
    assert group_alive(pgid)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not group_alive(pgid)


async def test_wait_for_timeout_kills_the_group(env: ToolEnv, subreaper: None) -> None:
    """The daemon's own per-tool timeout (asyncio.wait_for) cancels the run."""
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(RUN_COMMAND.run(run("echo $$ > pgid; sleep 100"), env), 0.5)
    assert not group_alive(int((env.cwd / "pgid").read_text()))


async def test_run_command_stops_what_it_left_running(env: ToolEnv, subreaper: None) -> None:
    started = time.monotonic()
    out = await RUN_COMMAND.run(run("echo $$ > pgid; sleep 100 & echo started"), env)
    assert out.startswith("exit code 0\nstarted\n")
    assert "[processes it left running were stopped]" in out
    assert time.monotonic() - started < 5
    assert not group_alive(int((env.cwd / "pgid").read_text()))
