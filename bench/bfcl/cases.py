"""BFCL v4 cases per category, the dev/report split, and the functions as JSON-Schema tools."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bench.bfcl import bfcl

SINGLE_TURN = ("irrelevance", "live_simple", "live_multiple", "live_irrelevance", "simple_python",
               "multiple", "live_relevance")
MULTI_TURN = ("multi_turn_base", "multi_turn_miss_param")
CATEGORIES = SINGLE_TURN + MULTI_TURN
DEV_EVERY = 4
"""Every 4th case (by its number in the id) is the dev slice: tune there, report on the rest."""


@dataclass
class Case:
    id: str
    category: str
    turns: list[str]
    """The user's message of each turn (one turn for single-turn categories)."""
    functions: list[dict[str, Any]]
    """BFCL's function docs, as the checkers want them."""
    ground_truth: Any = None
    """possible_answer's ground_truth (None for irrelevance)."""
    initial_config: dict[str, Any] = field(default_factory=dict)
    involved_classes: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)
    """The dataset entry itself (the multi-turn checker reads it)."""

    @property
    def multi_turn(self) -> bool:
        return is_multi_turn(self.category)


def is_multi_turn(category: str) -> bool:
    return category.startswith("multi_turn")


def is_irrelevance(category: str) -> bool:
    return "irrelevance" in category


def case_number(case_id: str) -> int:
    """`live_simple_12-3-0` -> 12, `multi_turn_base_7` -> 7."""
    found = re.search(r"_(\d+)(?:-[\d-]+)?$", case_id)
    if not found:
        raise ValueError(f"no case number in BFCL id {case_id!r}")
    return int(found.group(1))


def slice_of(case_id: str) -> str:
    return "dev" if case_number(case_id) % DEV_EVERY == 0 else "report"


def _turn_text(messages: list[dict[str, Any]]) -> str:
    return "\n\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")


def load_cases(category: str, slice_name: str = "report", limit: int | None = None) -> list[Case]:
    """The category's cases in the given slice (dev, report, or all), in dataset order."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown or unsupported BFCL category {category!r}; one of: {', '.join(CATEGORIES)}")
    bfcl()
    from bfcl_eval.utils import load_dataset_entry, load_ground_truth_entry

    # As BFCL's own generation does: with the language hint in the function descriptions.
    entries = load_dataset_entry(category, include_prereq=False, include_language_specific_hint=True)
    answers: dict[str, Any] = {}
    if not is_irrelevance(category):
        truth = load_ground_truth_entry(category)
        # BFCL aligns prompts and answers by position (some answer ids differ in format).
        answers = {e["id"]: a["ground_truth"] for e, a in zip(entries, truth, strict=True)}
    cases: list[Case] = []
    for entry in entries:
        if slice_name != "all" and slice_of(entry["id"]) != slice_name:
            continue
        cases.append(Case(
            id=entry["id"], category=category,
            turns=[_turn_text(messages) for messages in entry["question"]],
            functions=entry["function"], ground_truth=answers.get(entry["id"]),
            initial_config=entry.get("initial_config", {}),
            involved_classes=entry.get("involved_classes", []), raw=entry,
        ))
        if limit is not None and len(cases) >= limit:
            break
    return cases


def tool_schemas(functions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """BFCL's own conversion to OpenAI tool docs (as for its open-source FC models): types
    mapped to JSON Schema, dots in names made underscores. Each keeps `bfcl_name`."""
    bfcl()
    from bfcl_eval.constants.enums import ModelStyle
    from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI
    from bfcl_eval.model_handler.utils import convert_to_tool

    converted = convert_to_tool(functions, GORILLA_TO_OPENAPI, ModelStyle.OSSMODEL)
    return [
        {"name": c["name"], "bfcl_name": f["name"], "description": c.get("description", ""),
         "parameters": c["parameters"]}
        for f, c in zip(functions, converted, strict=True)
    ]
