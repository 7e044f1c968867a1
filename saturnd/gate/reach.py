"""Where file tools reach, judged on real paths.

A path argument is judged where it really leads: `~` expanded, made absolute against the
working folder, every symlink resolved (a folder link out of the working folder, or a file
link pointing out, is outside). Read tools run freely inside the working folder and the
knowledge base and ask outside them. The known secret stores are never reached unless a gate
rule allows it: a key read is a key sent to the model, and with a remote model that is
exfiltration. Walks (search_files, the ground's folder scan, the knowledge base) follow no
symlink out of where they started and step over the secret stores.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

SECRET_STORES = (
    ".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker", ".netrc",
    ".password-store",
    # keychains and wallets
    "Library/Keychains", ".local/share/keyrings", ".local/share/kwalletd", ".kde/share/apps/kwallet",
    # browser profiles: saved passwords, cookies, sessions
    ".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
    ".config/microsoft-edge", "snap/firefox", "snap/chromium",
    "Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
    "Library/Application Support/BraveSoftware", "Library/Application Support/Microsoft Edge",
    "Library/Safari", "Library/Cookies",
)
"""Relative to the home folder."""


def is_dotenv(name: str) -> bool:
    """`.env`, `.env.local`, `.env.production`: where projects keep their keys."""
    return name == ".env" or name.startswith(".env.")


def within(path: str, folder: str) -> bool:
    """Both real and absolute. `/a/bc` is not within `/a/b`."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass(frozen=True)
class Reach:
    """The real paths a file tool's arguments are judged against."""

    cwd: str
    """The working folder, real."""
    kb: str
    """The knowledge base folder, real; empty when there is none to consider."""
    home: str
    """The user's home folder, real: where the secret stores are."""

    @classmethod
    def of(cls, cwd: str | Path, kb_dir: str | Path | None = None, home: str | Path | None = None) -> Reach:
        return cls(
            cwd=os.path.realpath(cwd),
            kb=os.path.realpath(kb_dir) if kb_dir else "",
            home=os.path.realpath(home if home is not None else Path.home()),
        )

    def real(self, value: str) -> str:
        """Where a path argument really leads (`~` expands; relative is against the working folder)."""
        return os.path.realpath(os.path.join(self.cwd, os.path.expanduser(value)))

    def inside(self, real: str) -> bool:
        """In the working folder or the knowledge base."""
        return within(real, self.cwd) or bool(self.kb) and within(real, self.kb)

    def secret_store(self, real: str) -> str | None:
        """The secret store `real` is in, as the user knows it (`~/.ssh`, `.env`), or None.
        A `.env` file counts only outside the working folder: the project's own is its business."""
        if within(real, self.home):
            for store, folder in zip(SECRET_STORES, self._store_folders, strict=True):
                if within(real, folder):
                    return f"~/{store}"
        if is_dotenv(os.path.basename(real)) and not within(real, self.cwd):
            return os.path.basename(real)
        return None

    @cached_property
    def _store_folders(self) -> tuple[str, ...]:
        return tuple(os.path.join(self.home, store) for store in SECRET_STORES)

    @cached_property
    def _store_folder_set(self) -> frozenset[str]:
        return frozenset(self._store_folders)

    def walk_may_read(self, path: str, is_symlink: bool, root: str) -> bool:
        """Whether a walk started at the real folder `root` may read, or enter, the entry at
        `path`: a symlink must lead somewhere under root, and the entry must be in no secret
        store that root itself is not in. The walk asks about every folder before entering it,
        so an entry reached through no symlink is in a store only if it is one: a set lookup,
        which keeps a 2,000-entry folder scan of the home folder within its 50 ms."""
        if is_symlink:
            real = os.path.realpath(path)
            if not within(real, root):
                return False
        elif path in self._store_folder_set or is_dotenv(os.path.basename(path)):
            real = path
        else:
            return True
        store = self.secret_store(real)
        return store is None or store == self.secret_store(root)
