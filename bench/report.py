"""`saturn bench report RUN…`: markdown tables, the first-move confusion matrix, paired
McNemar p-values, a pass-rate vs suite-time plot, and the ACCEPTANCE.md verdict."""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

from bench.checkers import OBSERVED_MOVES
from bench.stats import Records, Summary, confusion, failure_labels, group, pair, summarize, tier
from bench.suite import CATEGORIES
from bench.verdict import load_rule, verdicts

PLOT_NAME = "pass_vs_time.png"


def load_runs(paths: list[Path]) -> tuple[Records, list[dict[str, Any]]]:
    """Records and meta of each run folder (a runs.jsonl path works too)."""
    records: Records = []
    metas: list[dict[str, Any]] = []
    for path in paths:
        log = path if path.is_file() else path / "runs.jsonl"
        records += [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        meta = log.parent / "meta.json"
        if meta.exists():
            metas.append(json.loads(meta.read_text()))
    return records, metas


def summary_table(runs: dict[tuple[str, str], Records]) -> list[str]:
    lines = [
        "| tier | policy | passed/total | pass^k | first move right | model calls (drafts + thinking)"
        " | thoughts (reruns after a draft) | suite time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (model, policy), records in sorted(runs.items()):
        s = summarize(model, policy, records)
        lines.append(
            f"| {model} | {policy} | {s.passed_mean:g}/{s.tasks} | {s.pass_all}/{s.tasks} (k={s.repeats})"
            f" | {s.first_moves_right:g}/{s.tasks} | {s.model_calls:g} ({s.draft_calls:g} + {s.thinking_calls:g})"
            f" | {s.thinking_calls:g} ({s.thinking_reruns:g}) | {_duration(s.suite_s)} |"
        )
    return lines


def category_table(runs: dict[tuple[str, str], Records]) -> list[str]:
    keys = sorted(runs)
    lines = ["| category | " + " | ".join(f"{m} {p}" for m, p in keys) + " |",
             "|---|" + "---|" * len(keys)]
    for category in CATEGORIES:
        cells = []
        for key in keys:
            rows = [r for r in runs[key] if r["category"] == category]
            cells.append(f"{sum(r['passed'] for r in rows)}/{len(rows)}" if rows else "-")
        if any(c != "-" for c in cells):
            lines.append(f"| {category} | " + " | ".join(cells) + " |")
    return lines


def confusion_table(records: Records) -> list[str]:
    matrix = confusion(records)
    lines = ["| expected \\ observed | " + " | ".join(OBSERVED_MOVES) + " |",
             "|---|" + "---|" * len(OBSERVED_MOVES)]
    for expected, row in matrix.items():
        if sum(row.values()):
            lines.append(f"| {expected} | " + " | ".join(str(row[o]) for o in OBSERVED_MOVES) + " |")
    return lines


def mcnemar_table(runs: dict[tuple[str, str], Records]) -> list[str]:
    lines = ["| tier | A | B | A only | B only | both | neither | p (exact) |", "|---|---|---|---|---|---|---|---|"]
    for model in sorted({m for m, _ in runs}):
        policies = sorted(p for m, p in runs if m == model)
        for a, b in combinations(policies, 2):
            x = pair(a, runs[(model, a)], b, runs[(model, b)])
            lines.append(f"| {model} | {a} | {b} | {x.a_only} | {x.b_only} | {x.both} | {x.neither} | {x.p:.3g} |")
    return lines if len(lines) > 2 else ["(one policy per tier: nothing to pair)"]


def timing_lines(records: Records) -> list[str]:
    """How long a task takes, so the full suite's time can be stated before running it."""
    lines = []
    for (model, policy), rows in sorted(group(records).items()):
        walls = sorted(float(r["wall_s"]) for r in rows)
        ttfts = sorted(float(r["ttft_s"]) for r in rows if r.get("ttft_s") is not None)
        mean = sum(walls) / len(walls)
        loads = [float(r["load_1m"]) for r in rows if r.get("load_1m") is not None]
        load = f"; load average {sum(loads) / len(loads):.1f} on this machine" if loads else ""
        prompt = sum(int(r.get("tokens_in", 0)) for r in rows)
        cached = sum(int(r.get("tokens_cached", 0)) for r in rows)
        cache = f"; {cached} of {prompt} prompt tokens came from the server's cache" if cached else ""
        p90 = walls[min(len(walls) - 1, int(len(walls) * 0.9))]
        lines.append(
            f"- {model} {policy}: {mean:.1f} s per task on average (median {walls[len(walls) // 2]:.1f} s,"
            f" p90 {p90:.1f} s, max {walls[-1]:.0f} s); first token after {_median(ttfts):.1f} s (median);"
            f" {len(rows)} tasks took {_duration(sum(walls))}{cache}{load}"
        )
    return lines


def plot(summaries: list[Summary], path: Path) -> str:
    """Pass rate against suite time, one point per tier x policy. Returns a line for the report."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "No plot: matplotlib is not installed (pip install 'saturn[bench]')."
    fig, ax = plt.subplots(figsize=(6, 4))
    for model in sorted({s.model for s in summaries}):
        points = [s for s in summaries if s.model == model]
        ax.scatter([s.suite_s / 60 for s in points], [100 * s.pass_rate for s in points], label=model)
        for s in points:
            ax.annotate(s.policy, (s.suite_s / 60, 100 * s.pass_rate), textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel("suite time (min, mean per repeat)")
    ax.set_ylabel("tasks passed (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"![pass rate vs suite time]({path.name})"


def render(records: Records, metas: list[dict[str, Any]], plot_path: Path | None = None) -> str:
    runs = group(records)
    out = ["# Loop benchmark report", ""]
    for meta in metas:
        out.append(f"- run `{meta['run_id']}`: `{meta['command']}` ({len(meta['tasks'])} tasks,"
                   f" started {meta['started_at']}, finished {meta.get('finished_at', 'not yet')})")
    out += _setup_lines(records)
    out += ["", "## Per policy and tier", "", *summary_table(runs), "", "## Per category", "", *category_table(runs)]
    out += ["", "## First move: expected vs observed", ""]
    for (model, policy), rows in sorted(runs.items()):
        out += [f"**{model} {policy}**", "", *confusion_table(rows), ""]
    out += ["## Paired McNemar (exact binomial, two-sided)", "", *mcnemar_table(runs), ""]
    out += ["## Failures by label", ""]
    for (model, policy), rows in sorted(runs.items()):
        labels = ", ".join(f"{k} {v}" for k, v in failure_labels(rows).items()) or "none"
        out.append(f"- {model} {policy}: {labels}")
    out += ["", "## Time per task", "", *timing_lines(records), ""]
    if plot_path is not None:
        summaries = [summarize(m, p, rows) for (m, p), rows in sorted(runs.items())]
        out += ["## Pass rate vs suite time", "", plot(summaries, plot_path), ""]
    out += ["## Verdict (bench/ACCEPTANCE.md)", ""]
    for v in verdicts(records, load_rule()):
        out.append(f"- **{v.policy}: {v.decision}**" + ("; " + "; ".join(v.reasons) if v.reasons else ""))
    return "\n".join(out) + "\n"


def _setup_lines(records: Records) -> list[str]:
    seen: dict[str, dict[str, Any]] = {}
    for r in records:
        seen.setdefault(tier(r), r.get("setup", {}))
    return [
        f"- {model}: model sha256 `{s.get('model_sha256', '')[:16] or 'n/a'}`, template sha256"
        f" `{s.get('template_sha256', '')[:16] or 'n/a'}`, temperature {s.get('temperature')},"
        f" tool_mode {s.get('tool_mode', 'default')},"
        f" commit `{s.get('commit', '')[:12] or 'unknown'}`"
        for model, s in sorted(seen.items())
    ]


def _median(values: list[float]) -> float:
    return values[len(values) // 2] if values else 0.0


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def report_command(paths: list[Path], out: Path | None = None) -> int:
    records, metas = load_runs(paths)
    if not records:
        print("saturn: no records in those runs", file=sys.stderr)
        return 1
    folder = out or (paths[0] if paths[0].is_dir() else paths[0].parent)
    folder.mkdir(parents=True, exist_ok=True)
    text = render(records, metas, folder / PLOT_NAME)
    (folder / "report.md").write_text(text)
    sys.stdout.write(text)
    return 0
