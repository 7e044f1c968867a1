"""The acceptance rule of bench/ACCEPTANCE.md, applied: the report prints its verdict."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bench.stats import Records, group, outcomes, pair, repeats_of

ACCEPTANCE = Path(__file__).resolve().parent / "ACCEPTANCE.md"


def load_rule(path: Path = ACCEPTANCE) -> dict[str, Any]:
    """The YAML block of ACCEPTANCE.md: the rule is stated once, in the document people read."""
    found = re.search(r"```yaml\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)
    if found is None:
        raise ValueError(f"{path}: no ```yaml block with the rule")
    rule = yaml.safe_load(found.group(1))
    assert isinstance(rule, dict)
    return rule


@dataclass
class Verdict:
    policy: str
    decision: str
    """replace act | judgment call | keep act | no decision: …"""
    reasons: list[str]


def verdicts(records: Records, rule: dict[str, Any]) -> list[Verdict]:
    """One verdict per policy run beside the baseline on the decision tier (per tool mode)."""
    runs = group(records)
    baseline = rule["baseline"]
    tiers = sorted({t for t, _ in runs if t.split(" [")[0] == rule["decision_tier"]})
    out = []
    for tier in tiers:
        if (tier, baseline) not in runs:
            out.append(Verdict(f"* on {tier}", f"no decision: no {baseline} run on {tier}", []))
            continue
        suffix = tier[len(rule["decision_tier"]):]
        tier_rule = {**rule, "decision_tier": tier, "guard_tier": rule["guard_tier"] + suffix}
        out += [judge(p, runs, tier_rule) for (t, p) in sorted(runs) if t == tier and p != baseline]
    return out or [Verdict("*", f"no decision: no {baseline} run on {rule['decision_tier']}", [])]


def judge(policy: str, runs: dict[tuple[str, str], Records], rule: dict[str, Any]) -> Verdict:
    baseline, tier, guard = rule["baseline"], rule["decision_tier"], rule["guard_tier"]
    cand, base = runs[(tier, policy)], runs[(tier, baseline)]
    paired = pair(policy, cand, baseline, base)
    tasks = paired.a_only + paired.b_only + paired.both + paired.neither
    more = sum(outcomes(cand).values()) - sum(outcomes(base).values())
    # Time on the tasks both ran: a partial run must not look cheap.
    common = set(outcomes(cand)) & set(outcomes(base))
    ratio = _suite_s(cand, common) / max(_suite_s(base, common), 1e-9)
    gain = more >= rule["min_more_passes"] and paired.p < rule["max_p"]
    reasons = [
        f"{tier}: {more:+d} tasks vs {baseline} (needs >= +{rule['min_more_passes']})",
        f"McNemar p = {paired.p:.3g} ({paired.a_only} vs {paired.b_only} discordant; needs < {rule['max_p']})",
        f"suite time x{ratio:.2f} (allowed <= x{rule['max_time_ratio']})",
    ]
    harmless, guard_note = _guard(policy, runs, rule, guard)
    reasons.append(guard_note)
    if tasks < rule["min_tasks"]:
        return Verdict(f"{policy} on {tier}", f"no decision: subset ({tasks} of >= {rule['min_tasks']} tasks)", reasons)
    if gain and ratio <= rule["max_time_ratio"] and harmless:
        return Verdict(f"{policy} on {tier}", f"replace {baseline}", reasons)
    if gain:
        return Verdict(f"{policy} on {tier}", "judgment call", reasons)
    return Verdict(f"{policy} on {tier}", f"keep {baseline}", reasons)


def _guard(policy: str, runs: dict[tuple[str, str], Records], rule: dict[str, Any], guard: str) -> tuple[bool, str]:
    if (guard, policy) not in runs or (guard, rule["baseline"]) not in runs:
        return True, f"{guard}: not run (no harm check)"
    fewer = sum(outcomes(runs[(guard, rule["baseline"])]).values()) - sum(outcomes(runs[(guard, policy)]).values())
    ok = fewer <= rule["guard_max_fewer_passes"]
    change = f"{fewer} fewer" if fewer >= 0 else f"{-fewer} more"
    return ok, f"{guard}: {change} tasks than {rule['baseline']} (allowed <= {rule['guard_max_fewer_passes']} fewer)"


def _suite_s(records: Records, tasks: set[str]) -> float:
    return sum(float(r["wall_s"]) for r in records if r["task"] in tasks) / repeats_of(records)
