"""Socket squatting (issue 13, fix 3): a client sends nothing to a socket whose folder another
user controls, and the daemon will not listen in such a folder. Another uid cannot be made
here, so the rule is tested as a pure function over stat results, and end to end with a
folder others can write."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from machine.socket_trust import untrusted_reason, user_name
from saturnd.testing.scratch import ScratchDaemon

ME, OTHER = 1000, 1001
SOCKET = Path("/run/user/1000/saturn/saturnd.sock")


def stat_of(kind: int, mode: int, uid: int) -> os.stat_result:
    return os.stat_result((kind | mode, 1, 1, 1, uid, uid, 0, 0, 0, 0))


def folder(mode: int, uid: int = ME) -> os.stat_result:
    return stat_of(stat.S_IFDIR, mode, uid)


def sock(mode: int = 0o600, uid: int = ME) -> os.stat_result:
    return stat_of(stat.S_IFSOCK, mode, uid)


@pytest.mark.parametrize(("socket_stat", "folder_stat", "reason"), [
    (sock(), folder(0o700), None),
    (None, folder(0o755), None),
    (None, None, None),
    (sock(), folder(0o755, uid=0), None),  # root's folder: root could do anything anyway
    (sock(), folder(0o777), f"the socket's folder {SOCKET.parent} is writable by others (owner {user_name(ME)}, mode 0777)"),
    (sock(), folder(0o1777), f"the socket's folder {SOCKET.parent} is writable by others (owner {user_name(ME)}, mode 1777)"),
    (None, folder(0o770), f"the socket's folder {SOCKET.parent} is writable by others (owner {user_name(ME)}, mode 0770)"),
    (sock(), folder(0o700, uid=OTHER), f"the socket's folder {SOCKET.parent} is not yours (owner {user_name(OTHER)}, mode 0700)"),
    (sock(uid=OTHER), folder(0o700), f"the socket {SOCKET} is not yours (owner {user_name(OTHER)}, mode 0600)"),
    (sock(0o666), folder(0o700), f"the socket {SOCKET} is writable by others (owner {user_name(ME)}, mode 0666)"),
])
def test_the_socket_and_its_folder_must_be_the_users_alone(socket_stat, folder_stat, reason):
    assert untrusted_reason(SOCKET, socket_stat, folder_stat, ME) == reason


def test_an_unknown_owner_is_named_by_uid():
    assert user_name(2**31 - 7) == f"uid {2**31 - 7}"


def open_folder(path: Path, mode: int) -> None:
    path.mkdir(exist_ok=True)
    os.chmod(path, mode)


def test_the_daemon_will_not_listen_in_a_folder_others_can_write(saturn_env):
    open_folder(saturn_env.socket.parent, 0o777)
    started = subprocess.run([sys.executable, "-m", "saturnd"], env=saturn_env.env,
                             capture_output=True, text=True, timeout=30)
    assert started.returncode != 0
    owner = user_name(os.getuid())
    assert started.stderr.strip().splitlines()[-1] == (
        f"saturnd: not starting: the socket's folder {saturn_env.socket.parent} is writable by others"
        f" (owner {owner}, mode 0777); saturnd listens only in a folder that is yours alone"
        " (SATURN_SOCKET moves the socket)")
    assert not saturn_env.socket.exists() and not (saturn_env.socket.parent / "saturnd.lock").exists()


def test_the_client_sends_nothing_through_a_folder_others_can_write(saturn_env, fake_model):
    daemon = ScratchDaemon(saturn_env).start()
    try:
        os.chmod(saturn_env.socket.parent, 0o770)
        fake_model.enqueue("a forged or real answer")
        result = saturn_env.saturn("-p", "hello")
        status = saturn_env.saturn("daemon", "status")
    finally:
        os.chmod(saturn_env.socket.parent, 0o700)
        daemon.stop()
    owner = user_name(os.getuid())
    refusal = (f"saturn: not connecting to saturnd: the socket's folder {saturn_env.socket.parent}"
               f" is writable by others (owner {owner}, mode 0770)\n")
    assert (result.returncode, result.stdout, result.stderr) == (1, "", refusal)
    assert (status.returncode, status.stderr) == (1, refusal)
    assert fake_model.requests == []
