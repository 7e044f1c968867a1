"""docs/scripting.md's examples, run as written against a scratch daemon and the scripted model."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from saturnd.testing.fake_model import call, text

DOC = Path(__file__).resolve().parents[1] / "docs" / "scripting.md"


def code_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC.read_text(), flags=re.M | re.S)


def test_the_doc_has_the_examples_these_tests_run():
    assert len(code_blocks("sh")) == 5
    assert len(code_blocks("python")) == 1


@pytest.mark.skipif(
    not (shutil.which("socat") and shutil.which("jq")),
    reason="the shell examples need socat and jq (apt-get install socat jq)",
)
async def test_the_shell_examples_start_a_turn_follow_it_and_answer_an_approval(harness):
    await harness.start()
    harness.model.enqueue(
        text("17*23 is 391."),
        call("write_file", {"path": "greeting.txt", "content": "hello"}),
        text("Wrote greeting.txt."),
    )
    script = "set -euo pipefail\n" + "\n".join(code_blocks("sh"))
    ran = await asyncio.to_thread(
        subprocess.run, ["bash", "-c", script], cwd=harness.env.workdir, env=harness.env.env,
        capture_output=True, text=True, timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    status_line, answer, approving, written = ran.stdout.splitlines()
    assert '"result":{"pid":' in status_line
    assert answer == "17*23 is 391."
    assert approving == 'approving ["write_file",{"path":"greeting.txt","content":"hello"}]'
    assert written == "Wrote greeting.txt."
    assert (harness.env.workdir / "greeting.txt").read_text() == "hello"
    harness.model.assert_complete()


async def test_the_python_example_follows_a_turn_and_answers_an_approval(harness):
    await harness.start()
    harness.model.enqueue(
        call("write_file", {"path": "note.txt", "content": "hi"}), text("Wrote note.txt."),
    )
    ran = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", code_blocks("python")[0]], cwd=harness.env.workdir,
        env=harness.env.env, capture_output=True, text=True, timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "approving write_file {'path': 'note.txt', 'content': 'hi'}",
        "Wrote note.txt.",
        "answer: Wrote note.txt.",
        "turn completed",
    ]
    assert (harness.env.workdir / "note.txt").read_text() == "hi"


async def test_a_connection_that_stopped_sending_hears_its_turn_but_cannot_approve(harness):
    """`echo ... | socat`: the events come until turn_ended, then the daemon closes; nobody can
    approve, so the write is not run."""
    client = await harness.start()
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    harness.model.enqueue(call("write_file", {"path": "x.txt", "content": "x"}), text("Could not write."))
    request = json.dumps({
        "jsonrpc": "2.0", "id": "1", "method": "turn/start",
        "params": {"session_id": session.session_id, "text": "write x"},
    }) + "\n"
    reader, writer = await asyncio.open_unix_connection(str(harness.env.socket))
    writer.write(request.encode())
    writer.write_eof()
    lines = [json.loads(line) for line in (await asyncio.wait_for(reader.read(), 30)).splitlines()]
    events = [line["params"]["event"] for line in lines if line.get("method") == "turn/event"]
    assert [e["fate"] for e in events if e["type"] == "tool_finished"] == ["not_approved"]
    assert events[-1]["type"] == "turn_ended"
    assert not (harness.env.workdir / "x.txt").exists()
    writer.close()
