"""`saturn bench bfcl`: BFCL v4 cases through Saturn and through raw calls, scored by BFCL.

Layout: bench/results/bfcl-<date>-<model>/cases.jsonl (one line per case: both runs, their
decoded calls and BFCL's verdicts), summary.md (per category, Saturn vs raw passed/total),
meta.json (the exact command, the set-up, wall times). One embedded model server is started
for the whole run (unless --base-url names one); every per-case daemon and the raw baseline
talk to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.bfcl import BFCL_VERSION, raw_runner, saturn_runner
from bench.bfcl.cases import Case, load_cases
from bench.bfcl.saturn_runner import SaturnSetup
from bench.bfcl.score import score
from bench.daemon import DaemonSpec, default_model_cache, setup_record

RESULTS_DIR = Path(__file__).resolve().parent.parent / "results"


@dataclass
class BfclOptions:
    categories: list[str]
    model: str = "qwen2.5-coder-1.5b"
    limit: int | None = None
    slice_name: str = "report"
    out_dir: Path | None = None
    base_url: str = ""
    tool_mode: str = "constrained"
    think: str = "auto"
    which: tuple[str, ...] = ("saturn", "raw")
    turn_timeout_s: float = 240.0
    command: str = ""
    threads: int | None = None
    """The embedded server's threads (default: all cores; 1 on a machine shared with other runs)."""
    saturn_setup: SaturnSetup = field(default_factory=SaturnSetup)


def summary_md(rows: list[dict[str, Any]], options: BfclOptions) -> str:
    """Over every row in the folder: runs with other --category sets may share it."""
    categories = list(dict.fromkeys([r["category"] for r in rows] + options.categories))
    lines = [f"# BFCL v4 (bfcl-eval {BFCL_VERSION}): Saturn vs raw, {options.model}", "",
             f"Slice: {options.slice_name}; Saturn tool_mode {options.tool_mode}, think {options.think},"
             f" built-in tools offered: {options.saturn_setup.builtins}, tool descriptions up to"
             f" {options.saturn_setup.description_chars} characters; scored by BFCL's own checkers.", "",
             "| category | n | Saturn passed | raw passed |", "|---|---|---|---|"]
    for category in categories:
        mine = [r for r in rows if r["category"] == category]
        cells = []
        for who in ("saturn", "raw"):
            done = [r for r in mine if who in r]
            cells.append(f"{sum(r[who]['valid'] for r in done)}/{len(done)}" if done else "-")
        lines.append(f"| {category} | {len(mine)} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def run_error(got: dict[str, Any]) -> str:
    """Why a run did not finish ("" if it did): an HTTP error, a daemon that failed, a turn that
    failed or timed out. The issue counts any error as a failure: no call made because the
    server answered 500 is not a right "no call"."""
    if got.get("error"):
        return str(got["error"])
    unfinished = [t["status"] for t in got.get("turns", []) if t.get("status") != "completed"]
    return f"turn {unfinished[0]}" if unfinished else ""


async def _one(case: Case, options: BfclOptions, spec: DaemonSpec, base_url: str) -> dict[str, Any]:
    runners = {
        "saturn": lambda: saturn_runner.run_case(case, spec, options.turn_timeout_s, options.saturn_setup),
        "raw": lambda: raw_runner.run_case(case, base_url, options.model, options.turn_timeout_s),
    }
    row: dict[str, Any] = {"id": case.id, "category": case.category}
    for who in ("saturn", "raw"):
        if who not in options.which:
            continue
        t0 = time.monotonic()
        got = await runners[who]()
        verdict = score(case, got["observed"], who)
        if failure := run_error(got):
            verdict = {**verdict, "valid": False, "error": [failure], "error_type": "run_error"}
        row[who] = {**verdict, **{k: v for k, v in got.items() if k != "observed"},
                    "observed": got["observed"], "wall_s": round(time.monotonic() - t0, 2)}
    return row


async def run_async(options: BfclOptions) -> Path:
    day = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    out = options.out_dir or RESULTS_DIR / f"bfcl-{day}-{options.model}"
    out.mkdir(parents=True, exist_ok=True)
    cases = {c: load_cases(c, options.slice_name, options.limit) for c in options.categories}
    main_task = asyncio.current_task()
    if main_task is not None:  # SIGTERM/SIGINT: stop cleanly (daemons, model server, summary)
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, main_task.cancel)
    started = time.monotonic()
    embedded = None
    base_url = options.base_url
    if not base_url:
        from saturnd.model.embedded import EmbeddedModel

        embedded = EmbeddedModel(options.model, cache_dir=default_model_cache(), log_path=out / "model.log",
                                 threads=options.threads)
        base_url = await embedded.start()
    spec = DaemonSpec(model=options.model, policy=options.think, base_url=base_url,
                      tool_mode=options.tool_mode, turn_budget_s=options.turn_timeout_s)
    # The set-up of the server that answered. Every daemon reaches the embedded one by its URL,
    # but it is recorded as what it is: the GGUF (its cache stamp) and the template it runs.
    served = replace(spec, base_url="", model_cache=default_model_cache()) if embedded else spec
    meta: dict[str, Any] = {
        "command": options.command, "bfcl_eval": BFCL_VERSION, "slice": options.slice_name,
        "categories": options.categories, "limit": options.limit, "which": list(options.which),
        "setup": {**setup_record(served, embedded.template_path if embedded else None),
                  "model_server": "embedded" if embedded else options.base_url,
                  "think": options.think, "turn_timeout_s": options.turn_timeout_s,
                  "threads": options.threads, "saturn_builtins": options.saturn_setup.builtins,
                  "saturn_description_chars": options.saturn_setup.description_chars},
        "model_ready_s": round(time.monotonic() - started, 1),
        "started": datetime.now(UTC).isoformat(timespec="seconds"), "wall_s": {},
    }
    rows: list[dict[str, Any]] = []
    if (out / "cases.jsonl").exists():  # an earlier run into the same folder
        rows = [json.loads(line) for line in (out / "cases.jsonl").read_text().splitlines() if line.strip()]
    with contextlib.suppress(OSError, ValueError):
        earlier = json.loads((out / "meta.json").read_text(encoding="utf-8"))
        meta["earlier_runs"] = [*earlier.pop("earlier_runs", []), earlier]
    try:
        with (out / "cases.jsonl").open("a", encoding="utf-8") as log:
            for category, chosen in cases.items():
                t0 = time.monotonic()
                for case in chosen:
                    row = await _one(case, options, spec, base_url)
                    rows.append(row)
                    log.write(json.dumps(row, default=str) + "\n")
                    log.flush()
                    print(f"{case.id}: saturn={row.get('saturn', {}).get('valid')} raw={row.get('raw', {}).get('valid')}",
                          flush=True)
                meta["wall_s"][category] = round(time.monotonic() - t0, 1)
                (out / "summary.md").write_text(summary_md(rows, options), encoding="utf-8")
                (out / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    finally:
        if embedded is not None:
            await embedded.stop()
        meta["wall_s"]["total"] = round(time.monotonic() - started, 1)
        (out / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        (out / "summary.md").write_text(summary_md(rows, options), encoding="utf-8")
    print((out / "summary.md").read_text(encoding="utf-8"))
    print(f"results: {out}")
    return out


def run(options: BfclOptions) -> int:
    asyncio.run(run_async(options))
    return 0
