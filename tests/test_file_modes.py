"""File modes (issue 13, fix 4): the store, its -wal/-shm and the log are the user's alone
(0600) in a data folder only the user can enter (0700), even where an older Saturn left a
0755 folder and 0644 files."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most users have: new files 0644 unless Saturn says otherwise."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_the_store_and_the_log_are_private(saturn_env, fake_model, usual_umask):
    fake_model.enqueue("Hello.")
    result = saturn_env.saturn("-p", "hi")  # starts the daemon in the background, logging to saturnd.log
    assert result.returncode == 0, result.stderr
    data = saturn_env.data_dir
    files = ["saturn.db", "saturn.db-wal", "saturn.db-shm", "saturnd.log"]
    assert {name: oct(mode(data / name)) for name in files} == dict.fromkeys(files, "0o600")
    assert mode(data) == 0o700


def test_an_old_open_data_folder_is_tightened(saturn_env, fake_model, usual_umask):
    data = saturn_env.data_dir
    data.mkdir()
    os.chmod(data, 0o755)
    for name in ("saturn.db", "saturnd.log"):
        (data / name).touch()
        os.chmod(data / name, 0o644)
    fake_model.enqueue("Hello.")
    assert saturn_env.saturn("-p", "hi").returncode == 0
    files = ["saturn.db", "saturn.db-wal", "saturn.db-shm", "saturnd.log"]
    assert {name: oct(mode(data / name)) for name in files} == dict.fromkeys(files, "0o600")
    assert mode(data) == 0o700
