"""A throwaway saturnd for the measurement scripts: temp home, data dir and socket."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def scratch_daemon(config: str, prefix: str = "sb-") -> Iterator[Path]:
    """Yields the temp root: `home/`, `work/`, and the socket at `run/s.sock`, with config.yaml
    written before the daemon starts; the daemon is stopped on exit."""
    with tempfile.TemporaryDirectory(prefix=prefix, dir="/tmp") as tmp:
        root = Path(tmp)
        (root / "home").mkdir()
        (root / "work").mkdir()
        (root / "home" / "config.yaml").write_text(config)
        env = dict(os.environ, SATURN_HOME=str(root / "home"), SATURN_DATA_DIR=str(root / "data"),
                   SATURN_SOCKET=str(root / "run" / "s.sock"), PYTHONPATH=str(REPO))
        daemon = subprocess.Popen([sys.executable, "-m", "saturnd"], env=env, stderr=subprocess.DEVNULL)
        try:
            while not (root / "run" / "s.sock").exists():
                if daemon.poll() is not None:
                    raise SystemExit(f"saturnd exited with code {daemon.returncode}")
                time.sleep(0.02)
            yield root
        finally:
            daemon.terminate()
            daemon.wait()
