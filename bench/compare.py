"""Two loop-benchmark runs of the same tasks side by side: a lever's before and after.

`saturn bench report` groups runs by model x policy; a harness lever changes neither, so
its A/B is compared here (bench/HARNESS.md states the rule):

    python -m bench.compare bench/results/BEFORE bench/results/AFTER [--out table.md]

Per category: passes before and after; overall: pass^1, the exact McNemar p on the tasks
both ran, median and p90 task time, the load the runs saw, and the prompt cache's share.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from bench.stats import mcnemar_p, outcomes

Records = list[dict[str, Any]]


def load(run: Path) -> Records:
    path = run / "runs.jsonl" if run.is_dir() else run
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def compare(before: Records, after: Records, names: tuple[str, str] = ("before", "after")) -> list[str]:
    passed_a, passed_b = outcomes(before), outcomes(after)
    shared = sorted(set(passed_a) & set(passed_b))
    category = {r["task"]: r["category"] for r in before + after}
    lines = [f"| category | tasks | {names[0]} | {names[1]} |", "|---|---|---|---|"]
    for cat in sorted({category[t] for t in shared}):
        tasks = [t for t in shared if category[t] == cat]
        lines.append(f"| {cat} | {len(tasks)} | {sum(passed_a[t] for t in tasks)} | {sum(passed_b[t] for t in tasks)} |")
    total_a, total_b = sum(passed_a[t] for t in shared), sum(passed_b[t] for t in shared)
    lines.append(f"| **all** | {len(shared)} | **{total_a}** ({total_a / max(1, len(shared)):.0%}) |"
                 f" **{total_b}** ({total_b / max(1, len(shared)):.0%}) |")
    gained = sum(passed_b[t] and not passed_a[t] for t in shared)
    lost = sum(passed_a[t] and not passed_b[t] for t in shared)
    lines += ["", f"{gained} tasks pass only {names[1]}, {lost} only {names[0]}: exact McNemar p = {mcnemar_p(gained, lost):.2g}."]
    for name, records in zip(names, (before, after), strict=True):
        walls = [float(r["wall_s"]) for r in records if r["task"] in shared]
        loads = [float(r["load_1m"]) for r in records if r.get("load_1m") is not None]
        prompt = sum(int(r.get("tokens_in", 0)) for r in records)
        cached = sum(int(r.get("tokens_cached", 0)) for r in records)
        cache = f"; {cached} of {prompt} prompt tokens ({cached / prompt:.0%}) from the server's cache" if cached else ""
        lines.append(
            f"- {name}: median task {statistics.median(walls):.1f} s, p90 {percentile(walls, 0.9):.1f} s,"
            f" load average {statistics.mean(loads):.1f}{cache}" if walls and loads else f"- {name}: no times"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--names", default="before,after", help="the two columns' names")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    a, b = args.names.split(",", 1)
    text = "\n".join(compare(load(args.before), load(args.after), (a, b))) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
