"""`saturn -p`: starts the daemon if needed, streams the answer, reports failures."""

from __future__ import annotations

import json

from saturnd.testing.fake_model import Reply, error
from saturnd.turn import prompts


def test_print_mode_starts_the_daemon_and_streams_the_answer(saturn_env, fake_model):
    fake_model.enqueue(Reply(text="The answer is 391.", chunk_chars=3))
    result = saturn_env.saturn("-p", "what is 17*23?")
    assert (result.returncode, result.stdout, result.stderr) == (0, "The answer is 391.\n", "")
    assert fake_model.requests[0]["messages"][-1] == {"role": "user", "content": "what is 17*23?"}
    assert str(saturn_env.workdir) in fake_model.requests[0]["messages"][0]["content"]
    assert saturn_env.socket.exists()  # the daemon stays up for the next call


def test_json_output(saturn_env, fake_model):
    fake_model.enqueue(Reply(text="Hi!", usage=(30, 2)))
    result = saturn_env.saturn("-p", "hello", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) >= {"answer", "session_id", "turn_id", "plan", "receipt"}
    assert out["answer"] == "Hi!" and out["plan"] == []
    receipt = out["receipt"]
    assert {k: receipt[k] for k in ("passes", "model_calls", "tool_calls", "tokens_in", "tokens_out")} == {
        "passes": 1, "model_calls": 1, "tool_calls": 0, "tokens_in": 30, "tokens_out": 2,
    }
    assert set(receipt) >= {"thinking_s", "wall_s"}
    assert out["note"] == ""


def test_json_and_the_streams_last_event_carry_the_answers_note(saturn_env, fake_model):
    claim = "Email sent to Tom."  # the first move was to send, and nothing was sent: back once, then noted
    move = '{"route": "send"}'
    fake_model.enqueue_choice(move, move)
    fake_model.enqueue(*[Reply(text=claim)] * 8)
    printed = json.loads(saturn_env.saturn("-p", "email Tom", "--json").stdout)
    streamed = saturn_env.saturn("-p", "email Tom", "--stream-json").stdout.splitlines()
    final = json.loads(streamed[-1])["event"]
    assert (printed["answer"], printed["note"]) == (claim, prompts.NOTE_NOTHING_CHANGED)  # the words as written
    assert (final["type"], final["note"]) == ("turn_ended", prompts.NOTE_NOTHING_CHANGED)


def test_stream_json_prints_each_event_as_a_line(saturn_env, fake_model):
    fake_model.enqueue(Reply(text="abcdefgh", chunk_chars=4))
    result = saturn_env.saturn("-p", "hello", "--stream-json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["event"]["type"] for line in lines] == [
        "turn_started", "pass_started", "response_delta", "response_delta", "answer", "receipt", "turn_ended",
    ]
    assert [line["seq"] for line in lines] == list(range(1, 8))
    assert lines[-1]["event"] == {"type": "turn_ended", "status": "completed", "note": ""}


def test_unreachable_model_exits_1_naming_the_url(saturn_env):
    saturn_env.write_config("model:\n  base_url: http://127.0.0.1:9/v1\n")
    result = saturn_env.saturn("-p", "hello")
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "http://127.0.0.1:9/v1" in lines[0] and "cannot reach the model server" in lines[0]


def test_model_error_exits_1(saturn_env, fake_model):
    fake_model.enqueue(error(500, "out of memory"))
    result = saturn_env.saturn("-p", "hello", "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["status"] == "failed"
    assert "out of memory" in result.stderr


def test_print_mode_does_not_import_prompt_toolkit(saturn_env, fake_model):
    fake_model.enqueue("ok")
    import subprocess
    import sys

    probe = (
        "import sys; from clients.cli.main import main; rc = main(['-p', 'x']);"
        "print('LOADED' if 'prompt_toolkit' in sys.modules else 'LEAN')"
    )
    result = subprocess.run([sys.executable, "-c", probe], env=saturn_env.env, cwd=saturn_env.workdir,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip().endswith("LEAN")
