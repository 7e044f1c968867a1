"""Fact helpers: the stored form, rules that load on every request, and the one stored
fact a new one may contradict."""

from __future__ import annotations

import pytest

from saturnd.memory.facts import find_similar, is_rule, normalize_fact, similarity
from saturnd.memory.own_words import key_words


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("  I'm   vegetarian. ", "I'm vegetarian"),
        ("I live in Berlin.\n", "I live in Berlin"),
        ("Tea...", "Tea"),
        ("Never book before 10 a.m.", "Never book before 10 a.m."),
        ("I like fruit etc.", "I like fruit etc."),
        ("Is it\tfine?", "Is it fine?"),
        ("x", "x"),
        ("", ""),
    ],
)
def test_a_fact_is_stored_trimmed_single_spaced_without_a_closing_period(
    raw: str, stored: str
) -> None:
    assert normalize_fact(raw) == stored


@pytest.mark.parametrize(
    ("fact", "rule"),
    [
        ("never book anything before 10am", True),
        ("Never book anything before 10am.", True),
        ("Always use metric units", True),
        ("From now on, answer in German", True),
        ("from now on answer in German", True),
        ("Answer in German from now on", True),
        ("Don't ever call me Bob", True),
        ("don\u2019t ever schedule meetings on Friday", True),
        ("do not book red-eyes ever", True),
        ("Every time I ask for a flight, check trains too", True),
        ("Whenever I fly, book a window seat", True),
        ("Book a window seat whenever I fly", True),
        ("Please never use emojis", True),
        ("You should always cite sources", True),
        ("Going forward, reply briefly", True),
        ("In the future, ask before booking", True),
        ("I'm vegetarian", False),
        ("I live in Berlin", False),
        ("Petra is my manager", False),
        ("user never eats meat", False),  # a habit of the user's, not an instruction
        ("I always fly economy", False),
        ("I never ever drink coffee", False),
        ("Nevertheless I like tea", False),
        ("Alwaysland is my favourite game", False),
        ("I don't eat meat", False),
        ("", False),
    ],
)
def test_a_standing_instruction_is_a_rule(fact: str, rule: bool) -> None:
    assert is_rule(fact) is rule


STORED = [
    (1, "I'm vegetarian"),
    (2, "Petra is my manager"),
    (3, "I live in Paris"),
    (4, "I prefer window seats"),
    (5, "My daughter's name is Ada"),
    (6, "Never book anything before 10am"),
    (7, "I work at Google"),
]


@pytest.mark.parametrize(
    ("new", "similar"),
    [
        ("I live in Berlin", 3),
        ("user lives in Berlin", 3),
        ("I live in Paris now", 3),  # an elaboration looks the same as a correction
        ("I'm not vegetarian", 1),
        ("Anna is my manager", 2),
        ("my manager is Anna", 2),
        ("I prefer aisle seats", 4),
        ("My daughter's name is Eva", 5),
        ("Never book anything before 9am", 6),
        ("I work at Microsoft as an engineer", 7),
        ("I live in Paris", None),  # the same words: a repeat, not a contradiction
        ("user lives in Paris", None),
        ("My son's name is Max", None),  # only half the words: another person
        ("I moved to Berlin last year", None),
        ("I'm vegan", None),  # overlap can't see that vegan and vegetarian clash
        ("I like cilantro", None),
        ("Always use metric units", None),
        ("", None),
    ],
)
def test_a_new_fact_names_the_stored_one_it_may_contradict(new: str, similar: int | None) -> None:
    expected = None if similar is None else (similar, dict(STORED)[similar])
    assert find_similar(new, STORED) == expected


def test_the_closest_stored_fact_wins_and_the_latest_on_a_tie() -> None:
    stored = [(1, "I live in Paris"), (2, "I live in Rome")]
    assert find_similar("I live in Berlin", stored) == (2, "I live in Rome")  # 3/4 each
    closer = [(1, "I live in Berlin with two cats"), (2, "I live in Rome")]
    assert find_similar("I live in Berlin", closer) == (1, "I live in Berlin with two cats")
    assert find_similar("I live in Berlin", []) is None


@pytest.mark.parametrize(
    ("a", "b", "score"),
    [
        ("I live in Berlin", "I live in Paris", 0.75),
        ("I'm vegetarian", "I'm not vegetarian", 1.0),
        ("Anna is my manager", "Petra is my manager", 2 / 3),
        ("My son's name is Max", "My daughter's name is Ada", None),  # exactly half
        ("I'm vegetarian", "I live in Paris", None),  # only "user" shared
        ("I live in Paris", "user lives in Paris", None),  # the same words
    ],
)
def test_similarity_is_the_shared_share_of_the_shorter_fact(
    a: str, b: str, score: float | None
) -> None:
    result = similarity(key_words(a), key_words(b))
    assert result == (None if score is None else pytest.approx(score))
