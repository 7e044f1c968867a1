"""Whether saturnd's socket can be trusted: judged by the client before it sends anything,
and by the daemon before it listens.

Whoever can write the socket's folder can put a socket of their own there, receive the
user's prompts and forge the answers, or move the real socket away. So, as ssh and gpg-agent
do with their sockets, a socket or folder that is not the user's, or that others can write,
is refused; and once connected, the client checks whose process serves the other end.
"""

from __future__ import annotations

import os
import pwd
import socket
import stat
import struct
import sys
from pathlib import Path

OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH
ROOT_UID = 0


class UntrustedSocket(Exception):
    """The socket or its folder is not the user's alone; nothing was sent."""


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def untrusted_reason(
    socket_path: Path, socket_stat: os.stat_result | None, folder_stat: os.stat_result | None, uid: int
) -> str | None:
    """Why the socket at `socket_path` must not be used, from the stat results of the socket and
    its folder (None: missing), or None when both are the user's alone. The folder may also
    be root's: root can do anything anyway."""
    if folder_stat is not None:
        problem = _ownership_problem(folder_stat, {uid, ROOT_UID})
        if problem:
            return f"the socket's folder {socket_path.parent} {problem}"
    if socket_stat is not None:
        problem = _ownership_problem(socket_stat, {uid})
        if problem:
            return f"the socket {socket_path} {problem}"
    return None


def _ownership_problem(found: os.stat_result, owners: set[int]) -> str | None:
    mode = stat.S_IMODE(found.st_mode)
    if found.st_uid not in owners:
        what = "is not yours"
    elif mode & OTHERS_WRITE:
        what = "is writable by others"
    else:
        return None
    return f"{what} (owner {user_name(found.st_uid)}, mode {mode:04o})"


def socket_problem(socket_path: Path) -> str | None:
    """`untrusted_reason` for the socket and folder as they are now."""
    return untrusted_reason(
        socket_path, _stat(socket_path, follow=False), _stat(socket_path.parent, follow=True), os.getuid()
    )


def _stat(path: Path, follow: bool) -> os.stat_result | None:
    try:
        return path.stat() if follow else path.lstat()
    except FileNotFoundError:
        return None


def peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end, from the kernel (None if the platform cannot say)."""
    if hasattr(socket, "SO_PEERCRED"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        return int(struct.unpack("3i", creds)[1])
    local_peercred = getattr(socket, "LOCAL_PEERCRED", 0x001)
    if sys.platform == "darwin":
        # struct xucred { u_int cr_version; uid_t cr_uid; short cr_ngroups; gid_t cr_groups[16]; }
        creds = sock.getsockopt(0, local_peercred, struct.calcsize("Iih16i"))
        return int(struct.unpack("Iih16i", creds)[1])
    return None


def connect_trusted(socket_path: Path) -> socket.socket | None:
    """A connected socket to saturnd, or None when nothing answers there. Raises UntrustedSocket,
    with one line naming the owner, when the socket or its folder is not the user's alone or
    another user's process answers."""
    problem = socket_problem(socket_path)
    if problem:
        raise UntrustedSocket(f"not connecting to saturnd: {problem}")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(socket_path))
    except OSError:
        sock.close()
        return None
    server = peer_uid(sock)
    if server is not None and server != os.getuid():
        sock.close()
        raise UntrustedSocket(f"not connecting to saturnd: {socket_path} is served by {user_name(server)}, not by you")
    return sock
