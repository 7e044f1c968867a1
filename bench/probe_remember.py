"""The seed's probe: on plain statements of fact, how often does the model call `remember`?

Each statement is one turn in a fresh session through the real daemon (embedded
model by default). Counts turns whose calls include `remember`, how many of
those the words-are-yours check let through silently, and how many of the
statements the model left alone the harness's catch queued for review.

Usage: python bench/probe_remember.py [--model qwen2.5-coder-1.5b] [--threads N]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from protocol.client import Client  # noqa: E402
from saturnd.testing.scratch import scratch_daemon  # noqa: E402

STATEMENTS = [
    "I'm vegetarian.", "Petra is my manager.", "Never book anything before 10am.",
    "I live in Berlin.", "My daughter's name is Ada.", "I prefer window seats.",
    "I'm allergic to peanuts.", "My birthday is on March 3rd.", "I work as a nurse.",
    "I don't drink coffee.", "My partner is called Sam.", "I have two cats.",
    "From now on, answer in French.", "My favourite colour is green.", "I drive a Volvo.",
    "I'm learning Spanish.", "My dentist is Dr. Weber.", "I usually wake up at 6.",
    "I hate cilantro.", "Always use metric units.", "My office is on the third floor.",
    "I play the piano.", "My son goes to Lindenschule.", "I take the train to work.",
    "I'm training for a marathon.", "My sister lives in Lisbon.", "I don't eat pork.",
    "I support Hertha BSC.", "My phone is an old Nokia.", "I go swimming on Tuesdays.",
]


async def probe(socket: str, work: Path) -> list[tuple[str, bool, str, bool]]:
    results = []
    async with await Client.connect(socket) as client:
        for statement in STATEMENTS:
            session = await client.call("session/create", {"cwd": str(work)})
            turn = await client.call("turn/start", {"session_id": session.session_id, "text": statement})
            called, fate, queued = False, "", False
            async for event in client.turn_events(turn.turn_id):
                tag = event.event.__struct_config__.tag
                if tag == "tool_proposed" and event.event.name == "remember":
                    called = True
                elif tag == "tool_finished" and event.event.name == "remember":
                    fate = event.event.fate
                elif tag == "memory_candidate":
                    queued = True
                elif tag == "question":  # a model that asks back is told to go on
                    await client.call("turn/reply", {"turn_id": turn.turn_id, "text": "No question, just so you know."})
                elif tag == "approval_requested":
                    await client.call("turn/decide", {"turn_id": turn.turn_id,
                                                      "call_id": event.event.call_id, "decision": "decline"})
            results.append((statement, called, fate, queued))
            caught = "queued" if queued else ""
            print(f"{'remember' if called else 'no call '} {fate:10} {caught:6} {statement}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--tool-mode", default="default", help="native | constrained | auto | default")
    parser.add_argument("--think", default="auto", help="runtime.think (the policy)")
    parser.add_argument("--threads", type=int, default=0, help="model.threads (0: one per core)")
    args = parser.parse_args()
    config = (f"model:\n  embedded: {args.model}\n  tool_mode: {args.tool_mode}\n  threads: {args.threads}\n"
              f"runtime:\n  think: '{args.think}'\n")
    with scratch_daemon(config, prefix="pr-") as scratch:
        started = time.monotonic()
        results = asyncio.run(probe(str(scratch.socket), scratch.workdir))
    called = sum(c for _, c, _, _ in results)
    silent = sum(f == "ran" for _, _, f, _ in results)
    queued = sum(q for *_, q in results)
    print(f"\nmodel {args.model}, tool_mode {args.tool_mode}, think {args.think}:"
          f" called remember on {called}/{len(results)} plain statements"
          f" ({100 * (len(results) - called) / len(results):.0f}% missed);"
          f" saved silently {silent}; queued for review by the catch {queued};"
          f" {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
