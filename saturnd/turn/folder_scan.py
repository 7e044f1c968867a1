"""What the working folder holds, read once per turn for the ground, within fixed bounds.

A small model that does not know `shopping.txt` exists answers "I don't have
access to your shopping list". So the ground shows a bounded map of the folder
(as aider's repo map does for code) and the text of its small files is ranked
against the request (retrieval.py). Run from a home folder with 100,000 files,
the scan still stops at its caps: entries visited, files read, bytes read and
wall time. Hidden, binary and large files are never read, nor anything a symlink
leads to outside the folder, nor a secret store (a working folder may be the home folder).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from saturnd.gate.reach import Reach
from saturnd.tools.builtin_files import SKIP_DIRS, SNIFF_BYTES


@dataclass(frozen=True)
class ScanLimits:
    max_entries: int = 2_000
    """Directory entries looked at, files and folders together."""
    max_depth: int = 3
    max_read_files: int = 60
    max_file_bytes: int = 32_768
    """Larger files are listed but never read."""
    max_total_bytes: int = 400_000
    max_seconds: float = 0.05
    always_entries: int = 100
    """Entries looked at whatever the clock says: a small folder's scan is the same on a busy
    machine (under load the wall-time cap had cut a five-file folder and changed the ground)."""


@dataclass(frozen=True)
class ScannedFile:
    rel: str
    """The path relative to the working folder, with / separators."""
    size: int
    text: str | None
    """The file's text when it was small, textual and within the caps; else None."""

    @property
    def first_line(self) -> str:
        if not self.text:
            return ""
        for line in self.text.splitlines():
            if line.strip():
                return " ".join(line.lstrip("# ").split())
        return ""


@dataclass(frozen=True)
class FolderScan:
    files: list[ScannedFile]
    folders: list[str]
    cut: bool
    """A cap ended the scan before it saw everything."""


def scan_folder(root: Path, limits: ScanLimits = ScanLimits()) -> FolderScan:
    """Files breadth-first (the folder's own before its subfolders'), names sorted."""
    deadline = time.monotonic() + limits.max_seconds
    files: list[ScannedFile] = []
    folders: list[str] = []
    entries = read_files = read_bytes = 0
    real_root = os.path.realpath(root)
    reach = Reach.of(real_root)
    queue: list[tuple[Path, str, int]] = [(Path(real_root), "", 0)]
    while queue:
        folder, prefix, depth = queue.pop(0)
        try:
            children = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in children:
            entries += 1
            if entries > limits.max_entries or entries > limits.always_entries and time.monotonic() > deadline:
                return FolderScan(files, folders, cut=True)
            if entry.name.startswith(".") or entry.name in SKIP_DIRS:
                continue
            rel = prefix + entry.name
            try:
                if not reach.walk_may_read(entry.path, entry.is_symlink(), real_root):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    folders.append(rel + "/")
                    if depth + 1 < limits.max_depth:
                        queue.append((Path(entry.path), rel + "/", depth + 1))
                    continue
                if not entry.is_file():
                    continue
                size = entry.stat().st_size
            except OSError:
                continue
            text = None
            if (size <= limits.max_file_bytes and read_files < limits.max_read_files
                    and read_bytes + size <= limits.max_total_bytes):
                text = _text_of(Path(entry.path))
                read_files += 1
                read_bytes += size
            files.append(ScannedFile(rel, size, text))
    return FolderScan(files, folders, cut=False)


def _text_of(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:SNIFF_BYTES]:
        return None
    return data.decode("utf-8", errors="replace")
