"""An add that would lose the file is sent back before it runs."""

from __future__ import annotations

import pytest

from saturnd.testing.fake_model import call
from saturnd.turn.overwrite import content_to_write, dropped_lines
from tests.conftest import of_type


@pytest.mark.parametrize(("request_text", "content", "dropped"), [
    ("Add butter to my shopping list.", "butter\n", ["milk", "eggs"]),
    ("Add butter to my shopping list.", "milk\neggs\nbutter\n", []),
    ("Add butter to my shopping list.", "milk, eggs, butter", []),  # one line now, nothing lost
    ("Replace my shopping list with butter.", "butter\n", []),  # replacing is asked
    ("Take eggs off my shopping list, I bought some.", "milk\n", []),
    ("Take eggs off my shopping list, I bought some.", "", ["milk"]),
])
def test_an_add_that_drops_the_files_lines(tmp_path, request_text, content, dropped):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\n")
    assert dropped_lines(request_text, shopping, content) == dropped


def test_a_new_file_drops_nothing(tmp_path):
    assert dropped_lines("Add butter to list.txt", tmp_path / "list.txt", "butter") == []


async def test_write_file_that_would_lose_the_list_is_sent_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\nrice\n")
    harness.model.enqueue(
        call("write_file", {"path": "shopping.txt", "content": "butter\n"}),
        call("write_file", {"path": "shopping.txt", "content": "milk\neggs\nflour\nrice\nbutter\n"}),
        "Added butter.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "tool error: write_file replaces all of shopping.txt, and this content drops 4 of its lines that the user"
        " did not ask to change ('milk', 'eggs', 'flour' …). Call write_file again with path shopping.txt and"
        " this content:\nmilk\neggs\nflour\nrice\nbutter\n"
    )
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert shopping.read_text() == "milk\neggs\nflour\nrice\nbutter\n"


@pytest.mark.parametrize(("request_text", "content", "suggested"), [
    ("Add butter to my shopping list.", "butter\n", "milk\neggs\nflour\nbutter\n"),
    ("Take eggs off my shopping list, I bought some.", "milk\neggs\n", "milk\nflour\n"),
])
def test_the_content_a_rejected_write_should_have_held(tmp_path, request_text, content, suggested):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\n")
    assert content_to_write(request_text, shopping, content) == suggested


async def test_an_add_that_would_delete_lines_with_edit_file_is_sent_back_too(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\n")
    harness.model.enqueue(
        call("read_file", {"path": "shopping.txt"}),
        call("edit_file", {"path": "shopping.txt", "old": "eggs\nflour", "new": ""}),
        "Done.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert harness.sent(2)[-1]["content"] == (
        "tool error: edit_file would delete from shopping.txt, and this content drops 2 of its lines that the user"
        " did not ask to change ('eggs', 'flour'). Call write_file again with path shopping.txt and"
        " this content:\nmilk\neggs\nflour\n"
    )
    assert shopping.read_text() == "milk\neggs\nflour\n"
