"""The `saturn` command."""

from __future__ import annotations

import argparse
import sys

from machine.socket_trust import UntrustedSocket


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="saturn", description="Saturn, your local agent.")
    parser.add_argument("-p", "--print", dest="prompt", metavar="TEXT", help="run one turn headless")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="with -p: print one JSON object")
    mode.add_argument("--stream-json", action="store_true", help="with -p: one JSON line per event")
    parser.add_argument("--session", help="with -p: continue this session")
    parser.add_argument("--think", default="", metavar="LEVEL",
                        help="with -p: thinking for this turn: off, auto or on")
    parser.add_argument("--allow", action="append", default=[], metavar="TOOL",
                        help="with -p: pre-approve TOOL for this turn (repeatable)")
    parser.add_argument("--resume", nargs="?", const="", metavar="SESSION",
                        help="re-attach to a session (default: this folder's latest)")
    commands = parser.add_subparsers(dest="command")
    replay = commands.add_parser("replay", help="show a past turn as it looked live")
    replay.add_argument("turn_id", metavar="TURN")
    daemon = commands.add_parser("daemon", help="start, stop or inspect the background saturnd")
    daemon.add_argument("action", choices=["start", "stop", "status"])
    service = commands.add_parser("service", help="run saturnd as a login service (launchd / systemd)")
    service.add_argument("action", choices=["install", "uninstall", "status", "logs"])
    service.add_argument("-n", "--lines", type=int, default=50, help="logs: how many last lines")
    service.add_argument("-f", "--follow", action="store_true", help="logs: keep printing new lines")
    commands.add_parser("schema", help="print the protocol's JSON Schema")
    commands.add_parser("models", help="the packaged models: installed, assembled, active")
    key = commands.add_parser("key", help="store an API key in the OS keyring")
    key.add_argument("action", choices=["set"])
    key.add_argument("name")
    memory = commands.add_parser("memory", help="what Saturn remembers about you, and why")
    memory.add_argument("action", nargs="?", default="list", choices=[
        "list", "forget", "add", "why", "review", "queue", "accept", "reject", "import", "interview",
    ])
    memory.add_argument("argument", nargs="*", help="a fact number, a fact's text, a file")
    egress = commands.add_parser("egress", help="every outbound connection Saturn made")
    egress.add_argument("--session", default="")
    egress.add_argument("--turn", default="")
    egress.add_argument("--host", default="")
    egress.add_argument("--limit", type=int, default=50)
    from clients.cli.bench_commands import add_parser as add_bench_parser

    add_bench_parser(commands)
    trace = commands.add_parser("trace", help="explain what a turn did")
    trace.add_argument("action", choices=["why"])
    trace.add_argument("turn_id", nargs="?", default="", help="default: the most recent turn")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except UntrustedSocket as exc:  # another user could be listening: nothing was sent
        print(f"saturn: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.prompt is not None:
        from clients.cli.headless import run_headless

        output = "json" if args.json else "stream-json" if args.stream_json else "text"
        return run_headless(args.prompt, output, args.session, args.allow, args.think)
    if args.command == "daemon":
        from clients.cli import daemon_commands

        return daemon_commands.run(args.action)
    if args.command == "service":
        from clients.cli import service_commands

        return service_commands.run(args.action, args.lines, args.follow)
    if args.command == "schema":
        from protocol.schema import schema_text

        sys.stdout.write(schema_text())
        return 0
    if args.command == "models":
        from clients.cli.daemon_commands import list_models

        return list_models()
    if args.command == "memory":
        from clients.cli import memory_commands

        return memory_commands.run(args.action, " ".join(args.argument))
    if args.command == "egress":
        from clients.cli.egress_view import list_egress

        return list_egress(args.session, args.turn, args.host, args.limit)
    if args.command == "bench":
        from clients.cli import bench_commands

        return bench_commands.run(args)
    if args.command == "trace":
        from clients.cli.trace_view import trace_why

        return trace_why(args.turn_id)
    if args.command == "key":
        return _key_set(args.name)
    if args.command == "replay":
        from clients.terminal.replay import replay

        return replay(args.turn_id)
    if not sys.stdin.isatty():  # a script gets the usage, not a screen it cannot drive
        build_parser().print_help()
        return 0
    return _interactive(args.resume)


def _interactive(resume: str | None) -> int:
    import asyncio

    from clients.cli.daemon_control import StartFailed, connect_or_start, socket_path
    from clients.terminal.app import run_client

    try:
        connect_or_start().close()
    except StartFailed as exc:
        print(f"saturn: could not start saturnd: {exc}", file=sys.stderr)
        return 1
    return asyncio.run(run_client(str(socket_path()), resume))


def _key_set(name: str) -> int:
    import getpass

    from machine.keyring_secrets import store_api_key

    key = getpass.getpass(f"API key for {name}: ") if sys.stdin.isatty() else sys.stdin.readline()
    key = key.strip()
    if not key:
        print("saturn: no key given", file=sys.stderr)
        return 1
    try:
        store_api_key(name, key)
    except Exception as exc:  # keyring backends raise their own types
        print(f"saturn: cannot store the key: {exc}", file=sys.stderr)
        return 1
    print(f"stored; use api_key_ref: keyring:saturn/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
