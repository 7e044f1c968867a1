"""`saturn bench run|report|bfcl`: the loop benchmark (bench/) and the optional BFCL v4 bridge.
Imports bench only when run."""

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
                     help="model.tool_mode (the embedded default is constrained: thoughts go in the grammar's thought field)")
    run.add_argument("--out", default="", help="results folder (default bench/results)")
    run.add_argument("--run-id", default="")
    run.add_argument("--turn-budget", type=float, default=300.0, metavar="S",
                     help="runtime.turn_budget_s for every task")
    run.add_argument("--threads", type=int, default=0, metavar="N",
                     help="model.threads for the embedded server (0: one per core; use 1 beside another model run)")
    run.add_argument("--config", default="", metavar="YAML",
                     help="more config.yaml for every daemon, e.g. 'ground: {retrieval: false}' (ablations)")
    # How saturnd is started after the interpreter: a workaround knob for a daemon that does
    # not start as `python -m saturnd` (the command line recorded with the results shows it).
    run.add_argument("--daemon-argv", default="-m saturnd", help=argparse.SUPPRESS)
    report = actions.add_parser("report", help="tables, McNemar, plot and verdict for runs")
    report.add_argument("runs", nargs="+", metavar="RUN", help="run folders (or their runs.jsonl)")
    report.add_argument("--out", default="", help="write report.md and the plot here (default: the first run)")
    _add_bfcl(actions)


BFCL_HELP = """BFCL v4 cases through Saturn's loop and through raw model calls, both scored by
BFCL's own checkers. Optional: needs  pip install 'saturn[bfcl]'  and then
pip install --no-deps bfcl-eval==2026.3.23  (its own requirements pull every provider SDK).
Tune on --slice dev (every 4th case id); report on --slice report (the rest)."""


def _add_bfcl(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bfcl = actions.add_parser("bfcl", help="BFCL v4 through Saturn vs raw calls (optional bridge)",
                              description=BFCL_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    bfcl.add_argument("--category", required=True, metavar="C[,C...]",
                      help="irrelevance, live_simple, live_multiple, multi_turn_base, multi_turn_miss_param, ...")
    bfcl.add_argument("--model", default="qwen2.5-coder-1.5b",
                      help="embedded model id, or the model name on --base-url")
    bfcl.add_argument("--limit", type=int, default=None, metavar="N", help="first N cases per category")
    bfcl.add_argument("--slice", default="report", choices=["dev", "report", "all"])
    bfcl.add_argument("--out", default="", help="results folder (default bench/results/bfcl-<date>-<model>)")
    bfcl.add_argument("--base-url", default="", help="an OpenAI-compatible server instead of the embedded model")
    bfcl.add_argument("--tool-mode", default="constrained", choices=["native", "constrained", "auto"],
                      help="Saturn's model.tool_mode (default: constrained, the embedded models' default)")
    bfcl.add_argument("--think", default="auto", help="Saturn's runtime.think policy")
    bfcl.add_argument("--only", default="both", help="which runs: saturn, raw or both")
    bfcl.add_argument("--turn-timeout", type=float, default=240.0, metavar="S", help="per user turn")
    bfcl.add_argument("--threads", type=int, default=None, metavar="N",
                      help="embedded model server threads (default: all cores)")
    bfcl.add_argument("--builtins", default="ask_user", choices=["ask_user", "all"],
                      help="Saturn's built-in tools offered beside the case's: only ask_user (default), or all")
    bfcl.add_argument("--description-chars", type=int, default=1000, metavar="N",
                      help="how much of each case tool's description Saturn shows the model (default 1000)")


def run(args: argparse.Namespace, invoked_as: str = "saturn") -> int:
    if args.bench_action == "run":
        return _run(args, invoked_as)
    if args.bench_action == "bfcl":
        return _bfcl(args, invoked_as)
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
        run_id=args.run_id, turn_budget_s=args.turn_budget, threads=args.threads,
        daemon_argv=tuple(shlex.split(args.daemon_argv)), extra_yaml=args.config,
        # The exact command line, kept with the results.
        command=f"{invoked_as} {shlex.join(sys.argv[1:])}" if sys.argv[1:2] == ["bench"] else "",
    )
    return run_bench(options)


def bfcl_runs(only: str) -> tuple[str, ...]:
    """--only as the runs it names, in a fixed order; () when it names anything else."""
    names = {name.strip() for name in only.split(",") if name.strip()}
    if "both" in names:
        names = (names - {"both"}) | {"saturn", "raw"}
    if not names or not names <= {"saturn", "raw"}:
        return ()
    return tuple(run for run in ("saturn", "raw") if run in names)


def _bfcl(args: argparse.Namespace, invoked_as: str) -> int:
    try:
        from bench.bfcl import BfclMissing, bfcl
        from bench.bfcl.run import BfclOptions
        from bench.bfcl.run import run as run_bfcl
        from bench.bfcl.saturn_runner import SaturnSetup

        bfcl()
    except BfclMissing as exc:
        print(f"saturn: {exc}", file=sys.stderr)
        return 2
    which = bfcl_runs(args.only)
    categories = [c.strip() for c in args.category.split(",") if c.strip()]
    if not which or not categories:
        print("saturn: bench bfcl needs --category and --only saturn, raw or both", file=sys.stderr)
        return 2
    options = BfclOptions(
        categories=categories, model=args.model, limit=args.limit, slice_name=args.slice,
        out_dir=Path(args.out) if args.out else None, base_url=args.base_url,
        tool_mode=args.tool_mode, think=args.think, which=which, turn_timeout_s=args.turn_timeout,
        threads=args.threads,
        saturn_setup=SaturnSetup(builtins=args.builtins, description_chars=args.description_chars),
        command=f"{invoked_as} {shlex.join(sys.argv[1:])}" if sys.argv[1:2] == ["bench"] else "",
    )
    try:
        return run_bfcl(options)
    except ValueError as exc:
        print(f"saturn: {exc}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """`python -m clients.cli.bench_commands bench ...`: the same commands without the rest of
    `saturn` (the earliest results' meta.json files record this form)."""
    parser = argparse.ArgumentParser(prog="saturn")
    add_parser(parser.add_subparsers(dest="command", required=True))
    return run(parser.parse_args(argv), invoked_as="python -m clients.cli.bench_commands")


if __name__ == "__main__":
    sys.exit(main())
