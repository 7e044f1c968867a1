"""Tool modes on a real model: native vs constrained vs auto on small tool tasks.

Each task runs as one turn through the real daemon (the embedded model unless
--base-url is given). A task is right when the first move is the expected one
(the right tool, or no tool) and the answer contains the expected words.

Usage: python bench/tool_modes.py [--modes native,constrained,auto] [--model qwen2.5-coder-1.5b]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from protocol.client import Client  # noqa: E402
from saturnd.testing.scratch import ScratchHome, scratch_daemon  # noqa: E402

FILES = {
    "shopping.txt": "milk\neggs\nflour\n",
    "todo.txt": "call the bank\nwater the plants\nbook the dentist\n",
    "bills.txt": "invoice 2291 from the plumber, due Friday\n",
    "fruit.txt": "apple, banana, cherry\n",
    "README.md": "# Widget\nA tool that makes widgets.\n",
    "config.ini": "[server]\nport = 8080\n",
    "notes/meeting.md": "Project Orion kickoff. Petra leads the project; Tom does design.\n",
}
KB = {"tax.md": "# Tax notes\nThe tax return deadline is 30 April.\n"}


@dataclass(frozen=True)
class Task:
    prompt: str
    first_tool: str | None
    """The tool the first move should call; None: answer directly."""
    expect: str
    """Words the answer must contain (case-insensitive)."""


TASKS = [
    Task("What is in shopping.txt?", "read_file", "milk"),
    Task("List the files in this folder.", "list_dir", "shopping.txt"),
    Task("Which file mentions an invoice?", "search_files", "bills.txt"),
    Task("What is 17*23?", None, "391"),
    Task("Say hello in French.", None, "bonjour"),
    Task("How many items are in todo.txt?", "read_file", "3"),
    Task("What does my knowledge base say about the tax deadline?", "kb_search", "april"),
    Task("Read notes/meeting.md and tell me who leads the project.", "read_file", "petra"),
    Task("What is the title in README.md?", "read_file", "widget"),
    Task("What port is set in config.ini?", "read_file", "8080"),
    Task("Search the files for the word banana and tell me which file has it.", "search_files", "fruit.txt"),
    Task("What is the capital of France?", None, "paris"),
]


def prepare(scratch: ScratchHome) -> Path:
    work = scratch.workdir
    for name, text in FILES.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    (scratch.home / "kb").mkdir(parents=True)
    for name, text in KB.items():
        (scratch.home / "kb" / name).write_text(text)
    return work


async def run_mode(scratch: ScratchHome, work: Path) -> list[tuple[Task, str | None, str, float]]:
    results = []
    async with await Client.connect(str(scratch.socket)) as client:
        for task in TASKS:
            session = await client.call("session/create", {"cwd": str(work)})
            started = time.monotonic()
            turn = await client.call("turn/start", {"session_id": session.session_id,
                                                    "text": task.prompt, "headless": True})
            first_tool, answer = None, ""
            async for event in client.turn_events(turn.turn_id):
                tag = event.event.__struct_config__.tag
                if tag == "tool_proposed" and first_tool is None:
                    first_tool = event.event.name
                elif tag == "answer":
                    answer = event.event.text
            results.append((task, first_tool, answer, time.monotonic() - started))
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--modes", default="native,constrained,auto")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    args = parser.parse_args()
    table = []
    for mode in args.modes.split(","):
        config = f"model:\n  embedded: {args.model}\n  tool_mode: {mode}\n"
        with scratch_daemon(config, prefix="tm-") as scratch:
            results = asyncio.run(run_mode(scratch, prepare(scratch)))
        right_move = sum(t.first_tool == first for t, first, _, _ in results)
        right = sum(t.first_tool == first and t.expect in answer.lower() for t, first, answer, _ in results)
        seconds = sum(s for *_, s in results)
        table.append((mode, right_move, right, seconds))
        for task, first, answer, s in results:
            ok = "ok " if task.first_tool == first and task.expect in answer.lower() else "BAD"
            print(f"[{mode}] {ok} {s:5.1f}s first={first} | {task.prompt} -> {answer[:80]!r}", flush=True)
    print(f"\nmodel {args.model}, {len(TASKS)} tasks, temperature 0")
    print("| mode | right first move | right (move + answer) | suite time |")
    print("|---|---|---|---|")
    for mode, move, right, seconds in table:
        print(f"| {mode} | {move}/{len(TASKS)} | {right}/{len(TASKS)} | {seconds:.0f} s |")


if __name__ == "__main__":
    main()
