"""The numbers a report needs, from run records: per model x policy summaries, the first-move
confusion matrix, and the exact McNemar test. Pure functions of lists of dicts."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from bench.checkers import MOVE_KINDS, OBSERVED_MOVES

Records = list[dict[str, Any]]


def mcnemar_p(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: b and c are the discordant pairs (A passed and B
    failed, and the reverse); under no difference each is Binomial(b + c, 1/2)."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def tier(record: dict[str, Any]) -> str:
    """The model, and its tool mode when not the default: constrained and native runs of one
    model are different tiers (they think differently: in the grammar's thought field, or on
    the server)."""
    mode = (record.get("setup") or {}).get("tool_mode", "default")
    return record["model"] if mode in ("", "default") else f"{record['model']} [{mode}]"


def group(records: Records) -> dict[tuple[str, str], Records]:
    """(tier, policy) -> its records."""
    out: dict[tuple[str, str], Records] = defaultdict(list)
    for r in records:
        out[(tier(r), r["policy"])].append(r)
    return dict(out)


def outcomes(records: Records) -> dict[str, bool]:
    """task -> passed, where a task with repeats passed if it passed in more than half its runs."""
    runs: dict[str, list[bool]] = defaultdict(list)
    for r in records:
        runs[r["task"]].append(bool(r["passed"]))
    return {task: sum(v) * 2 > len(v) for task, v in runs.items()}


@dataclass
class Summary:
    model: str
    policy: str
    tasks: int
    repeats: int
    passed_mean: float
    """Tasks passed per repeat, averaged over repeats."""
    pass_all: int
    """pass^k: tasks passed in every one of their runs."""
    model_calls: float
    draft_calls: float
    thinking_calls: float
    thinking_reruns: float
    """Passes whose draft called a tool and was pulled back to think (act)."""
    suite_s: float
    """Sum of wall time over the tasks, averaged over repeats."""
    first_moves_right: float

    @property
    def pass_rate(self) -> float:
        return self.passed_mean / self.tasks if self.tasks else 0.0


def repeats_of(records: Records) -> int:
    """Runs per task: counted, not read from `repeat`, so runs made apart can be reported
    together (two `--repeat 1` runs are two repeats)."""
    per_task = Counter(r["task"] for r in records)
    return max(per_task.values(), default=1)


def summarize(model: str, policy: str, records: Records) -> Summary:
    repeats = repeats_of(records)
    runs: dict[str, list[bool]] = defaultdict(list)
    for r in records:
        runs[r["task"]].append(bool(r["passed"]))
    per_repeat = float(repeats)

    def mean(key: str) -> float:
        return sum(float(r.get(key) or 0) for r in records) / per_repeat

    return Summary(
        model=model, policy=policy, tasks=len(runs), repeats=repeats,
        passed_mean=sum(bool(r["passed"]) for r in records) / per_repeat,
        pass_all=sum(all(v) for v in runs.values()),
        model_calls=mean("model_calls"), draft_calls=mean("draft_calls"),
        thinking_calls=mean("thinking_calls"), thinking_reruns=mean("thinking_reruns"),
        suite_s=mean("wall_s"),
        first_moves_right=sum(bool(r["move_right"]) for r in records) / per_repeat,
    )


def confusion(records: Records) -> dict[str, dict[str, int]]:
    """expected move -> observed move -> count."""
    matrix = {e: dict.fromkeys(OBSERVED_MOVES, 0) for e in MOVE_KINDS}
    for r in records:
        matrix[r["expected_move"]][r["observed_move"]] += 1
    return matrix


@dataclass
class Pairing:
    a: str
    b: str
    a_only: int
    """Tasks A passed and B failed."""
    b_only: int
    both: int
    neither: int

    @property
    def p(self) -> float:
        return mcnemar_p(self.a_only, self.b_only)


def pair(a_name: str, a: Records, b_name: str, b: Records) -> Pairing:
    """Paired on the tasks both ran."""
    oa, ob = outcomes(a), outcomes(b)
    common = sorted(set(oa) & set(ob))
    return Pairing(
        a_name, b_name,
        a_only=sum(oa[t] and not ob[t] for t in common),
        b_only=sum(ob[t] and not oa[t] for t in common),
        both=sum(oa[t] and ob[t] for t in common),
        neither=sum(not oa[t] and not ob[t] for t in common),
    )


def failure_labels(records: Records) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for r in records:
        if not r["passed"]:
            counts[r["failure"].split(":")[0]] += 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))
