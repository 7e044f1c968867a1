"""runaway: a reply that repeats one short piece over and over is closed early."""

from __future__ import annotations

import pytest

from saturnd.model.runaway import CHECK_EVERY, REPEATED_SPAN, RanOn, RunawayWatch, repeated_piece


@pytest.mark.parametrize(("text", "piece"), [
    ("[" + '"薯条", ' * 100, '"薯条", '),
    ('{"response": "' + "\n" * 400, "\n"),
    ("ok " + "the same words again " * 30, "the same words again "),
    ("A list of things, each once: " + ", ".join(f"item {n}" for n in range(100)), None),
    ("short " * 20, None),  # 120 characters: not yet a runaway
    ("-" * 40 + "\nan ordinary line of a table " * 3, None),
])
def test_a_tail_of_one_piece_over_and_over_is_found(text, piece):
    assert repeated_piece(text) == piece


def test_the_watch_raises_within_a_check_of_the_span():
    watch = RunawayWatch()
    fed = 0
    with pytest.raises(RanOn, match="the reply ran on, repeating 'ha'"):
        while True:
            watch.feed("ha ")
            fed += 1
    assert fed * 3 <= REPEATED_SPAN + 3 * CHECK_EVERY
