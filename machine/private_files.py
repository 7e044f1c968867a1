"""Saturn's data is the user's alone: the data folder 0700, the store and the logs 0600, whatever
the umask, and whatever mode an older Saturn or another tool left them with.

Modes are set file by file rather than by a daemon-wide umask: the daemon's umask is also
that of the commands it runs and the files it writes for the user, which keep theirs.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> None:
    """Create `path` 0700, or tighten it to 0700 if it already exists."""
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    os.chmod(path, PRIVATE_DIR)


def private_file(path: Path) -> None:
    """Create `path` empty and 0600, or tighten it to 0600 if it already exists."""
    path.touch(mode=PRIVATE_FILE, exist_ok=True)
    os.chmod(path, PRIVATE_FILE)


def tighten(path: Path) -> None:
    """0600 if `path` exists; nothing if it does not."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(path, PRIVATE_FILE)


def open_private_append(path: Path) -> BinaryIO:
    """`path` opened for appending bytes, created 0600 (tightened if it was not)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
    os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, "ab")
