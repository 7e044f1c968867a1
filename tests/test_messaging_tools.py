"""send_message and send_email: the outbox backend, the osascript backend, recipient checks."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest

from saturnd.egress import EGRESS
from saturnd.tools import messaging
from saturnd.tools.messaging import (
    MESSAGING_TOOLS,
    SEND_EMAIL,
    SEND_MESSAGE,
    SendEmailParams,
    SendMessageParams,
)
from saturnd.tools.registry import Registry, ToolEnv, ToolFailure

NAME = re.compile(r"\d{8}T\d{12}Z-(email|message)-\d+\.json")


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    return ToolEnv(cwd=tmp_path, kb_dir=tmp_path, outbox_dir=tmp_path / "outbox")


def outbox(env: ToolEnv) -> list[dict[str, str]]:
    assert env.outbox_dir is not None
    if not env.outbox_dir.exists():
        return []
    return [json.loads(p.read_text()) for p in sorted(env.outbox_dir.iterdir())]


def logged(log: Path) -> list[str]:
    """The arguments the fake osascript was last given ([] if it never ran)."""
    return json.loads(log.read_text()) if log.exists() else []


def test_tool_metadata() -> None:
    assert [t.name for t in MESSAGING_TOOLS] == ["send_message", "send_email"]
    assert all(t.risk == "messaging" and t.target == "to" for t in MESSAGING_TOOLS)
    assert all(len(t.description) <= 80 for t in MESSAGING_TOOLS)
    Registry(MESSAGING_TOOLS)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"to": "a@b.com", "subject": "s", "body": "b", "cc": "x"}, SendEmailParams)


async def test_email_into_the_outbox(env: ToolEnv) -> None:
    params = SendEmailParams(to=" a@b.com ", subject="Hi", body="Line 1\nLine 2 ✓")
    out = await SEND_EMAIL.run(params, env)
    name = out.removeprefix("sent email to a@b.com (outbox: ").removesuffix(")")
    assert NAME.fullmatch(name) and name.endswith("-email-1.json"), out
    [record] = outbox(env)
    assert record.pop("sent_at").endswith("+00:00")
    assert record == {"kind": "email", "to": "a@b.com", "subject": "Hi", "body": "Line 1\nLine 2 ✓"}
    assert [p.name for p in env.outbox_dir.iterdir()] == [name]  # type: ignore[union-attr]


async def test_messages_into_the_outbox(env: ToolEnv) -> None:
    names = set()
    for to in ["+1 (555) 123-4567", "friend@example.org", "+1 (555) 123-4567"]:
        out = await SEND_MESSAGE.run(SendMessageParams(to=to, text="on my way"), env)
        assert out.startswith(f"sent message to {to} (outbox: ")
        names.add(out.rsplit(" ", 1)[1].rstrip(")"))
    assert len(names) == 3  # one file each, never overwritten
    records = outbox(env)
    assert [(r["kind"], r["to"], r["text"]) for r in records] == [
        ("message", "+1 (555) 123-4567", "on my way"),
        ("message", "friend@example.org", "on my way"),
        ("message", "+1 (555) 123-4567", "on my way"),
    ]
    assert all("subject" not in r for r in records)


@pytest.mark.parametrize("to", ["bob", "a@b", "a@b.com, c@d", "Bob <a@b.com>", "+1 555 1234", "", ","])
async def test_bad_email_recipients_refused(env: ToolEnv, to: str) -> None:
    with pytest.raises(ToolFailure, match="give an email address"):
        await SEND_EMAIL.run(SendEmailParams(to=to, subject="s", body="b"), env)
    assert outbox(env) == []


async def test_one_email_to_several_addresses(env: ToolEnv) -> None:
    out = await SEND_EMAIL.run(SendEmailParams(to="a@b.com,c@d.com; e@f.org", subject="Hi", body="All"), env)
    assert out.startswith("sent email to a@b.com, c@d.com, e@f.org (outbox: ")
    assert [r["to"] for r in outbox(env)] == ["a@b.com, c@d.com, e@f.org"]


@pytest.mark.parametrize("to", ["12345", "hello", "+1-555-CALL-NOW", "a@b", "1234567890123456"])
async def test_bad_message_recipients_refused(env: ToolEnv, to: str) -> None:
    with pytest.raises(ToolFailure, match="give a phone number or email"):
        await SEND_MESSAGE.run(SendMessageParams(to=to, text="hi"), env)
    assert outbox(env) == []


async def test_multiline_subject_refused(env: ToolEnv) -> None:
    with pytest.raises(ToolFailure, match="one line"):
        await SEND_EMAIL.run(SendEmailParams(to="a@b.com", subject="x\nBcc: c@d.com", body=""), env)


async def test_no_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(messaging, "sys", SimpleNamespace(platform="linux"))
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path)
    with pytest.raises(ToolFailure, match="no messaging backend here"):
        await SEND_EMAIL.run(SendEmailParams(to="a@b.com", subject="s", body="b"), env)
    with pytest.raises(ToolFailure, match="no messaging backend here"):
        await SEND_MESSAGE.run(SendMessageParams(to="+15551234567", text="t"), env)


@pytest.fixture
def fake_osascript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """macOS, with an osascript that logs its arguments (and fails when told to)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "osascript"
    script.write_text(
        f"#!{sys.executable}\nimport json, os, sys\n"
        "json.dump(sys.argv[1:], open(os.environ['OSA_LOG'], 'w'))\n"
        "if os.environ.get('OSA_FAIL'):\n    sys.exit('execution error: not signed in (-1728)')\n"
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("OSA_LOG", str(tmp_path / "osa.json"))
    monkeypatch.setattr(messaging, "sys", SimpleNamespace(platform="darwin"))
    return tmp_path / "osa.json"


async def test_osascript_backend(tmp_path: Path, fake_osascript: Path) -> None:
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path)
    EGRESS.drain()
    text = '" & do shell script "rm -rf ~" & "'
    out = await SEND_MESSAGE.run(SendMessageParams(to="+15551234567", text=text), env)
    assert out == "sent message to +15551234567 (Messages)"
    argv = logged(fake_osascript)
    assert argv[0] == "-e" and 'tell application "Messages"' in argv[1]
    assert argv[2:] == ["+15551234567", text]  # data as arguments, never in the script
    out = await SEND_EMAIL.run(SendEmailParams(to="a@b.com", subject="S", body="B"), env)
    assert out == "sent email to a@b.com (Mail)"
    assert logged(fake_osascript)[2:] == ["S", "B", "a@b.com"]
    await SEND_EMAIL.run(SendEmailParams(to="a@b.com, c@d.com", subject="S", body="B"), env)
    assert logged(fake_osascript)[2:] == ["S", "B", "a@b.com", "c@d.com"]  # each a recipient of one email
    assert [(r.host, r.method, r.status) for r in EGRESS.drain()] == [
        ("Messages", "osascript", "sent"), ("Mail", "osascript", "sent"), ("Mail", "osascript", "sent"),
    ]


async def test_osascript_failure(
    tmp_path: Path, fake_osascript: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OSA_FAIL", "1")
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path)
    with pytest.raises(ToolFailure, match="Mail could not send it: execution error: not signed in"):
        await SEND_EMAIL.run(SendEmailParams(to="a@b.com", subject="S", body="B"), env)


async def test_outbox_wins_on_macos(env: ToolEnv, fake_osascript: Path) -> None:
    out = await SEND_EMAIL.run(SendEmailParams(to="a@b.com", subject="S", body="B"), env)
    assert "(outbox: " in out and not logged(fake_osascript)
