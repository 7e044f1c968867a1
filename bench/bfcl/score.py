"""Decoding observed calls into BFCL's formats and scoring them with BFCL's own checkers.

Single-turn: decoded = [{function_name: {argument: value}}], checked by BFCL's `ast_checker`
(irrelevance: passed when there is no call, as BFCL's relevance runner does). Multi-turn:
decoded = per turn, per step, ["name(a='x')"], checked by BFCL's `multi_turn_checker`.
`ask_user` is Saturn's own tool, never one of the case's functions: it is never a call here.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from bench.bfcl import bfcl
from bench.bfcl.cases import Case, is_irrelevance
from bench.bfcl.mcp_server import call_string

NOT_BFCL_CALLS = frozenset({"ask_user"})
_runs = itertools.count()


def decode_single(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calls ({"name", "arguments"}) -> BFCL's decoded AST form; exact repeats and Saturn's
    own tools (ask_user) left out."""
    decoded: list[dict[str, Any]] = []
    seen: set[str] = set()
    for call in calls:
        if call["name"] in NOT_BFCL_CALLS or not isinstance(call.get("arguments"), dict):
            continue
        key = json.dumps([call["name"], call["arguments"]], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        decoded.append({call["name"]: call["arguments"]})
    return decoded


def decode_multi(turns: list[list[list[dict[str, Any]]]]) -> list[list[list[str]]]:
    """Per turn, per step, the calls -> BFCL's executable strings (empty steps dropped)."""
    out: list[list[list[str]]] = []
    for steps in turns:
        decoded_steps = []
        for step in steps:
            strings = [call_string(c["name"], c["arguments"]) for c in step
                       if c["name"] not in NOT_BFCL_CALLS and isinstance(c.get("arguments"), dict)]
            if strings:
                decoded_steps.append(strings)
        out.append(decoded_steps)
    return out


def score_single(case: Case, decoded: list[dict[str, Any]], label: str = "saturn") -> dict[str, Any]:
    if is_irrelevance(case.category):
        valid = not decoded
        return {"valid": valid, "error": [] if valid else ["a function was called when none should be"]}
    bfcl()
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    from bfcl_eval.utils import is_function_calling_format_output

    if not is_function_calling_format_output(decoded):
        return {"valid": False, "error": ["no function call in BFCL's format"],
                "error_type": "ast_decoder:decoder_wrong_output_format"}
    result = ast_checker(case.functions, decoded, case.ground_truth, Language.PYTHON,
                         case.category, label)
    return {"valid": bool(result["valid"]), "error": result.get("error", []),
            "error_type": result.get("error_type", "")}


def score_multi(case: Case, decoded: list[list[list[str]]], label: str = "saturn") -> dict[str, Any]:
    bfcl()
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

    truth = case.ground_truth
    if len(decoded) != len(truth):
        return {"valid": False, "error_type": "multi_turn:force_terminated",
                "error": [f"{len(decoded)} turns run of {len(truth)}"]}
    # The executor keeps backend instances in globals keyed by model name and case id: a fresh
    # name per scoring so that no two scorings share state.
    result = multi_turn_checker(decoded, truth, dict(case.raw), case.category,
                                f"{label}_{next(_runs)}")
    return {"valid": bool(result["valid"]), "error": [result.get("error_message", "")] if not result["valid"] else [],
            "error_type": result.get("error_type", "")}


def score(case: Case, observed: Any, label: str = "saturn") -> dict[str, Any]:
    """`observed`: the calls of a single-turn case, or per-turn lists of steps of a multi-turn one."""
    if case.multi_turn:
        decoded_multi = decode_multi(observed)
        return {**score_multi(case, decoded_multi, label), "decoded": decoded_multi}
    decoded = decode_single(observed)
    return {**score_single(case, decoded, label), "decoded": decoded}
