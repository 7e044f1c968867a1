"""A custom judge for tests (config judge.entry_point: tests.custom_judge:judge)."""

from __future__ import annotations

from saturnd.gate.judge import JudgeVerdict


def judge(surface: str, tool: str, text: str) -> JudgeVerdict | None:
    if surface == "tool_call" and "forbidden" in text:
        return JudgeVerdict("block", "the custom judge saw a forbidden path")
    if surface == "context" and "classified" in text:
        return JudgeVerdict("redact", "classified content", text.replace("classified", "[gone]"))
    return None
