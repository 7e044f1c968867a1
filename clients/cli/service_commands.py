"""`saturn service install|uninstall|status|logs`: saturnd as a background service of the OS.

macOS: a LaunchAgent in ~/Library/LaunchAgents, loaded with `launchctl bootstrap gui/$UID`.
Linux: a systemd user unit in ~/.config/systemd/user, enabled with `systemctl --user enable
--now` where a user systemd runs; where none does, the unit is written and the message says how
to enable it (exit code 2).

Either way the daemon's output goes to the same log file `saturn daemon start` writes
(SATURN_DATA_DIR/saturnd.log), which is where `saturn service logs` reads.
"""

from __future__ import annotations

import abc
import os
import plistlib
import shutil
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from machine.daemon_process import DAEMON_ARGV
from machine.paths import resolve_paths

LABEL = "org.saturn.saturnd"
"""The LaunchAgent's label."""
UNIT_NAME = "saturnd.service"
PASSED_ENV = ("SATURN_HOME", "SATURN_DATA_DIR", "SATURN_SOCKET", "SATURN_LOG_LEVEL", "PYTHONPATH")
"""Environment the service keeps from the shell that installed it, so it runs the same daemon
on the same files."""
NO_RESTART_EXIT_CODES = (2, 3)
"""saturnd's exits that restarting cannot fix: a broken config.yaml, another daemon running."""
NOT_ENABLED = 2
"""Exit code of `install` when the unit was written but no user systemd runs to enable it."""
NOT_INSTALLED = 3


@dataclass(frozen=True)
class ServiceSpec:
    """What the service runs and where its output goes: the same for launchd and systemd."""

    argv: tuple[str, ...]
    env: dict[str, str]
    log_file: Path

    @classmethod
    def current(cls, environ: dict[str, str] | None = None) -> ServiceSpec:
        environ = dict(os.environ) if environ is None else environ
        return cls(
            argv=(sys.executable, *DAEMON_ARGV),
            env={name: environ[name] for name in PASSED_ENV if environ.get(name)},
            log_file=resolve_paths(environ).log_file,
        )


def launchd_plist(spec: ServiceSpec) -> bytes:
    """RunAtLoad starts it at login; KeepAlive restarts it only when it did not exit cleanly."""
    plist: dict[str, object] = {
        "Label": LABEL,
        "ProgramArguments": list(spec.argv),
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": 10,
        "StandardOutPath": str(spec.log_file),
        "StandardErrorPath": str(spec.log_file),
        "ProcessType": "Background",
    }
    if spec.env:
        plist["EnvironmentVariables"] = dict(spec.env)
    return plistlib.dumps(plist)


def systemd_unit(spec: ServiceSpec) -> str:
    lines = [
        "[Unit]",
        "Description=Saturn, your local agent (saturnd)",
        "",
        "[Service]",
        "Type=simple",
        f"ExecStart={' '.join(_systemd_quote(arg) for arg in spec.argv)}",
        *(f"Environment={_systemd_quote(f'{name}={value}')}" for name, value in spec.env.items()),
        "Restart=on-failure",
        "RestartSec=5",
        f"RestartPreventExitStatus={' '.join(map(str, NO_RESTART_EXIT_CODES))}",
        f"StandardOutput=append:{_systemd_escape(str(spec.log_file))}",
        f"StandardError=append:{_systemd_escape(str(spec.log_file))}",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
    ]
    return "\n".join(lines)


def _systemd_escape(text: str) -> str:
    """`%` starts a specifier in unit files."""
    return text.replace("%", "%%")


def _systemd_quote(text: str) -> str:
    text = _systemd_escape(text)
    if text and not any(c in text for c in ' \t"\'\\;$'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def plist_path() -> Path:
    return Path.home() / "Library" / "LaunchAgents" / f"{LABEL}.plist"


def unit_path() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "systemd" / "user" / UNIT_NAME


def run(action: str, lines: int = 50, follow: bool = False) -> int:
    spec = ServiceSpec.current()
    if action == "logs":
        return show_logs(spec.log_file, lines, follow)
    manager: ServiceManager = Launchd() if sys.platform == "darwin" else Systemd()
    if action == "install":
        return manager.install(spec)
    if action == "uninstall":
        return manager.uninstall()
    return manager.status(spec)


class ServiceManager(abc.ABC):
    path: Path

    @abc.abstractmethod
    def install(self, spec: ServiceSpec) -> int: ...

    @abc.abstractmethod
    def uninstall(self) -> int: ...

    @abc.abstractmethod
    def state(self) -> str:
        """What the OS says of the service, in a few words."""

    def status(self, spec: ServiceSpec) -> int:
        if not self.path.exists():
            print(f"saturnd service: not installed ({self.path} does not exist)")
            return NOT_INSTALLED
        print(f"saturnd service: installed at {self.path}")
        print(f"state:    {self.state()}")
        print(f"logs:     {spec.log_file} (saturn service logs)")
        return 0

    def _write(self, content: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_bytes(content)


class Launchd(ServiceManager):
    def __init__(self) -> None:
        self.path = plist_path()
        self.domain = f"gui/{os.getuid()}"

    def install(self, spec: ServiceSpec) -> int:
        if _refuse_a_running_daemon():
            return 1
        spec.log_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.path.exists():  # a reinstall replaces the loaded job
            _run("launchctl", "bootout", f"{self.domain}/{LABEL}")
        self._write(launchd_plist(spec))
        loaded = _run("launchctl", "bootstrap", self.domain, str(self.path))
        if loaded.returncode != 0:
            print(f"saturn: wrote {self.path}, but launchctl bootstrap failed: {loaded.output}",
                  file=sys.stderr)
            return 1
        print(f"installed {self.path}; saturnd runs now and at every login (logs: {spec.log_file})")
        return 0

    def uninstall(self) -> int:
        if not self.path.exists():
            print(f"saturnd service: not installed ({self.path} does not exist)")
            return 0
        _run("launchctl", "bootout", f"{self.domain}/{LABEL}")
        self.path.unlink()
        print(f"uninstalled: stopped {LABEL} and removed {self.path}")
        return 0

    def state(self) -> str:
        printed = _run("launchctl", "print", f"{self.domain}/{LABEL}")
        if printed.returncode != 0:
            return "not loaded (launchctl bootstrap gui/$UID the plist, or saturn service install)"
        for line in printed.output.splitlines():
            if line.strip().startswith("state ="):
                return line.strip()
        return "loaded"


class Systemd(ServiceManager):
    def __init__(self) -> None:
        self.path = unit_path()

    def install(self, spec: ServiceSpec) -> int:
        if _refuse_a_running_daemon():
            return 1
        spec.log_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._write(systemd_unit(spec).encode())
        if not user_systemd_runs():
            print(
                f"wrote {self.path}, but no systemd user instance runs here, so it is not enabled."
                f" Where one runs: systemctl --user daemon-reload &&"
                f" systemctl --user enable --now {UNIT_NAME}",
                file=sys.stderr,
            )
            return NOT_ENABLED
        _run("systemctl", "--user", "daemon-reload")
        enabled = _run("systemctl", "--user", "enable", "--now", UNIT_NAME)
        if enabled.returncode != 0:
            print(f"saturn: wrote {self.path}, but systemctl --user enable --now failed:"
                  f" {enabled.output}", file=sys.stderr)
            return 1
        print(f"installed {self.path}; saturnd runs now and at every login (logs: {spec.log_file})")
        return 0

    def uninstall(self) -> int:
        if not self.path.exists():
            print(f"saturnd service: not installed ({self.path} does not exist)")
            return 0
        if user_systemd_runs():
            _run("systemctl", "--user", "disable", "--now", UNIT_NAME)
        self.path.unlink()
        if user_systemd_runs():
            _run("systemctl", "--user", "daemon-reload")
        print(f"uninstalled: removed {self.path}")
        return 0

    def state(self) -> str:
        if not user_systemd_runs():
            return "not enabled: no systemd user instance runs here"
        active = _run("systemctl", "--user", "is-active", UNIT_NAME).output or "unknown"
        enabled = _run("systemctl", "--user", "is-enabled", UNIT_NAME).output or "unknown"
        return f"{active}, {enabled}"


def user_systemd_runs() -> bool:
    """Whether `systemctl --user` has a manager to talk to (not in most containers, nor over
    ssh without lingering)."""
    if shutil.which("systemctl") is None:
        return False
    return _run("systemctl", "--user", "show-environment").returncode == 0


@dataclass(frozen=True)
class _Ran:
    returncode: int
    output: str


def _run(*argv: str) -> _Ran:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return _Ran(127, str(exc))
    return _Ran(done.returncode, (done.stdout + done.stderr).strip())


def _refuse_a_running_daemon() -> bool:
    """A daemon started by hand holds the lock: the service's would exit at once."""
    from clients.cli.daemon_control import socket_path, try_connect

    client = try_connect(socket_path())
    if client is None:
        return False
    with client:
        pid = client.call("daemon/status").pid
    print(f"saturn: saturnd is already running (pid {pid}) outside the service;"
          " stop it first: saturn daemon stop", file=sys.stderr)
    return True


def show_logs(log_file: Path, lines: int, follow: bool) -> int:
    if not log_file.exists():
        print(f"saturn: no log yet at {log_file}", file=sys.stderr)
        return 1
    with log_file.open("r", errors="replace") as log:
        sys.stdout.writelines(deque(log, maxlen=lines))
        sys.stdout.flush()
        while follow:
            line = log.readline()
            if line:
                sys.stdout.write(line)
                sys.stdout.flush()
            else:
                time.sleep(0.25)
    return 0
