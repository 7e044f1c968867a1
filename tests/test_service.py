"""`saturn service`: the launchd plist and systemd unit it writes, and the logs it reads."""

from __future__ import annotations

import os
import plistlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from clients.cli.service_commands import (
    LABEL,
    NOT_ENABLED,
    ServiceSpec,
    launchd_plist,
    systemd_unit,
    user_systemd_runs,
)
from machine.daemon_process import wait_until_answering

SPEC = ServiceSpec(
    argv=("/opt/my python/bin/python3", "-m", "saturnd"),
    env={"SATURN_HOME": "/home/me/.saturn", "SATURN_DATA_DIR": "/data/100% saturn"},
    log_file=Path("/data/100% saturn/saturnd.log"),
)


def test_the_plist_runs_the_exact_interpreter_at_load_and_again_after_a_crash():
    plist = plistlib.loads(launchd_plist(SPEC))
    assert plist == {
        "Label": LABEL,
        "ProgramArguments": ["/opt/my python/bin/python3", "-m", "saturnd"],
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": 10,
        "StandardOutPath": "/data/100% saturn/saturnd.log",
        "StandardErrorPath": "/data/100% saturn/saturnd.log",
        "ProcessType": "Background",
        "EnvironmentVariables": {"SATURN_HOME": "/home/me/.saturn", "SATURN_DATA_DIR": "/data/100% saturn"},
    }


def test_the_unit_quotes_spaces_and_escapes_specifiers():
    unit = systemd_unit(SPEC)
    assert 'ExecStart="/opt/my python/bin/python3" -m saturnd' in unit.splitlines()
    assert 'Environment="SATURN_DATA_DIR=/data/100%% saturn"' in unit.splitlines()
    assert "Restart=on-failure" in unit.splitlines()
    assert "StandardOutput=append:/data/100%% saturn/saturnd.log" in unit.splitlines()


def _unit_file(env) -> Path:
    return Path(env.env["HOME"]) / ".config" / "systemd" / "user" / "saturnd.service"


@pytest.fixture
def service_env(saturn_env):
    """A temp HOME; the service keeps SATURN_HOME, SATURN_DATA_DIR and SATURN_SOCKET."""
    saturn_env.extra_env.update(HOME=str(saturn_env.root), XDG_CONFIG_HOME="")
    return saturn_env


@pytest.mark.skipif(sys.platform == "darwin", reason="the Linux path: a systemd user unit")
def test_install_writes_a_unit_systemd_accepts(service_env):
    installed = service_env.saturn("service", "install")
    unit = _unit_file(service_env)
    assert unit.exists(), installed.stderr
    text = unit.read_text()
    assert f"ExecStart={shlex.quote(sys.executable)} -m saturnd" in text
    assert f"Environment=SATURN_SOCKET={service_env.socket}" in text
    assert f"StandardError=append:{service_env.data_dir / 'saturnd.log'}" in text
    if user_systemd_runs():
        assert installed.returncode == 0, installed.stderr
    else:
        assert installed.returncode == NOT_ENABLED
        assert "no systemd user instance runs here, so it is not enabled" in installed.stderr
        assert "systemctl --user enable --now saturnd.service" in installed.stderr
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the unit was not verified")
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert (verified.returncode, verified.stderr) == (0, "")


@pytest.mark.skipif(sys.platform == "darwin", reason="the Linux path: a systemd user unit")
def test_status_and_uninstall(service_env):
    assert service_env.saturn("service", "status").returncode == 3
    service_env.saturn("service", "install")
    status = service_env.saturn("service", "status")
    assert status.returncode == 0
    assert f"saturnd service: installed at {_unit_file(service_env)}" in status.stdout
    removed = service_env.saturn("service", "uninstall")
    assert removed.returncode == 0 and not _unit_file(service_env).exists()


def test_the_daemon_the_unit_starts_logs_where_service_logs_reads(service_env, fake_model):
    """Runs the unit's ExecStart with its Environment and output as systemd would."""
    service_env.saturn("service", "install")
    lines = _unit_file(service_env).read_text().splitlines()
    value = {line.split("=", 1)[0]: line.split("=", 1)[1] for line in lines if "=" in line}
    env = {k: v for k, v in os.environ.items() if not k.startswith("SATURN_")}
    env.update(line.split("=", 1)[1].split("=", 1) for line in lines if line.startswith("Environment="))
    log_file = Path(value["StandardOutput"].removeprefix("append:"))
    with log_file.open("ab") as log:
        daemon = subprocess.Popen(shlex.split(value["ExecStart"]), env=env, stdout=log, stderr=log)
    try:
        wait_until_answering(daemon, service_env.socket, timeout_s=30)
        logs = service_env.saturn("service", "logs", "-n", "5")
        assert logs.returncode == 0
        assert f"saturnd listening on {service_env.socket}" in logs.stdout
    finally:
        daemon.terminate()
        daemon.wait(timeout=15)


def test_install_refuses_while_a_daemon_runs_outside_the_service(service_env, daemon):
    refused = service_env.saturn("service", "install")
    assert refused.returncode == 1
    assert f"saturnd is already running (pid {daemon.pid}) outside the service" in refused.stderr
