"""Load and validate the task files under bench/tasks/ (format: bench/tasks/README.md)."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import yaml

from bench.checkers import CHECKS, MOVE_KINDS

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
CATEGORIES = (
    "call", "answer", "ask", "cannot", "chain", "declined", "recovery", "bound", "injection",
    "messaging",
)
"""One task file per category, named after it."""
KNOWN_TOOLS = frozenset({
    "read_file", "list_dir", "search_files", "kb_search", "kb_read", "plan", "ask_user", "remember",
    "write_file", "edit_file", "run_command", "web_fetch", "send_message", "send_email", "calculate",
})
"""The daemon's built-in tools: every task runs against the tool set a user gets."""
PLANNED_TOOLS = frozenset({"query", "add_items", "remove_items", "mark_done", "set_value", "append_row"})
"""Tools that may appear later (a read-only SQL `query`, structured list/table edits): a task may
allow and approve them ahead of time, so a future tool is neither out of bounds nor declined."""
DECISIONS = frozenset({"once", "always", "decline"})
FIELDS = frozenset({
    "id", "prompt", "files", "kb", "pages", "tools", "first", "decide", "replies", "headless",
    "max_iterations", "check", "category", "why",
})


class TaskError(Exception):
    """A task file is malformed; the message names the task and the field."""


def load_tasks(directory: Path = TASKS_DIR, pattern: str = "*") -> list[dict[str, Any]]:
    """Every task, validated, in file then listed order; `pattern`: comma-separated id globs."""
    tasks: list[dict[str, Any]] = []
    for path in sorted(directory.glob("*.yaml")):
        tasks += _load_file(path)
    _unique_ids(tasks)
    globs = [g.strip() for g in pattern.split(",") if g.strip()] or ["*"]
    return [t for t in tasks if any(fnmatchcase(t["id"], g) for g in globs)]


def _load_file(path: Path) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("category") not in CATEGORIES:
        raise TaskError(f"{path.name}: needs `category:` (one of {', '.join(CATEGORIES)}) and `tasks:`")
    extra = set(data) - {"category", "tasks", "defs"}
    if extra:
        raise TaskError(f"{path.name}: unknown top-level keys {sorted(extra)} (defs: holds YAML anchors)")
    tasks = data.get("tasks")
    if not isinstance(tasks, list):
        raise TaskError(f"{path.name}: `tasks:` must be a list")
    out = []
    for raw in tasks:
        task = {"category": data["category"], **raw}
        validate(task, path.name)
        out.append(with_defaults(task))
    return out


def with_defaults(task: dict[str, Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = {
        "files": {}, "kb": {}, "pages": {}, "tools": [], "decide": {}, "replies": [],
        "headless": False, "max_iterations": None,
    }
    return as_the_tools_are_now({**defaults, **task})


STRUCTURED_EDITS = ("add_items", "remove_items", "mark_done", "set_value")


def as_the_tools_are_now(task: dict[str, Any]) -> dict[str, Any]:
    """A task written before the structured edits and the query tool (issue 49) allows and
    approves them as it does edit_file or write_file, and read_file: the person approves the
    change they asked for, whichever tool makes it, and a table read by SQL is read. Without
    this the scripted person declined every add_items the suite's chain tasks led to (stop 54:
    24 failed tasks, most of chain), and a query counted as a tool the task did not allow."""
    tools = list(task["tools"])
    if {"edit_file", "write_file"} & set(tools):
        tools += [t for t in STRUCTURED_EDITS if t not in tools]
    if "read_file" in tools and "query" not in tools:
        tools.append("query")
    decide = dict(task["decide"])
    scripted = decide.get("edit_file", decide.get("write_file"))
    if scripted is not None:
        for tool in STRUCTURED_EDITS:
            decide.setdefault(tool, list(scripted) if isinstance(scripted, list) else scripted)
    return {**task, "tools": tools, "decide": decide}


def validate(task: dict[str, Any], source: str = "") -> None:
    name = f"{source}: {task.get('id', '(no id)')}"
    problems = _problems(task)
    if problems:
        raise TaskError(f"{name}: " + "; ".join(problems))


def _problems(task: dict[str, Any]) -> list[str]:
    problems = [f"unknown field {k!r}" for k in task if k not in FIELDS]
    for key in ("id", "prompt"):
        if not isinstance(task.get(key), str) or not task[key].strip():
            problems.append(f"`{key}` must be a non-empty string")
    problems += _tool_problems(task)
    check = task.get("check")
    if not isinstance(check, dict) or not check:
        problems.append("`check` must be a non-empty mapping (every task needs a checker)")
    else:
        problems += [f"unknown check {k!r}" for k in check if k not in CHECKS]
    for key in ("files", "kb", "pages"):
        if not isinstance(task.get(key, {}), dict):
            problems.append(f"`{key}` must be a mapping of name -> text")
    return problems


def _tool_problems(task: dict[str, Any]) -> list[str]:
    known = KNOWN_TOOLS | PLANNED_TOOLS
    problems = [f"unknown tool {t!r} in tools" for t in task.get("tools", []) if t not in known]
    first = task.get("first")
    if not isinstance(first, list) or not first:
        problems.append("`first` must list the acceptable first moves")
    else:
        problems += [
            f"first move {m!r} is neither a tool nor one of {', '.join(MOVE_KINDS[1:])}"
            for m in first if m not in known and m not in MOVE_KINDS[1:]
        ]
    for tool, decision in (task.get("decide") or {}).items():
        decisions = decision if isinstance(decision, list) else [decision]
        if tool not in known or not set(decisions) <= DECISIONS:
            problems.append(f"decide: {tool}: {decision!r} (tool -> once | always | decline, or a list)")
    limit = task.get("max_iterations")
    if limit is not None and (not isinstance(limit, int) or not 1 <= limit <= 100):
        problems.append("`max_iterations` must be 1..100")
    return problems


def _unique_ids(tasks: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for task in tasks:
        if task["id"] in seen:
            raise TaskError(f"task id {task['id']!r} is used twice")
        seen.add(task["id"])


def by_category(tasks: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {c: [] for c in CATEGORIES}
    for task in tasks:
        out[task["category"]].append(task)
    return out
