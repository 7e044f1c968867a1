"""run_command's process groups must not outlive the daemon.

Each command's shell leads its own process group. A marker (an environment variable only that
command's processes carry), then the group id, are recorded in the store while it runs, so a
daemon that was killed (kill -9, a crash, the machine's OOM killer) leaves a list behind: the
next daemon ends what is left of those groups before it serves anyone. On Linux the shell
also gets a parent-death signal, so it dies with the daemon at once; what the shell started
keeps running until that restart (the signal is not inherited past one fork).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("saturnd")

MARKER_ENV = "SATURN_COMMAND_ID"
"""Set in every run_command's environment to its own id: proof that a process is ours."""
PR_SET_PDEATHSIG = 1
PROC = sys.platform == "linux"
"""/proc says which processes are in a group and what environment each has."""
END_GRACE_S = 2.0


def _load_prctl() -> Callable[..., int] | None:
    if sys.platform != "linux":
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


_prctl = _load_prctl()  # looked up once here: the child after fork only calls it


def parent_death_signal() -> Callable[[], None] | None:
    """A preexec function that makes the child get SIGKILL when the daemon dies (Linux), or
    None where there is no such thing."""
    if _prctl is None:
        return None
    prctl, parent = _prctl, os.getpid()

    def die_with_parent() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the daemon died before the signal was armed
            os._exit(1)

    return die_with_parent


def _marker_of(pid: int) -> str | None:
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # gone, or another user's
        return None
    prefix = f"{MARKER_ENV}=".encode()
    for variable in environ.split(b"\0"):
        if variable.startswith(prefix):
            return variable[len(prefix) :].decode(errors="replace")
    return None


def _process_groups() -> dict[int, int]:
    """pid -> process group of every live process (zombies left out)."""
    groups = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] not in ("Z", "X"):
            groups[int(entry.name)] = int(fields[2])
    return groups


def _groups_left_running(recorded: list[tuple[str, int | None]]) -> set[int]:
    """The process groups in which a recorded command still runs. A group id can be reused
    once its group is gone, so on Linux a process counts only if it carries a recorded
    command's marker (which also finds a command whose group id was never written: the daemon
    died between the spawn and the record). Elsewhere (no /proc) a recorded group that exists
    is taken to be the command's."""
    if PROC:
        markers = {marker for marker, _ in recorded}
        return {pgid for pid, pgid in _process_groups().items() if _marker_of(pid) in markers}
    return {pgid for _, pgid in recorded if pgid is not None and _signal(pgid, 0)}


def end_leftover_groups(recorded: list[tuple[str, int | None]]) -> list[int]:
    """SIGTERM, then SIGKILL after a grace, to each group a recorded command still runs in;
    returns those group ids."""
    left = sorted(_groups_left_running(recorded)) if recorded else []
    for pgid in left:
        _signal(pgid, signal.SIGTERM)
    deadline = time.monotonic() + END_GRACE_S
    while left and time.monotonic() < deadline and any(_alive(pgid) for pgid in left):
        time.sleep(0.05)
    for pgid in left:
        _signal(pgid, signal.SIGKILL)
    return left


def _alive(pgid: int) -> bool:
    if PROC:  # zombies (reaped by whoever adopted them, not us) do not count
        return pgid in _process_groups().values()
    return _signal(pgid, 0)


def _signal(pgid: int, sig: int) -> bool:
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False
