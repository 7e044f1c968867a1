"""Which streamed text reaches the user."""

from __future__ import annotations

import pytest

from saturnd.turn.stream_filter import ResponseStream


def run(chunks, answer, hold_all=False):
    shown: list[str] = []
    stream = ResponseStream(shown.append, hold_all=hold_all)
    for chunk in chunks:
        stream.feed(chunk)
    stream.finish(answer)
    return shown


@pytest.mark.parametrize(("chunks", "answer", "shown"), [
    (["Hel", "lo"], "Hello", ["Hel", "lo"]),
    (["  ", "Hi", " there"], "Hi there", ["  Hi", " there"]),
    (['{"na', 'me": "x"}'], None, []),
    (["```json\n{", "}```"], None, []),
    (["```python\nprint(1)\n```"], "```python\nprint(1)\n```", ["```python\nprint(1)\n```"]),
    (["<tool_call>{}</tool_call>"], None, []),
    (["Sure. ", '{"name": "read_file"}'], "Sure.", ["Sure. ", '{"name": "read_file"}']),
])
def test_stream(chunks, answer, shown):
    assert run(chunks, answer) == shown


def test_hold_all_shows_nothing_the_turns_answer_shows_it():
    assert run(['{"response": "391"}'], "391", hold_all=True) == []
