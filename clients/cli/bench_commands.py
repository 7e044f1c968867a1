"""`saturn bench run|report`: the loop benchmark (bench/). Imports bench only when run."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bench = commands.add_parser("bench", help="run the loop benchmark, or report on runs")
    actions = bench.add_subparsers(dest="bench_action", required=True)
    run = actions.add_parser("run", help="run the tasks through the real daemon")
    run.add_argument("--model", default="qwen2.5-coder-1.5b",
                     help="embedded model id, or the model name on --base-url")
    run.add_argument("--policy", default="act", metavar="P[,P...]",
                     help="thinking policies: off, act, on, adaptive, first_move, ...")
    run.add_argument("--repeat", type=int, default=1, metavar="K")
    run.add_argument("--tasks", default="*", metavar="GLOB", help="task ids (comma-separated globs)")
    run.add_argument("--base-url", default="", help="an OpenAI-compatible server instead of the embedded model")
    run.add_argument("--tool-mode", default="default", choices=["default", "native", "constrained", "auto"],
                     help="model.tool_mode; the embedded default (constrained) never thinks, whatever the policy")
    run.add_argument("--out", default="", help="results folder (default bench/results)")
    run.add_argument("--run-id", default="")
    run.add_argument("--turn-budget", type=float, default=300.0, metavar="S",
                     help="runtime.turn_budget_s for every task")
    # How saturnd is started after the interpreter: a workaround knob for a daemon that does
    # not start as `python -m saturnd` (the command line recorded with the results shows it).
    run.add_argument("--daemon-argv", default="-m saturnd", help=argparse.SUPPRESS)
    report = actions.add_parser("report", help="tables, McNemar, plot and verdict for runs")
    report.add_argument("runs", nargs="+", metavar="RUN", help="run folders (or their runs.jsonl)")
    report.add_argument("--out", default="", help="write report.md and the plot here (default: the first run)")


def run(args: argparse.Namespace, invoked_as: str = "saturn") -> int:
    if args.bench_action == "run":
        return _run(args, invoked_as)
    from bench.report import report_command

    return report_command([Path(r) for r in args.runs], Path(args.out) if args.out else None)


def _run(args: argparse.Namespace, invoked_as: str) -> int:
    from bench.runner import RESULTS_DIR, RunOptions
    from bench.runner import run as run_bench

    policies = [p.strip() for p in args.policy.split(",") if p.strip()]
    if args.repeat < 1 or not policies:
        print("saturn: bench run needs --repeat >= 1 and at least one --policy", file=sys.stderr)
        return 2
    options = RunOptions(
        model=args.model, policies=policies, repeat=args.repeat, tasks=args.tasks,
        base_url=args.base_url, tool_mode=args.tool_mode, out_dir=Path(args.out) if args.out else RESULTS_DIR,
        run_id=args.run_id, turn_budget_s=args.turn_budget,
        daemon_argv=tuple(shlex.split(args.daemon_argv)),
        # The exact command line, kept with the results.
        command=f"{invoked_as} {shlex.join(sys.argv[1:])}" if sys.argv[1:2] == ["bench"] else "",
    )
    return run_bench(options)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry until `saturn` registers the command: python -m clients.cli.bench_commands."""
    parser = argparse.ArgumentParser(prog="saturn")
    add_parser(parser.add_subparsers(dest="command", required=True))
    return run(parser.parse_args(argv), invoked_as="python -m clients.cli.bench_commands")


if __name__ == "__main__":
    sys.exit(main())
