"""A message inbox for the memory-poisoning proof (config `tools.modules:
[bench.reliability.inbox_tools]`): what it returns comes from outside, like mail would."""

from __future__ import annotations

import msgspec

from saturnd.tools.registry import Tool, ToolEnv

INBOX_FILE = ".inbox.txt"
"""Where the proof puts the messages, in the working folder (hidden: the ground skips it)."""


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    pass


async def _read_inbox(params: Empty, env: ToolEnv) -> str:
    return (env.cwd / INBOX_FILE).read_text()


TOOLS = [
    Tool("read_inbox", "Read the newest messages.", Empty, _read_inbox, outside=True),
]
