"""Writes and messages the harness puts right in place before they are reviewed again.

A small model sent back with the fix often proposes the same call unchanged, or writes to the
folder instead of the file the user named. Where the request or an earlier send-back already
settles the right arguments, review patches the call, reviews it again (the gate and the
approval still apply) and the result opens with the note saying what was changed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saturnd.gate.provenance import labelled_value_left_out
from saturnd.tools.registry import Tool
from saturnd.turn import prompts
from saturnd.turn.claims import NAMED_FILE
from saturnd.turn.overwrite import WRITE_FILE, content_to_write, doubled_lines, dropped_lines

if TYPE_CHECKING:
    from saturnd.turn.review import GateContext


def content_put_right(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write or a message the harness puts right in place, from
    what the request names or what a send-back already gave; the call is then reviewed again."""
    if tool.risk == "write" and (named := file_in_folder(tool, arguments, context)):
        return named
    if tool.name == WRITE_FILE and (rewritten := overwrite_put_right(arguments, context)):
        return rewritten
    if tool.risk in ("write", "messaging"):
        return labelled_line_put_right(tool, arguments, context)
    return None


def file_in_folder(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a write goes to a folder and the request names one file: the
    1.5B, asked to "Create a file called meeting.txt", wrote to the working folder's path, was
    told it is a directory, and answered instead of writing."""
    given = str(arguments.get(tool.target or "", ""))
    folder = Path(context.cwd, os.path.expanduser(given))
    names = set(NAMED_FILE.findall(context.request))
    if not given or len(names) != 1 or not folder.is_dir():
        return None
    name = names.pop()
    path = name if folder.resolve() == Path(context.cwd).resolve() else os.path.join(given, name)
    return {**arguments, tool.target or "path": path}, prompts.PATH_PUT_RIGHT.format(given=given, name=name, path=path)


def labelled_line_put_right(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a call sent back for leaving out what a labelled line gives
    comes back with the same text: the line is added to it (the approval shows the message).
    Sent back, the 1.5B proposed the same order email, with no order in it, three times."""
    skip = addresses_of(tool)
    left_out = labelled_value_left_out(context.request, arguments, skip, context.record.known_text(context.seen))
    texts = [k for k, v in arguments.items() if k not in skip and isinstance(v, str)]
    if left_out is None or not texts:
        return None
    field = max(texts, key=lambda k: len(arguments[k]))
    if not _proposed_before(tool.name, field, arguments[field], context):
        return None
    phrase, line = left_out
    patched = {**arguments, field: f"{arguments[field].rstrip()}\n\n{line}"}
    return patched, prompts.LINE_PUT_RIGHT.format(phrase=phrase, field=field, line=line)


def overwrite_put_right(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a write sent back for dropping or doubling the file's lines
    comes back with the same content: it writes the content the send-back gave (the approval
    shows it). Sent back, the 1.5B wrote "milk bread eggs" over milk/bread three times."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    content = arguments["content"]
    if not (dropped_lines(context.request, target, content) or doubled_lines(context.request, target, content)):
        return None
    if not _proposed_before(WRITE_FILE, "content", content, context):
        return None
    return ({**arguments, "content": content_to_write(context.request, target, content)},
            prompts.CONTENT_PUT_RIGHT.format(path=arguments["path"]))


def _proposed_before(tool: str, field: str, value: str, context: GateContext) -> bool:
    return any(c.tool == tool and c.arguments.get(field) == value for c in context.record.calls)


def addresses_of(tool: Tool) -> frozenset[str]:
    """The arguments that say where a write or a message goes, not what it carries."""
    return frozenset({"to", *([tool.target] if tool.target else [])})
