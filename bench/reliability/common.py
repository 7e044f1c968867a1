"""What the proofs share: a daemon on the scripted model, /proc readings, and the report."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from saturnd.testing.fake_model import FakeModel
from saturnd.testing.scratch import ScratchDaemon, ScratchHome

TRACEBACK = "Traceback (most recent call last)"


@dataclass
class Proof:
    """One promise's measured figures and whether each target held."""

    title: str
    figures: dict[str, object] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def figure(self, name: str, value: object) -> None:
        self.figures[name] = value

    def expect(self, holds: bool, what: str) -> None:
        """Records `what` as a broken target when it does not hold."""
        if not holds:
            self.failures.append(what)

    @property
    def ok(self) -> bool:
        return not self.failures

    def render(self) -> str:
        lines = [f"## {self.title}"]
        lines += [f"  {name}: {value}" for name, value in self.figures.items()]
        lines.append(f"  wall time: {time.monotonic() - self.started:.1f} s; load average"
                     f" {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        lines.append("  verdict: " + ("ok" if self.ok else "FAILED: " + "; ".join(self.failures)))
        return "\n".join(lines)


def short_flag(description: str) -> bool:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--short", action="store_true", help="the quick run CI does")
    return parser.parse_args().short


def config_yaml(model: FakeModel, extra: str = "") -> str:
    return (f"model:\n  base_url: {model.url}\n  name: fake\nruntime:\n  think: off\n"
            "  max_iterations: 6\n" + extra)


@contextmanager
def daemon_on(model: FakeModel, extra: str = "", prefix: str = "rl-",
              env: dict[str, str] | None = None) -> Iterator[ScratchDaemon]:
    """A saturnd in a scratch home of its own, on the scripted model (`env`: added to its
    environment); gone on exit."""
    with ScratchHome(prefix, env) as scratch:
        scratch.write_config(config_yaml(model, extra))
        daemon = ScratchDaemon(scratch).start()
        try:
            yield daemon
        finally:
            daemon.stop()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_fds(pid: int, tcp: bool = True) -> int:
    """The process's open fds; with `tcp` False, its TCP sockets left out: the model client's pool
    keeps one connection per turn that ran at once, so its size follows how the turns overlapped
    (under load a wave overlaps more than the warm-up did), and is no client's leak."""
    fds = os.listdir(f"/proc/{pid}/fd")
    return len(fds) if tcp else len(fds) - tcp_sockets(pid)


def tcp_sockets(pid: int) -> int:
    inodes = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            inodes |= {row.split()[9] for row in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]}
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            count += target.startswith("socket:[") and target[8:-1] in inodes
    return count


def descendants(pid: int) -> list[int]:
    """Every live process below `pid` (children, grandchildren ...), zombies excluded."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def processes_in_groups(groups: set[int]) -> list[int]:
    """Live (not zombie) processes whose process group is one of `groups`."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) in groups:
            alive.append(int(entry))
    return alive


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def proof_main(run: Callable[[bool], Proof], doc: str | None) -> int:
    """A proof script's entry: --short from the command line, the proof printed, failure as exit 1."""
    proof = run(short_flag((doc or "").split("\n\n")[0]))
    print(proof.render())
    return 0 if proof.ok else 1
