"""`saturn bench run`: every task through the real daemon, per model x policy, logged as JSONL.

Layout of a run: bench/results/<run-id>/runs.jsonl (one line per task run) and meta.json
(the command, the set-up, the daemons' start-up times). One daemon serves one model x
policy; tasks that need another runtime.max_iterations get a daemon of their own, since
the bound is a daemon setting.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bench.daemon import BenchDaemon, DaemonSpec, PageServer, default_model_cache, setup_record
from bench.drive import Places, run_one
from bench.suite import load_tasks

RESULTS_DIR = Path(__file__).resolve().parent / "results"
TASK_TIMEOUT_MARGIN_S = 120.0
"""A turn gets its budget plus this long before the runner cancels it."""


@dataclass
class RunOptions:
    model: str
    policies: list[str]
    repeat: int = 1
    tasks: str = "*"
    base_url: str = ""
    tool_mode: str = "default"
    out_dir: Path = RESULTS_DIR
    run_id: str = ""
    turn_budget_s: float = 300.0
    threads: int = 0
    model_cache: Path | None = None
    command: str = ""
    tasks_dir: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    extra_yaml: str = ""
    """More config for every daemon of the run (`--config`)."""
    daemon_argv: tuple[str, ...] = ("-m", "saturnd")


class Progress:
    """One stderr line, rewritten in place on a terminal; one line per task elsewhere."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total, self.done, self.passed = total, 0, 0
        self.stream = stream
        self.started = time.monotonic()

    def step(self, label: str, record: dict[str, Any]) -> None:
        self.done += 1
        self.passed += bool(record["passed"])
        width = 24
        filled = int(width * self.done / max(1, self.total))
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done)
        mark = "ok  " if record["passed"] else "FAIL"
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} passed {self.passed}"
            f" | {label} {mark} {record['task']} {record['wall_s']:.0f}s"
            f" | {elapsed / 60:.1f} min, ~{left / 60:.0f} min left"
        )
        tty = self.stream.isatty()
        self.stream.write(("\r\x1b[2K" + line) if tty else line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.stream.isatty():
            self.stream.write("\n")


def new_run_id(model: str) -> str:
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{model.replace('/', '_')}"


def bound_groups(tasks: list[dict[str, Any]]) -> list[tuple[int | None, list[dict[str, Any]]]]:
    """Tasks by the max_iterations they need, default first (each group is one daemon)."""
    groups: dict[int | None, list[dict[str, Any]]] = {}
    for task in tasks:
        groups.setdefault(task["max_iterations"], []).append(task)
    return sorted(groups.items(), key=lambda item: (item[0] is not None, item[0] or 0))


def run_plan(
    tasks: list[dict[str, Any]], policies: list[str], repeats: int
) -> list[tuple[int, str, int | None, list[dict[str, Any]]]]:
    """(repeat, policy, max_iterations, tasks) per daemon, whole repeats first: a run stopped
    during its second repeat still holds a complete first one (bound's own daemon used to come
    after every repeat of the rest, so a stopped run had no bound task at all)."""
    return [(repeat, policy, limit, group) for repeat in range(1, repeats + 1) for policy in policies
            for limit, group in bound_groups(tasks)]


async def run_bench(options: RunOptions, on_record: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """Run the whole matrix; returns the run folder."""
    tasks = load_tasks(options.tasks_dir, options.tasks) if options.tasks_dir else load_tasks(pattern=options.tasks)
    if not tasks:
        raise SystemExit(f"no task matches {options.tasks!r}")
    run_id = options.run_id or new_run_id(options.model)
    folder = options.out_dir / run_id
    folder.mkdir(parents=True, exist_ok=True)
    meta = _meta(options, run_id, tasks)
    _write_meta(folder, meta)  # the command is on disk from the start, whatever happens later
    progress = Progress(len(tasks) * options.repeat * len(options.policies))
    with PageServer() as pages, (folder / "runs.jsonl").open("a") as log:
        for repeat, policy, limit, group in run_plan(tasks, options.policies, options.repeat):
            spec = _spec(options, policy, limit)
            daemon_meta = await _run_group(spec, group, repeat, run_id, pages, log, progress, on_record, options)
            meta["daemons"].append(daemon_meta)
            _write_meta(folder, meta)
    progress.close()
    meta["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    _write_meta(folder, meta)
    return folder


def _spec(options: RunOptions, policy: str, limit: int | None) -> DaemonSpec:
    cache = options.model_cache or (None if options.base_url else default_model_cache())
    return DaemonSpec(
        model=options.model, policy=policy, base_url=options.base_url, tool_mode=options.tool_mode,
        max_iterations=limit,
        turn_budget_s=options.turn_budget_s, threads=options.threads, model_cache=cache, extra_env=options.extra_env,
        daemon_argv=options.daemon_argv, extra_yaml=options.extra_yaml,
    )


async def _run_group(
    spec: DaemonSpec, group: list[dict[str, Any]], repeat: int, run_id: str,
    pages: PageServer, log: TextIO, progress: Progress,
    on_record: Callable[[dict[str, Any]], None] | None, options: RunOptions,
) -> dict[str, Any]:
    daemon = BenchDaemon(spec)
    try:
        client = await daemon.start()
        setup = setup_record(spec)
        label = f"{spec.model} {spec.policy}"
        try:
            for task in group:
                record = await _one(client, daemon, task, pages, options)
                # The 1-minute load average: timings on a shared 2-core machine need it.
                record = {"run_id": run_id, "model": spec.model, "policy": spec.policy,
                          "repeat": repeat, **record, "load_1m": round(os.getloadavg()[0], 2),
                          "setup": setup}
                log.write(json.dumps(record, ensure_ascii=False) + "\n")
                log.flush()
                progress.step(label, record)
                if on_record is not None:
                    on_record(record)
        finally:
            await client.close()
        return {"policy": spec.policy, "max_iterations": spec.max_iterations, "repeat": repeat,
                "ready_s": round(daemon.ready_s, 1), "tasks": len(group)}
    finally:
        daemon.stop()


async def _one(client: Any, daemon: BenchDaemon, task: dict[str, Any], pages: PageServer,
               options: RunOptions) -> dict[str, Any]:
    pages.pages = dict(task["pages"])
    places = Places(work=daemon.root / "work" / task["id"], kb_dir=daemon.kb_dir,
                    outbox=daemon.outbox, pages_url=pages.base_url)
    return await run_one(client, task, places, options.turn_budget_s + TASK_TIMEOUT_MARGIN_S)


def _meta(options: RunOptions, run_id: str, tasks: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "command": options.command or "saturn bench run " + shlex.join(_argv_of(options)),
        "model": options.model, "policies": options.policies, "repeat": options.repeat,
        "task_glob": options.tasks, "tasks": [t["id"] for t in tasks], "base_url": options.base_url,
        "tool_mode": options.tool_mode,
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"), "daemons": [],
    }


def _argv_of(options: RunOptions) -> list[str]:
    argv = ["--model", options.model, "--policy", ",".join(options.policies), "--repeat", str(options.repeat)]
    if options.tasks != "*":
        argv += ["--tasks", options.tasks]
    if options.base_url:
        argv += ["--base-url", options.base_url]
    if options.tool_mode != "default":
        argv += ["--tool-mode", options.tool_mode]
    return argv


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")


def run(options: RunOptions) -> int:
    folder = asyncio.run(run_bench(options))
    print(f"results: {folder}")
    print(f"report:  saturn bench report {folder}")
    return 0
