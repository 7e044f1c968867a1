"""The baseline: the case through plain model calls, with its functions as native `tools`.

Single-turn: one /v1/chat/completions call, temperature 0; its tool_calls are the output.
When the server parsed no tool_calls but the text holds Qwen-style calls (a JSON object with
"name" and "arguments", in <tool_call> tags or a code fence), those are decoded instead, as
BFCL's own handlers for such models parse the raw text; `from_text` marks it.
Multi-turn: BFCL's inference loop in miniature: per user turn, call the model, run its calls
on BFCL's backends, feed the results back, until it answers without calls (or MAX_STEPS).
"""

from __future__ import annotations

import itertools
import json
import re
import time
from typing import Any

import aiohttp

from bench.bfcl import bfcl
from bench.bfcl.cases import Case, tool_schemas
from bench.bfcl.mcp_server import call_string

MAX_STEPS = 8
MAX_TOKENS = 1024
_runs = itertools.count()
_JSON_CALL = re.compile(r"\{.*\}", re.DOTALL)


def tools_param(case: Case) -> tuple[list[dict[str, Any]], dict[str, str]]:
    schemas = tool_schemas(case.functions)
    tools = [{"type": "function", "function": {k: s[k] for k in ("name", "description", "parameters")}}
             for s in schemas]
    return tools, {s["name"]: s["bfcl_name"] for s in schemas}


def _text_calls(text: str) -> list[dict[str, Any]]:
    blocks = re.findall(r"<tool_call>(.*?)(?:</tool_call>|$)", text, re.DOTALL)
    blocks += re.findall(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    calls = []
    for block in blocks or [text]:
        found = _JSON_CALL.search(block)
        if not found:
            continue
        try:
            value = json.loads(found.group(0))
        except ValueError:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "name" in item and isinstance(item.get("arguments", {}), dict):
                calls.append({"name": item["name"], "arguments": item.get("arguments", {})})
    return calls


def decode_message(message: dict[str, Any], names: dict[str, str]) -> tuple[list[dict[str, Any]], bool]:
    """(calls with BFCL names, from_text). Undecodable arguments become None (not a call)."""
    calls: list[dict[str, Any]] = []
    for tc in message.get("tool_calls") or []:
        fn = tc.get("function", {})
        try:
            arguments = json.loads(fn.get("arguments") or "{}")
        except ValueError:
            arguments = None
        calls.append({"name": names.get(fn.get("name", ""), fn.get("name", "")), "arguments": arguments,
                      "id": tc.get("id", "")})
    if calls:
        return calls, False
    text_calls = _text_calls(message.get("content") or "")
    return [{**c, "name": names.get(c["name"], c["name"])} for c in text_calls], bool(text_calls)


class ServerRefused(RuntimeError):
    """The server failed on the model's output (llama.cpp: not parseable as its call format)."""


async def chat(session: aiohttp.ClientSession, base_url: str, model: str, messages: list[dict[str, Any]],
               tools: list[dict[str, Any]]) -> dict[str, Any]:
    body = {"model": model, "messages": messages, "tools": tools, "temperature": 0,
            "max_tokens": MAX_TOKENS, "stream": False}
    async with session.post(base_url.rstrip("/") + "/chat/completions", json=body) as response:
        if response.status == 500:
            raise ServerRefused(f"HTTP 500: {(await response.text())[:300]}")
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {(await response.text())[:300]}")
        data = await response.json()
    message: dict[str, Any] = data["choices"][0]["message"]
    return message


async def run_case(case: Case, base_url: str, model: str, timeout_s: float = 600) -> dict[str, Any]:
    """`timeout_s`: per model call, and per user turn of a multi-turn case."""
    tools, names = tools_param(case)
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        if not case.multi_turn:
            try:
                message = await chat(session, base_url, model, [{"role": "user", "content": case.turns[0]}], tools)
            except (RuntimeError, aiohttp.ClientError, TimeoutError) as exc:
                return {"observed": [], "error": str(exc)}
            calls, from_text = decode_message(message, names)
            return {"observed": calls, "from_text": from_text, "text": message.get("content") or ""}
        return await _multi_turn(session, case, base_url, model, tools, names, timeout_s)


async def _multi_turn(session: aiohttp.ClientSession, case: Case, base_url: str, model: str,
                      tools: list[dict[str, Any]], names: dict[str, str], turn_s: float) -> dict[str, Any]:
    bfcl()
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import execute_multi_turn_func_call

    executor = f"raw_exec_{next(_runs)}"
    messages: list[dict[str, Any]] = []
    observed: list[list[list[dict[str, Any]]]] = []
    error = ""
    failed_steps: list[str] = []
    for text in case.turns:
        steps: list[list[dict[str, Any]]] = []
        observed.append(steps)
        if error:
            continue
        messages.append({"role": "user", "content": text})
        deadline = time.monotonic() + turn_s
        for _ in range(MAX_STEPS):
            if time.monotonic() > deadline:
                messages.append({"role": "assistant", "content": ""})
                break
            try:
                message = await chat(session, base_url, model, messages, tools)
            except ServerRefused as exc:
                # llama.cpp could not parse the output as calls (HTTP 500): an undecodable
                # step, which BFCL skips; the conversation goes on at the next user turn.
                failed_steps.append(str(exc)[:200])
                messages.append({"role": "assistant", "content": ""})
                break
            except (RuntimeError, aiohttp.ClientError, TimeoutError) as exc:
                error = str(exc)
                break
            calls, _from_text = decode_message(message, names)
            calls = [c for c in calls if isinstance(c.get("arguments"), dict)]
            if not calls:
                messages.append({"role": "assistant", "content": message.get("content") or ""})
                break
            steps.append(calls)
            results, _ = execute_multi_turn_func_call(
                [call_string(c["name"], c["arguments"]) for c in calls], case.initial_config,
                case.involved_classes, executor, case.id)
            ids = [c.get("id") or f"call_{len(messages)}_{i}" for i, c in enumerate(calls)]
            messages.append({"role": "assistant", "content": message.get("content") or "", "tool_calls": [
                {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(c["arguments"])}}
                for i, c, n in zip(ids, calls, [_api_name(c["name"], names) for c in calls], strict=True)]})
            messages += [{"role": "tool", "tool_call_id": i, "content": str(r)}
                         for i, r in zip(ids, results, strict=False)]
    return {"observed": observed, "error": error, "failed_steps": failed_steps}


def _api_name(bfcl_name: str, names: dict[str, str]) -> str:
    for api, original in names.items():
        if original == bfcl_name:
            return api
    return bfcl_name
