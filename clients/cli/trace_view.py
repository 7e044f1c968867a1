"""`saturn trace why [TURN]`: what each pass did and why, readably."""

from __future__ import annotations

import sys

from clients.cli.daemon_control import StartFailed, connect_or_start
from protocol.jsonrpc import RpcError
from protocol.methods import TraceGetResult, TurnRefParams

FATE_WORDS = {
    "ran": "ran",
    "asked": "asked the user",
    "refused_loop": "refused as a loop",
    "declined": "declined",
    "invalid": "invalid, sent back",
    "capped": "capped, never ran",
    "timed_out": "timed out",
    "error": "failed",
    "ask_first": "sent back: ask first",
}


def trace_why(turn_id: str) -> int:
    try:
        with connect_or_start() as client:
            trace = client.call("trace/get", TurnRefParams(turn_id=turn_id))
    except (RpcError, StartFailed) as exc:
        print(f"saturn: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    sys.stdout.write(render_why(trace))
    return 0


def render_why(trace: TraceGetResult) -> str:
    lines = [f"turn {trace.turn_id} ({trace.status}): {trace.text}"]
    if trace.history:
        lines.append(f"history: {trace.history}")
    if trace.first_move:
        lines.append(trace.first_move)
    if trace.plan:
        lines.append("plan:")
        lines += [f"  [{item.status}] {item.text}" for item in trace.plan]
    for p in trace.passes:
        flags = [p.step.replace("_", " ")]
        if p.thinking:
            flags.append(f"thought {p.thought_s:.1f}s")
        if not p.tools_offered:
            flags.append("tools withheld")
        lines.append(f"pass {p.index} ({', '.join(flags)})")
        if p.think_reason:
            lines.append(f"  thinking: {p.think_reason}")
        if p.thought:
            lines.append(f"  thought: {p.thought[:200]!r}")
        if p.note:
            lines.append(f"  note: {p.note}")
        for c in p.calls:
            recovered = " [recovered from text]" if c.recovered_from_text else ""
            lines.append(f"  {c.name} {c.arguments} -> {FATE_WORDS.get(c.fate, c.fate)}{recovered}")
            if c.why:
                lines.append(f"    why: {c.why.splitlines()[0][:200]}")
        if p.answered:
            lines.append("  answered")
    if trace.worked_out:
        lines.append(f"worked out: {'; '.join(trace.worked_out)}")
    if trace.note:
        lines.append(f"note: {trace.note}")
    if trace.receipt is not None:
        r = trace.receipt
        fates = ", ".join(f"{k} {v}" for k, v in sorted(r.tool_fates.items())) or "none"
        lines.append(
            f"receipt: {r.passes} passes, {r.model_calls} model calls, tool calls: {fates};"
            f" {r.tokens_in} tokens in, {r.tokens_out} out; thinking {r.thinking_s:.1f}s;"
            f" wall {r.wall_s:.1f}s"
        )
    return "\n".join(lines) + "\n"
