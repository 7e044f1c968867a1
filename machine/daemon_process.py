"""Starting saturnd as a child process and waiting until its socket answers.

The one way a daemon is started: by `saturn` (the background daemon), by the tests and by
the benchmark (a throwaway daemon in a temp home, `saturnd.testing.scratch`). It runs the
daemon as `python -m saturnd`, so a client that starts one never imports it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO

DAEMON_ARGV = ("-m", "saturnd")
"""What follows the interpreter on the daemon's command line."""


class DaemonDidNotStart(Exception):
    """The daemon exited, or its socket did not answer in time; the message says which."""


def spawn_daemon(
    output: IO[bytes] | int, env: Mapping[str, str] | None = None,
    argv: tuple[str, ...] = DAEMON_ARGV, detach: bool = False,
) -> subprocess.Popen[bytes]:
    """`output` takes the daemon's stdout and stderr. `detach`: a session of its own, so the
    daemon outlives the terminal that started it."""
    return subprocess.Popen(
        [sys.executable, *argv], env=None if env is None else dict(env), stdin=subprocess.DEVNULL,
        stdout=output, stderr=subprocess.STDOUT, start_new_session=detach, close_fds=True,
    )


def socket_answers(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def wait_until_answering(
    process: subprocess.Popen[bytes], path: Path, timeout_s: float, poll_s: float = 0.02
) -> None:
    """Returns once `path` accepts a connection. A daemon that exits while another one answers
    lost a race with another starter: that is fine."""
    deadline = time.monotonic() + timeout_s
    while not socket_answers(path):
        if process.poll() is not None:
            if socket_answers(path):
                return
            raise DaemonDidNotStart(f"saturnd exited with code {process.returncode}")
        if time.monotonic() > deadline:
            raise DaemonDidNotStart(f"saturnd did not open {path} within {timeout_s:g}s")
        time.sleep(poll_s)
