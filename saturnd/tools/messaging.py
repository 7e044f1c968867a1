"""Messaging tools: send_message (a text) and send_email.

Backends: with an outbox folder configured (env.outbox_dir), each message is written there as
one JSON file, `<timestamp>-<kind>-<n>.json`, for a person or a bridge to deliver; without one,
on macOS, Messages and Mail send it through `osascript`. Anything else is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import msgspec

from saturnd.egress import EGRESS
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

OSASCRIPT_TIMEOUT_S = 30.0
EMAIL = re.compile(r"[^@\s<>,;\"']+@[^@\s<>,;\"']+\.[a-z]{2,}", re.IGNORECASE)
PHONE = re.compile(r"\+?[0-9][0-9 ().-]*[0-9]")

# Arguments reach AppleScript as argv, never spliced into the script.
_MESSAGES_SCRIPT = """on run argv
  tell application "Messages"
    set svc to 1st account whose service type = iMessage
    send (item 2 of argv) to participant (item 1 of argv) of svc
  end tell
end run"""
_MAIL_SCRIPT = """on run argv
  tell application "Mail"
    set m to make new outgoing message with properties {subject:(item 1 of argv), content:(item 2 of argv), visible:false}
    repeat with i from 4 to count of argv
      tell m to make new to recipient at end of to recipients with properties {address:(item i of argv)}
    end repeat
    send m
  end tell
end run"""


def is_email(to: str) -> bool:
    return EMAIL.fullmatch(to) is not None


def email_addresses(to: str) -> list[str] | None:
    """The addresses of an email's `to`: one, or several separated by commas or semicolons
    ("Email everyone" of a club's list is one email to all of them)."""
    addresses = [a.strip() for a in re.split(r"[,;]", to) if a.strip()]
    return addresses if addresses and all(is_email(a) for a in addresses) else None


def is_phone(to: str) -> bool:
    return PHONE.fullmatch(to) is not None and 7 <= sum(c.isdigit() for c in to) <= 15


def _write_outbox(outbox: Path, kind: str, fields: dict[str, str]) -> str:
    """One JSON file per message, linked into place whole so a reader never sees half of one."""
    now = datetime.now(UTC)
    record = {"kind": kind, **fields, "sent_at": now.isoformat(timespec="seconds")}
    data = json.dumps(record, ensure_ascii=False, indent=2).encode("utf-8")
    stamp = now.strftime("%Y%m%dT%H%M%S%fZ")
    try:
        outbox.mkdir(parents=True, exist_ok=True)
        tmp = outbox / f".{stamp}-{kind}-{os.getpid()}-{id(record)}.tmp"
        tmp.write_bytes(data)
        try:
            for n in range(1, 10_000):
                name = f"{stamp}-{kind}-{n}.json"
                try:
                    os.link(tmp, outbox / name)
                    return name
                except FileExistsError:
                    continue
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as e:
        raise ToolFailure(f"cannot write to the outbox {outbox}: {e.strerror or e}") from e
    raise ToolFailure(f"the outbox {outbox} has no free name for another {kind}")


async def _osascript(app: str, script: str, *args: str) -> None:
    status = ""
    try:
        proc = await asyncio.create_subprocess_exec(
            "osascript", "-e", script, *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            _, err = await asyncio.wait_for(proc.communicate(), OSASCRIPT_TIMEOUT_S)
        except BaseException:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise
        status = "sent" if proc.returncode == 0 else f"exit {proc.returncode}"
    except BaseException as e:
        status = type(e).__name__
        if isinstance(e, TimeoutError):
            raise ToolFailure(f"{app} did not answer within {OSASCRIPT_TIMEOUT_S:g}s") from e
        if isinstance(e, OSError):
            raise ToolFailure(f"cannot run osascript: {e.strerror or e}") from e
        raise
    finally:  # Mail/Messages connect on our behalf: one row per hand-off
        EGRESS.record(app, 0, "osascript", sum(len(a) for a in args), 0, status)
    if proc.returncode != 0:
        reason = err.decode("utf-8", errors="replace").strip() or f"exit code {proc.returncode}"
        raise ToolFailure(f"{app} could not send it: {reason}")


def _no_backend() -> ToolFailure:
    return ToolFailure(
        "no messaging backend here: set an outbox folder (messages are written there as JSON)"
        " or run on macOS, where Messages and Mail send them"
    )


def _use_osascript(env: ToolEnv) -> bool:
    if env.outbox_dir is not None:
        return False
    if sys.platform == "darwin" and shutil.which("osascript"):
        return True
    raise _no_backend()


# -- send_message --------------------------------------------------------------------------


class SendMessageParams(msgspec.Struct, forbid_unknown_fields=True):
    to: Annotated[str, msgspec.Meta(description="phone number or email, or the name the user's files list them by")]
    text: Annotated[str, msgspec.Meta(min_length=1)]


async def _send_message(params: SendMessageParams, env: ToolEnv) -> str:
    to = params.to.strip()
    if not (is_phone(to) or is_email(to)):
        raise ToolFailure(f"cannot send a message to {params.to!r}: it is no phone number or email, and no line of the"
                          " user's files gives one for it as a name; look the recipient up, or give a phone number or email")
    if _use_osascript(env):
        await _osascript("Messages", _MESSAGES_SCRIPT, to, params.text)
        return f"sent message to {to} (Messages)"
    assert env.outbox_dir is not None
    name = await asyncio.to_thread(_write_outbox, env.outbox_dir, "message", {"to": to, "text": params.text})
    return f"sent message to {to} (outbox: {name})"


SEND_MESSAGE = Tool(name="send_message", description="Send a text message to a phone number or iMessage email.",
                    params=SendMessageParams, run=_send_message, risk="messaging", target="to")


# -- send_email ----------------------------------------------------------------------------


class SendEmailParams(msgspec.Struct, forbid_unknown_fields=True):
    to: Annotated[str, msgspec.Meta(description="an email address, or several separated by commas, or the name the user's files list them by")]
    subject: str
    body: str


async def _send_email(params: SendEmailParams, env: ToolEnv) -> str:
    addresses = email_addresses(params.to)
    if addresses is None:
        raise ToolFailure(f"cannot email {params.to!r}: it is no email address, and no line of the user's files gives"
                          " one for it as a name; look the recipient up, or give an email address, like a@b.com")
    to = ", ".join(addresses)
    if "\n" in params.subject or "\r" in params.subject:
        raise ToolFailure("the subject must be one line")
    if _use_osascript(env):
        await _osascript("Mail", _MAIL_SCRIPT, params.subject, params.body, *addresses)
        return f"sent email to {to} (Mail)"
    assert env.outbox_dir is not None
    fields = {"to": to, "subject": params.subject, "body": params.body}
    name = await asyncio.to_thread(_write_outbox, env.outbox_dir, "email", fields)
    return f"sent email to {to} (outbox: {name})"


SEND_EMAIL = Tool(name="send_email", description="Send an email to one address or several.", params=SendEmailParams,
                  run=_send_email, risk="messaging", target="to")

MESSAGING_TOOLS = [SEND_MESSAGE, SEND_EMAIL]
