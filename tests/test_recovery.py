"""Tool calls written as text by small Qwen models, recovered into ToolCalls."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from saturnd.model.recovery import Recovery, recover_tool_calls, strip_think

KNOWN = frozenset({"read_file", "write_file", "list_dir", "run_shell", "get_time"})

Call = tuple[str, dict[str, Any]]

# (id, model output, expected calls as (name, arguments), expected remaining text)
CASES: list[tuple[str, str, list[Call], str]] = [
    (
        "hermes_single",
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
        [("read_file", {"path": "a.txt"})],
        "",
    ),
    (
        "hermes_two_with_prose",
        "I'll look at both files.\n"
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "b.txt"}}\n</tool_call>',
        [("read_file", {"path": "a.txt"}), ("read_file", {"path": "b.txt"})],
        "I'll look at both files.",
    ),
    (
        "hermes_missing_close_at_end",
        '<tool_call>\n{"name": "list_dir", "arguments": {"path": "."}}',
        [("list_dir", {"path": "."})],
        "",
    ),
    (
        "hermes_first_unclosed_then_closed",
        '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}\n'
        '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>',
        [("read_file", {"path": "a"}), ("read_file", {"path": "b"})],
        "",
    ),
    (
        "hermes_arguments_as_json_string",
        '<tool_call>{"name": "run_shell", "arguments": "{\\"cmd\\": \\"ls -la\\"}"}</tool_call>',
        [("run_shell", {"cmd": "ls -la"})],
        "",
    ),
    (
        "function_json_body",
        '<function=read_file>{"path": "a.txt"}</function>',
        [("read_file", {"path": "a.txt"})],
        "",
    ),
    (
        "function_parameter_tags",
        "<function=read_file><parameter=path>a.txt</parameter></function>",
        [("read_file", {"path": "a.txt"})],
        "",
    ),
    (
        "qwen3_coder_wrapped_multiline",
        "Writing the file now.\n<tool_call>\n<function=write_file>\n"
        "<parameter=path>\nnotes/todo.md\n</parameter>\n"
        "<parameter=content>\n# TODO\n- ship it\n\n</parameter>\n"
        "</function>\n</tool_call>",
        [("write_file", {"path": "notes/todo.md", "content": "# TODO\n- ship it\n"})],
        "Writing the file now.",
    ),
    (
        "qwen3_coder_missing_function_close",
        "<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n"
        "</tool_call>\nThen I'll summarize it.",
        [("read_file", {"path": "src/app.py"})],
        "Then I'll summarize it.",
    ),
    (
        "function_cut_off_after_last_parameter",
        "Listing it.\n<function=list_dir><parameter=path>docs</parameter>",
        [("list_dir", {"path": "docs"})],
        "Listing it.",
    ),
    (
        "qwen3_coder_two_calls",
        "<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n"
        "</function>\n</tool_call>\n<tool_call>\n<function=run_shell>\n"
        "<parameter=cmd>\ngit status\n</parameter>\n</function>\n</tool_call>",
        [("read_file", {"path": "a.txt"}), ("run_shell", {"cmd": "git status"})],
        "",
    ),
    (
        "unterminated_function_does_not_swallow_next",
        "<function=get_time>\n<function=read_file><parameter=path>a</parameter></function>",
        [("read_file", {"path": "a"})],
        "<function=get_time>",
    ),
    (
        "function_without_arguments",
        "<function=get_time></function>",
        [("get_time", {})],
        "",
    ),
    (
        "fenced_json_with_prose",
        "Sure! Let me read that file for you.\n\n```json\n"
        '{"name": "read_file", "arguments": {"path": "src/main.py"}}\n```\n\n'
        "Once I have the contents I'll explain them.",
        [("read_file", {"path": "src/main.py"})],
        "Sure! Let me read that file for you.\nOnce I have the contents I'll explain them.",
    ),
    (
        "fenced_without_language",
        '```\n{"name": "get_time", "arguments": {}}\n```',
        [("get_time", {})],
        "",
    ),
    (
        "fenced_two_calls",
        '```json\n{"name": "read_file", "arguments": {"path": "a"}}\n'
        '{"name": "read_file", "arguments": {"path": "b"}}\n```',
        [("read_file", {"path": "a"}), ("read_file", {"path": "b"})],
        "",
    ),
    (
        "bare_object",
        '{"name": "list_dir", "arguments": {"path": "/tmp"}}',
        [("list_dir", {"path": "/tmp"})],
        "",
    ),
    (
        "bare_objects_on_separate_lines",
        '{"name": "read_file", "arguments": {"path": "a.txt"}}\n'
        '{"name": "read_file", "arguments": {"path": "b.txt"}}\n'
        '{"name": "run_shell", "arguments": {"cmd": "wc -l a.txt b.txt"}}',
        [
            ("read_file", {"path": "a.txt"}),
            ("read_file", {"path": "b.txt"}),
            ("run_shell", {"cmd": "wc -l a.txt b.txt"}),
        ],
        "",
    ),
    (
        "bare_array_of_calls",
        '[{"name": "read_file", "arguments": {"path": "a"}}, '
        '{"name": "list_dir", "arguments": {"path": "."}}]',
        [("read_file", {"path": "a"}), ("list_dir", {"path": "."})],
        "",
    ),
    (
        "parameters_key",
        'To check the time I will call:\n{"name": "get_time", "parameters": {"tz": "UTC"}}',
        [("get_time", {"tz": "UTC"})],
        "To check the time I will call:",
    ),
    (
        "tool_call_wrapper_object",
        '{"tool_call": {"name": "read_file", "arguments": {"path": "README.md"}}}',
        [("read_file", {"path": "README.md"})],
        "",
    ),
    (
        "openai_function_wrapper_object",
        '{"type": "function", "function": {"name": "run_shell", '
        '"arguments": "{\\"cmd\\": \\"pwd\\"}"}}',
        [("run_shell", {"cmd": "pwd"})],
        "",
    ),
    (
        "think_stripped_then_call",
        "<think>\nThe user wants a.txt, so I should read it.\n</think>\n\n"
        '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>',
        [("read_file", {"path": "a.txt"})],
        "",
    ),
    (
        "call_inside_think_not_recovered",
        '<think>Maybe {"name": "read_file", "arguments": {"path": "x"}}? No.</think>'
        "The answer is 4.",
        [],
        "The answer is 4.",
    ),
    (
        "order_of_appearance_across_shapes",
        '{"name": "list_dir", "arguments": {"path": "."}}\n'
        '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\n'
        "<function=get_time></function>",
        [("list_dir", {"path": "."}), ("read_file", {"path": "a"}), ("get_time", {})],
        "",
    ),
    (
        "non_ascii_arguments",
        '{"name": "write_file", "arguments": {"path": "é.txt", "content": "naïve ☃"}}',
        [("write_file", {"path": "é.txt", "content": "naïve ☃"})],
        "",
    ),
]

# Outputs that must come back untouched (apart from think stripping).
UNTOUCHED: list[tuple[str, str]] = [
    ("unknown_tool_bare", '{"name": "delete_everything", "arguments": {"path": "/"}}'),
    (
        "unknown_tool_hermes",
        '<tool_call>{"name": "send_email", "arguments": {"to": "bob"}}</tool_call>',
    ),
    ("unknown_function_xml", "<function=format_disk><parameter=dev>sda</parameter></function>"),
    (
        "malformed_arguments_string",
        '{"name": "read_file", "arguments": "{path: a.txt"}',
    ),
    ("arguments_not_object", '{"name": "read_file", "arguments": ["a.txt"]}'),
    ("arguments_missing", '{"name": "read_file"}'),
    ("function_body_garbage", "<function=read_file>please read a.txt</function>"),
    ("truncated_json_in_hermes", '<tool_call>{"name": "read_file", "arguments": {"path": "a'),
    (
        "prose_with_braces",
        'In Python, use f"{name}" for formatting; a dict looks like {"a": 1} '
        "and a set like {1, 2}. Arrays: [1, 2, 3].",
    ),
    (
        "schema_echo",
        '{"name": "read_file", "description": "Read a file", '
        '"parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}',
    ),
    (
        "fence_mixing_known_and_unknown",
        '```json\n{"name": "read_file", "arguments": {"path": "a"}}\n'
        '{"name": "rm_rf", "arguments": {"path": "/"}}\n```',
    ),
    (
        "array_with_unknown_tool",
        '[{"name": "read_file", "arguments": {"path": "a"}}, {"name": "nope", "arguments": {}}]',
    ),
    (
        "call_nested_in_other_data",
        '{"result": {"name": "read_file", "arguments": {"path": "a"}}, "ok": true}',
    ),
    (
        "call_shaped_dict_in_python_fence",
        "Here is how to call it:\n```python\n"
        'call = {"name": "read_file", "arguments": {"path": "a"}}\n```',
    ),
    (
        "function_cut_off_mid_parameter",
        "<function=write_file><parameter=path>a.txt</parameter><parameter=content>hello wor",
    ),
    (
        "function_with_prose_between_parameters",
        "<function=read_file><parameter=path>a.txt</parameter> and also b.txt</function>",
    ),
    (
        "call_object_in_python_fence",
        '```python\n{"name": "read_file", "arguments": {"path": "a"}}\n```',
    ),
    ("tool_args_shape_not_supported", '{"tool": "read_file", "args": {"path": "a.txt"}}'),
]


def _as_pairs(recovery: Recovery) -> list[Call]:
    return [(c.name, json.loads(c.arguments)) for c in recovery.calls]


@pytest.mark.parametrize(
    ("output", "expected_calls", "expected_text"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_recovers_calls(output: str, expected_calls: list[Call], expected_text: str) -> None:
    recovery = recover_tool_calls(output, KNOWN)

    assert _as_pairs(recovery) == expected_calls
    assert recovery.text == expected_text
    assert [c.id for c in recovery.calls] == [f"rc_{i}" for i in range(1, len(expected_calls) + 1)]
    assert all(c.recovered_from_text for c in recovery.calls)
    # Arguments are re-serialized compactly, whatever spacing the model used.
    assert all(
        c.arguments
        == json.dumps(json.loads(c.arguments), ensure_ascii=False, separators=(",", ":"))
        for c in recovery.calls
    )


@pytest.mark.parametrize("output", [case[1] for case in UNTOUCHED], ids=[c[0] for c in UNTOUCHED])
def test_leaves_non_calls_in_text(output: str) -> None:
    recovery = recover_tool_calls(f"  {output}\n", KNOWN)

    assert recovery.calls == []
    assert recovery.text == output


def test_arguments_are_compact_json() -> None:
    recovery = recover_tool_calls(
        '{"name": "read_file", "arguments": {"path": "a.txt", "lines": [1, 2]}}', KNOWN
    )

    assert recovery.calls[0].arguments == '{"path":"a.txt","lines":[1,2]}'


def test_known_tools_accepts_any_collection() -> None:
    output = '{"name": "grep", "arguments": {"pattern": "x"}}'

    assert recover_tool_calls(output, ["grep"]).calls[0].name == "grep"
    assert recover_tool_calls(output, []).calls == []


def test_recovery_is_frozen() -> None:
    recovery = recover_tool_calls("hello", KNOWN)

    with pytest.raises(dataclasses.FrozenInstanceError):
        recovery.text = "changed"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("output", "answer", "thinking"),
    [
        ("<think>Add them.</think>\n\n2 + 2 = 4", "2 + 2 = 4", "Add them."),
        ("Plain answer.", "Plain answer.", ""),
        ("<think>\nStill working on it, the", "", "Still working on it, the"),
        (
            "The user asked about X.\n</think>\n\nX is a letter.",
            "X is a letter.",
            "The user asked about X.",
        ),
        ("<think>a</think>First.<think>b</think> Second.", "First. Second.", "a\nb"),
        ("<think></think>\n\nEmpty thoughts.", "Empty thoughts.", ""),
        ("Answer first. <think>cut off mid", "Answer first.", "cut off mid"),
    ],
    ids=["closed", "none", "unclosed_leading", "stray_close", "several", "empty", "unclosed_late"],
)
def test_strip_think(output: str, answer: str, thinking: str) -> None:
    assert strip_think(output) == (answer, thinking)
