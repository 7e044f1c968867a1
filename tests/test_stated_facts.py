"""The deterministic catch: which typed sentences are facts the review queue should offer."""

from __future__ import annotations

import pytest

from saturnd.memory.stated_facts import stated_facts


@pytest.mark.parametrize(("text", "facts"), [
    ("I'm vegetarian.", ["I'm vegetarian"]),
    ("Petra is my manager.", ["Petra is my manager"]),
    ("Tom and Ana are our neighbours.", ["Tom and Ana are our neighbours"]),
    ("The report is my responsibility, can you read it?", []),
    ("Is Petra my manager?", []),
    ("Petra said the budget is my problem now and that the team would help out later.", []),
    ("My daughter's name is Ada.", ["My daughter's name is Ada"]),
    ("Never book anything before 10am.", ["Never book anything before 10am"]),
    ("From now on, answer in French.", ["From now on, answer in French"]),
    ("I live in Berlin. Can you find a dentist?", ["I live in Berlin"]),
    ("Do I have a meeting today?", []),
    ("I want you to read notes.txt.", []),
    ("I need to know the weather.", []),
    ("Please list my files.", []),
    ("My password is hunter22.", []),
    ("What is 17*23?", []),
    ("I hate cilantro. My sister loves sushi.", ["I hate cilantro", "My sister loves sushi"]),
])
def test_stated_facts(text, facts):
    assert stated_facts(text) == facts
