"""Tools that change things: write_file, edit_file, run_command.

run_command runs `/bin/sh -c` in its own process group; when the command ends, times out
or is cancelled, whatever is left of that group is killed (SIGTERM, then SIGKILL) and
reaped, so nothing it started outlives the call. A daemon killed meanwhile leaves the group
recorded, for the next one to end (saturnd.tools.command_groups).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
import uuid
from pathlib import Path
from typing import Annotated

import msgspec

from saturnd.gate.reach import Reach
from saturnd.tools.builtin_files import files_named, not_a_file, resolve
from saturnd.tools.command_groups import MARKER_ENV, parent_death_signal
from saturnd.tools.edits import file_diff, line_named, replaced, save
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread

OUTPUT_CAP = 16_000  # bytes of command output returned: the first and last 8 KB
KILL_GRACE_S = 2.0  # SIGTERM → SIGKILL
DRAIN_S = 0.5  # after the shell exits, how long background holders of its output may keep it
MAX_TIMEOUT_S = 600


# -- write_file ----------------------------------------------------------------------------


class WriteFileParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    content: str


def _content(path: Path, display: str, content: str) -> tuple[str, str]:
    if path.is_dir():
        raise not_a_file(path, display)
    if content and not content.endswith("\n") and _ends_a_line(path):
        # The 1.5B rewrites a list without its last newline: the next line added would join it.
        return content + "\n", "; kept its final newline"
    return content, ""


def _write(path: Path, display: str, content: str) -> str:
    content, kept = _content(path, display, content)
    data = content.encode("utf-8")
    if path.is_file() and _holds(path, data):
        # asked to add cheddar already on the list, the 1.5B wrote the list back and said "updated"
        return f"nothing changed: {display} already held exactly this ({len(data)} bytes)"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as e:
        raise ToolFailure(f"cannot write {display}: {e.strerror or e}") from e
    return f"wrote {display} ({len(data)} bytes{kept})"


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _ends_a_line(path: Path) -> bool:
    """Whether the file is there and its last byte ends a line."""
    try:
        with path.open("rb") as existing:
            existing.seek(-1, os.SEEK_END)
            return existing.read(1) == b"\n"
    except OSError:  # missing, or empty (seeking before the start)
        return False


def _write_preview(params: WriteFileParams, env: ToolEnv) -> str:
    path = resolve(params.path, env.cwd)
    content, _ = _content(path, params.path, params.content)
    if not path.is_file():
        return file_diff(params.path, None, content)
    raw = path.read_bytes()
    if b"\0" in raw[:8192]:
        return f"replaces the binary file {params.path} ({len(raw)} bytes) with text"
    return file_diff(params.path, raw.decode("utf-8", errors="replace"), content)


WRITE_FILE = Tool(name="write_file", description="Create or overwrite a text file with the given content.",
                  params=WriteFileParams, risk="write", target="path", preview=_write_preview,
                  run=in_thread(lambda p, env: _write(resolve(p.path, env.cwd), p.path, p.content)))


# -- edit_file -----------------------------------------------------------------------------


class EditFileParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    old: Annotated[str, msgspec.Meta(min_length=1, description="exact text, found once")]
    new: str


def _edit_preview(params: EditFileParams, env: ToolEnv) -> str:
    made = replaced(resolve(params.path, env.cwd), params.path, params.old, params.new)
    return file_diff(params.path, made.doc.text, made.after)


EDIT_FILE = Tool(name="edit_file", description="Replace one exact occurrence of old text with new text in a file.",
                 params=EditFileParams, risk="write", parent="read_file", target="path", preview=_edit_preview,
                 run=in_thread(lambda p, env: save(replaced(resolve(p.path, env.cwd), p.path, p.old, p.new))),
                 names_entry=lambda p, cwd: line_named(resolve(p.path, cwd), p.path, p.old))


# -- run_command ---------------------------------------------------------------------------


class RunCommandParams(msgspec.Struct, forbid_unknown_fields=True):
    command: Annotated[str, msgspec.Meta(min_length=1)]
    timeout_s: Annotated[float, msgspec.Meta(gt=0, le=MAX_TIMEOUT_S)] = 60


class _Output:
    """Keeps the first and last OUTPUT_CAP/2 bytes of a stream, and counts the rest."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = OUTPUT_CAP // 2 - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        del self.tail[: max(0, len(self.tail) - OUTPUT_CAP // 2)]

    def text(self) -> str:
        head = self.head.decode("utf-8", errors="replace")
        tail = self.tail.decode("utf-8", errors="replace")
        skipped = self.total - len(self.head) - len(self.tail)
        if skipped:
            return f"{head}\n[output capped at 16 KB: {skipped} bytes not shown]\n{tail}"
        return head + tail


async def _pump(stream: asyncio.StreamReader, out: _Output) -> None:
    while chunk := await stream.read(65_536):
        out.add(chunk)


def _signal_group(pgid: int, sig: int) -> bool:
    """False once no process of the group is left (zombies still count until reaped)."""
    try:
        os.killpg(pgid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:  # the group id was reused by someone else's process
        return False


def _reap_group(pgid: int) -> None:
    """Reap members that became our children (when this process is a child subreaper)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-pgid, os.WNOHANG)[0]:
            pass


async def _gone(proc: asyncio.subprocess.Process, within: float) -> bool:
    deadline = time.monotonic() + within
    while True:
        if proc.returncode is not None:  # never reap the shell under asyncio's child watcher
            _reap_group(proc.pid)
        if not _signal_group(proc.pid, 0):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)


async def _kill_group(proc: asyncio.subprocess.Process) -> bool:
    """Stop every process of the command's group and reap the shell; True if any were left.

    The kill signals go out even if this is cancelled again while it waits.
    """
    pgid = proc.pid  # start_new_session: the shell leads its own group
    if not _signal_group(pgid, signal.SIGTERM):
        return False
    try:
        if not await _gone(proc, KILL_GRACE_S):
            _signal_group(pgid, signal.SIGKILL)
    except asyncio.CancelledError:
        _signal_group(pgid, signal.SIGKILL)
        raise
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), KILL_GRACE_S)
    await _gone(proc, KILL_GRACE_S)
    return True


async def _exited(proc: asyncio.subprocess.Process) -> None:
    """The shell has exited. proc.wait() would also wait for every holder of the output pipe
    (a background `cmd &`), and the returncode is the only exit signal Process exposes."""
    while proc.returncode is None:  # noqa: ASYNC110
        await asyncio.sleep(0.02)


async def _run_command(params: RunCommandParams, env: ToolEnv) -> str:
    limit_s = min(params.timeout_s, env.tool_timeout_s)
    marker = uuid.uuid4().hex
    env.command_groups.command_starting(marker)
    try:
        proc = await asyncio.create_subprocess_exec(
            "/bin/sh", "-c", params.command,
            cwd=env.cwd,
            env={**os.environ, MARKER_ENV: marker},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=parent_death_signal(),
        )
    except OSError as e:
        env.command_groups.command_ended(marker)
        raise ToolFailure(f"cannot start /bin/sh in {env.cwd}: {e.strerror or e}") from e
    env.command_groups.command_started(marker, proc.pid)
    assert proc.stdout is not None
    out = _Output()
    reader = asyncio.create_task(_pump(proc.stdout, out))
    timed_out = False
    leftovers = False
    try:
        try:
            await asyncio.wait_for(_exited(proc), limit_s)
        except TimeoutError:
            timed_out = True
        else:  # background processes may still hold the output pipe
            await asyncio.wait({reader}, timeout=DRAIN_S)
    finally:
        try:
            leftovers = await _kill_group(proc)
        finally:  # even when cancelled: _kill_group has sent SIGKILL by then
            env.command_groups.command_ended(marker)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reader, DRAIN_S)
    if timed_out:
        why = " (the user's runtime.tool_timeout_s)" if limit_s < params.timeout_s else ""
        raise ToolFailure(f"'run_command' timed out after {limit_s:g}s{why}; the process group was killed")
    code = proc.returncode
    status = f"exit code {code}"
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            status += f" (killed by {signal.Signals(-code).name})"
    note = "\n[processes it left running were stopped]" if leftovers else ""
    if code:
        note += await asyncio.to_thread(_elsewhere, out.text(), env)
    return f"{status}\n{out.text()}{note}"


MISSING_FILE = re.compile(r"can't open file '(?P<quoted>[^']+)'|(?P<path>[\w./~-]+): (?:No such file|not found)")
"""How python and the shells say a file the command names is missing."""


def _elsewhere(output: str, env: ToolEnv) -> str:
    """Where files of a missing name are in the working folder: asked to run "python3 hello.py",
    the 1.5B got "No such file or directory" and answered that hello.py does not exist, though
    scripts/hello.py does."""
    hints = []
    for found in MISSING_FILE.finditer(output):
        name = os.path.basename(found.group("quoted") or found.group("path"))
        if "." in name and (where := files_named(env.cwd, name, Reach.of(env.cwd, env.kb_dir))):
            hints.append(f"\n[{name} is not where the command looked; in the working folder: {', '.join(where)}]")
    return "".join(dict.fromkeys(hints))


RUN_COMMAND = Tool(name="run_command", params=RunCommandParams, run=_run_command, risk="exec", target="command",
                   description="Run a shell command in the working folder; gives exit code and output.",
                   cleanup_s=3 * KILL_GRACE_S + 5)  # it stops the command at its limit itself, then kills the group

ACTING_TOOLS = [WRITE_FILE, EDIT_FILE, RUN_COMMAND]
