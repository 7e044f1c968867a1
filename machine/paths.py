"""Where Saturn keeps things. Every path can be redirected by environment."""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP = "saturn"


@dataclass(frozen=True)
class Paths:
    home: Path
    """User-edited files: config.yaml, SATURN.md, kb/."""
    data_dir: Path
    """Machine-managed data: the SQLite store, the assembled model cache."""
    socket: Path

    @property
    def runtime_dir(self) -> Path:
        return self.socket.parent

    @property
    def config_file(self) -> Path:
        return self.home / "config.yaml"

    @property
    def db_file(self) -> Path:
        return self.data_dir / "saturn.db"

    @property
    def front_door_socket(self) -> Path:
        """The OpenAI-compatible front door, beside the JSON-RPC socket."""
        return self.socket.with_name(f"{self.socket.stem}-openai.sock")

    @property
    def lock_file(self) -> Path:
        return self.runtime_dir / "saturnd.lock"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "saturnd.log"

    @property
    def model_cache(self) -> Path:
        return self.data_dir / "models"

    @property
    def kb_dir(self) -> Path:
        return self.home / "kb"


def resolve_paths(env: dict[str, str] | None = None) -> Paths:
    env = dict(os.environ) if env is None else env
    home = Path(env.get("SATURN_HOME") or Path.home() / ".saturn")
    data_dir = Path(env.get("SATURN_DATA_DIR") or platformdirs.user_data_dir(APP))
    if env.get("SATURN_SOCKET"):
        socket = Path(env["SATURN_SOCKET"])
    else:
        # user_runtime_dir falls back to a per-user /tmp folder where XDG_RUNTIME_DIR is unset.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            socket = Path(platformdirs.user_runtime_dir(APP)) / "saturnd.sock"
    return Paths(home=home.expanduser(), data_dir=data_dir.expanduser(), socket=socket.expanduser())
