"""A keyring backend in a JSON file ($SATURN_HOME/keyring.json): the daemon under test reads the
tokens a test stored, without the OS keyring. Chosen with
PYTHON_KEYRING_BACKEND=tests.file_keyring.FileKeyring."""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend


class FileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    @staticmethod
    def _file() -> Path:
        return Path(os.environ["SATURN_HOME"]) / "keyring.json"

    def _entries(self) -> dict[str, str]:
        return json.loads(self._file().read_text()) if self._file().exists() else {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._entries().get(f"{service}/{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        entries = self._entries()
        entries[f"{service}/{username}"] = password
        self._file().parent.mkdir(parents=True, exist_ok=True)
        self._file().write_text(json.dumps(entries))

    def delete_password(self, service: str, username: str) -> None:
        entries = self._entries()
        entries.pop(f"{service}/{username}", None)
        self._file().write_text(json.dumps(entries))
