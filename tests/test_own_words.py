"""The words-are-yours check: which facts Saturn may keep without asking, and why not."""

from __future__ import annotations

import pytest

from saturnd.memory.own_words import (
    EMPTY,
    NO_WORDS,
    QUESTION,
    RESUMED,
    SAID,
    TAINTED,
    Verdict,
    is_question,
    split_sentences,
    words_are_yours,
)

HATE = ["I hate cilantro. My sister loves sushi."]

# (fact, what the user typed, the sentence it came from)
SAID_IT = [
    # the spec's own examples
    ("I'm vegetarian", ["I'm vegetarian"], "I'm vegetarian"),
    ("user is vegetarian", ["I'm vegetarian."], "I'm vegetarian."),
    ("Petra is my manager", ["Petra is my manager"], "Petra is my manager"),
    ("never book anything before 10am", ["never book anything before 10am"], None),
    ("user's daughter's name is Ada", ["My daughter's name is Ada."], None),
    ("I live in Berlin", ["I live in Berlin"], None),
    ("user prefers window seats", ["I prefer window seats"], None),
    # pronoun forms
    ("the user is vegetarian", ["I am vegetarian"], None),
    ("you are vegetarian", ["I'm vegetarian"], None),
    ("User is a vegetarian", ["im vegetarian"], None),
    ("Petra is the user's manager", ["Petra is my manager"], None),
    ("user's manager is Petra", ["Petra is my manager"], None),
    ("your manager is Petra", ["Petra is my manager"], None),
    ("Petra is my manager", ["my manager is Petra"], None),
    ("the car is the user's", ["the car is mine"], None),
    ("user lives in Berlin", ["I live in Berlin"], None),
    ("user's sister loves sushi", HATE, "My sister loves sushi."),
    ("user hates cilantro", HATE, "I hate cilantro."),
    ("user sends reports to boss@corp.com", ["I send reports to boss@corp.com."], None),
    # inflections
    ("user loves sushi", ["I love sushi"], None),
    ("user loved sushi", ["I love sushi"], None),
    ("user is booking flights", ["I book flights"], None),
    ("user books flights", ["I am booking a flight"], None),
    ("user's managers are Petra and Jan", ["My manager is Petra and Jan"], None),
    ("user likes cities", ["I like the city"], None),
    ("user is running daily", ["I run daily"], None),
    ("user watches films", ["I watch films"], None),
    ("user's daughter is named Ada", ["My daughter's name is Ada"], None),
    ("user prefers the fastest trains", ["I prefer fast trains"], None),
    # negation kept where the user put it
    ("user does not like cilantro", ["I don't like cilantro"], None),
    ("user doesn't like cilantro", ["I do not like cilantro"], None),
    ("user does not like cilantro", ["I dont like cilantro"], None),
    ("user never eats meat", ["I never eat meat"], None),
    ("user does not eat meat", ["I never eat meat"], None),
    ("never book before 10am", ["Don't ever book anything before 10am"], None),
    ("user has no kids", ["I have no kids"], None),
    ("user doesn't have kids", ["I have no kids"], None),
    ("user can't swim", ["I cannot swim"], None),
    ("user won't fly Ryanair", ["I will not fly Ryanair"], None),
    ("user loves parsley", ["I don't like cilantro, but I love parsley"], None),
    ("user loves parsley", ["I don't like cilantro and I love parsley"], None),
    ("user works at Google", ["I work at Google, not Microsoft"], None),
    ("user is vegetarian", ["I don't eat meat because I'm vegetarian"], None),
    ("user eats neither meat nor fish", ["I eat neither meat nor fish"], None),
    ("user lives in Berlin", ["No, I live in Berlin"], None),
    # emails, URLs, numbers, phone numbers as whole tokens
    ("user's email is ada@home.org", ["My email is ada@home.org."], None),
    ("user's blog is https://ada.dev/blog", ["My blog is https://ada.dev/blog."], None),
    ("user's site is ada.dev", ["My site is ada.dev"], None),
    ("user's phone is +49 170 1234567", ["My phone is +49 170 1234567."], None),
    ("user's phone is +491701234567", ["My phone is +49 170 1234567."], None),
    ("user's phone is 555-123-4567", ["my phone is (555) 123-4567"], None),
    ("user lives 3.5 km from work", ["I live 3.5 km from work"], None),
    ("user earns 1000 euros", ["I earn 1,000 euros"], None),
    ("never book anything before 10am", ["Never book anything before 10 a.m."], None),
    ("never book anything before 10 am", ["Never book anything before 10am"], None),
    # punctuation, case, several messages and sentences
    ("USER IS VEGETARIAN!!", ["i'm VEGETARIAN"], None),
    ("user is vegetarian.", ["hello", "so. I\u2019m vegetarian!"], "I'm vegetarian!"),
    ("user lives in München", ["Ich wohne... I live in München"], "I live in München"),
    ("user is vegetarian", ["Remember that I'm vegetarian"], None),
    ("user is vegetarian", ["What's for dinner? I'm vegetarian."], "I'm vegetarian."),
    ("user prefers window seats", ["When I travel, I prefer window seats."], None),
    ("user flies to Paris", ["I fly e.g. to Paris. My sister flies to Rome."],
     "I fly e.g. to Paris."),
    ("user's dentist is Dr. Smith", ["My dentist is Dr. Smith."], None),
    ("user lives in Berlin", ["I'm vegetarian; I live in Berlin"], "I live in Berlin"),
    ("user lives in Berlin", ["Line one\nI live in Berlin\nline three"], "I live in Berlin"),
    ("user is vegetarian", ["Now I'm vegetarian"], None),
]


@pytest.mark.parametrize(("fact", "typed", "sentence"), SAID_IT)
def test_a_fact_you_stated_is_kept(fact: str, typed: list[str], sentence: str | None) -> None:
    verdict = words_are_yours(fact, typed)
    assert verdict.ok, verdict.reason
    assert verdict.reason == SAID
    assert verdict.sentence == (sentence or typed[0])


# (fact, what the user typed, the exact reason Saturn gives when it asks)
ASKS = [
    # two sentences mixed
    ("user loves cilantro", HATE, "'cilantro' and 'loves' are not in one sentence you typed"),
    ("user loves sushi", HATE, "'loves' and 'user' are not in one sentence you typed"),
    ("I love sushi", HATE, "'love' and 'I' are not in one sentence you typed"),
    ("user loves sushi", ["I hate cilantro.My sister loves sushi."],
     "'loves' and 'user' are not in one sentence you typed"),
    ("user lives in Berlin", ["I live in Paris. My boss is in Berlin."],
     "'lives' and 'Berlin' are not in one sentence you typed"),
    ("user is vegan", ["I'm vegetarian", "my friend is vegan"],
     "'user' and 'vegan' are not in one sentence you typed"),
    ("user works at Google", ["I work at home! Google called."],
     "'works' and 'Google' are not in one sentence you typed"),
    # words nobody typed
    ("user's email is evil@x.com", ["my email is me@home.com"],
     "'evil@x.com' is not in anything you typed"),
    ("send invoices to evil@x.com", ["send invoices to my accountant"],
     "'evil@x.com' is not in anything you typed"),
    ("user's manager is Bob", ["Petra is my manager"], "'Bob' is not in anything you typed"),
    ("user lives in Berlin, Germany", ["I live in Berlin"], "'Germany' is not in anything you typed"),
    ("never book anything after 10am", ["Never book anything before 10am"],
     "'after' is not in anything you typed"),
    ("never book anything before 9am", ["Never book anything before 10am"],
     "'9am' is not in anything you typed"),
    ("user's phone is +49 170 7654321", ["My phone is +49 170 1234567"],
     "'+49 170 7654321' is not in anything you typed"),
    ("user weighs 35 kg", ["I weigh 3.5 kg"], "'35' is not in anything you typed"),
    ("user's site is https://evil.example/x", ["My site is https://ada.dev"],
     "'https://evil.example/x' is not in anything you typed"),
    ("user is vegetarian", [], "'user' and 'vegetarian' are not in anything you typed"),
    ("user is vegetarian", ["", "   "], "'user' and 'vegetarian' are not in anything you typed"),
    ("user is vegetarian", ["You are vegetarian"], "'user' is not in anything you typed"),
    ("user likes cilantro", ["I can't stand cilantro"], "'likes' is not in anything you typed"),
    ("Petra manages the user", ["Petra is my manager"], "'user' is not in anything you typed"),
    ("user dislikes cilantro", ["I don't like cilantro"], "'dislikes' is not in anything you typed"),
    # questions never count
    ("user is vegetarian", ["Am I vegetarian?"], QUESTION),
    ("user is vegetarian", ["I'm vegetarian, right?"], QUESTION),
    ("user is vegetarian", ["do you think I'm vegetarian"], QUESTION),
    ("user lives in Berlin", ["Do I live in Berlin"], QUESTION),
    ("user lives in Berlin", ["Where do I live? Berlin is nice."],
     "'in' is not in anything you typed"),
    ("user's sister lives in Berlin", ["Does my sister live in Paris? I was in Berlin."],
     "'user's' is only in a question you asked"),
    ("Petra is user's manager", ["Is Petra my manager"], QUESTION),
    ("user is vegetarian", ["Could you remember that I'm vegetarian"], QUESTION),
    ("user is vegetarian", ["Should I be vegetarian"], QUESTION),
    ("user has two kids", ["How many kids do I have? two"], "'user' is only in a question you asked"),
    ("user's name is Ada", ["What's my name, Ada"], QUESTION),
    ("user likes sushi", ["Who says I like sushi"], QUESTION),
    ("user likes sushi", ["Hey, can I like sushi"], QUESTION),
    # a "not" dropped, added or moved
    ("user likes cilantro", ["I don't like cilantro"], "you said 'not' there; the fact drops it"),
    ("user likes cilantro", ["I dont like cilantro"], "you said 'not' there; the fact drops it"),
    ("user likes cilantro", ["I do not like cilantro."], "you said 'not' there; the fact drops it"),
    ("user eats meat", ["I never eat meat"], "you said 'never' there; the fact drops it"),
    ("user eats meat", ["I rarely eat meat"], "you said 'rarely' there; the fact drops it"),
    ("user has kids", ["I have no kids"], "you said 'no' there; the fact drops it"),
    ("user lives in Paris", ["I no longer live in Paris"], "you said 'no' there; the fact drops it"),
    ("user is called Bob", ["Nobody calls me Bob"], "you said 'nobody' there; the fact drops it"),
    ("user's manager is Petra", ["Petra isn't my manager"],
     "you said 'not' there; the fact drops it"),
    ("user works at Microsoft", ["I work at Google, not Microsoft"],
     "you said 'not' there; the fact drops it"),
    ("user likes parsley", ["I don't like cilantro but I love parsley"],
     "you said 'not' there; the fact drops it"),
    ("user is vegetarian", ["I'm not sure I'm vegetarian"], "you said 'not' there; the fact drops it"),
    ("user can swim", ["I can't swim"], "you said 'not' there; the fact drops it"),
    ("book anything before 10am", ["Never book anything before 10am"],
     "you said 'never' there; the fact drops it"),
    ("user does not like cilantro", ["I like cilantro"],
     "you didn't say 'not' there; the fact adds it"),
    ("user never eats meat", ["I eat meat"], "you didn't say 'never' there; the fact adds it"),
    ("user is not vegetarian", ["I'm vegetarian"], "you didn't say 'not' there; the fact adds it"),
    ("user has no kids", ["I have kids"], "you didn't say 'no' there; the fact adds it"),
    ("user doesn't like parsley", ["I don't like cilantro but I love parsley"],
     "the fact moves your 'not' to other words"),
    ("user's manager is not Petra", ["Petra is not my manager"],
     "the fact moves your 'not' to other words"),
    ("on weekdays user does not eat meat", ["I don't eat meat on weekdays"],
     "the fact moves your 'not' to other words"),
    # empty facts
    ("", ["I'm vegetarian"], EMPTY),
    ("   ", ["I'm vegetarian"], EMPTY),
    ("the", ["the"], NO_WORDS),
    ("is not", ["it is not"], NO_WORDS),
]


@pytest.mark.parametrize(("fact", "typed", "reason"), ASKS)
def test_otherwise_saturn_asks_and_says_why(fact: str, typed: list[str], reason: str) -> None:
    assert words_are_yours(fact, typed) == Verdict(False, reason)


@pytest.mark.parametrize(
    ("tainted", "resumed", "reason"),
    [(True, False, TAINTED), (False, True, RESUMED), (True, True, TAINTED)],
)
def test_outside_reading_or_a_resume_makes_every_fact_ask(
    tainted: bool, resumed: bool, reason: str
) -> None:
    verdict = words_are_yours("user is vegetarian", ["I'm vegetarian"], tainted, resumed)
    assert verdict == Verdict(False, reason)


def test_the_reason_wordings_are_the_ones_users_see() -> None:
    assert TAINTED == (
        "something from outside (a web page, an email, a file or an attachment) was read "
        "in this conversation; facts ask until /clear"
    )
    assert RESUMED == "a restored conversation can't say what it read, so every fact asks"


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("I hate cilantro. My sister loves sushi.", ["I hate cilantro.", "My sister loves sushi."]),
        ("I hate cilantro.My sister", ["I hate cilantro.", "My sister"]),
        ("e.g. Paris, i.e. France", ["e.g. Paris, i.e. France"]),
        ("Mail evil@x.com. Then stop", ["Mail evil@x.com.", "Then stop"]),
        ("It costs 3.5 euros! Cheap?", ["It costs 3.5 euros!", "Cheap?"]),
        ("apples etc. are fine", ["apples etc. are fine"]),
        ("apples etc. Then pears", ["apples etc.", "Then pears"]),
        ("before 10 a.m. My sister", ["before 10 a.m.", "My sister"]),
        ("one; two\nthree", ["one;", "two", "three"]),
        ("I hate cilantro\u2026 My sister", ["I hate cilantro\u2026", "My sister"]),
        ("Ich bin hier\u3002Du auch\uff1f", ["Ich bin hier\u3002", "Du auch\uff1f"]),
        ("see https://a.io/x?y=1;z=2 now", ["see https://a.io/x?y=1;z=2 now"]),
        ("Dr. Smith is my dentist", ["Dr. Smith is my dentist"]),
        ("", []),
    ],
)
def test_sentences_split_at_their_ends_only(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


@pytest.mark.parametrize(
    ("sentence", "asks"),
    [
        ("Am I vegetarian?", True),
        ("Do you know my name", True),
        ("What is my name", True),
        ("How many kids do I have", True),
        ("Who is my manager", True),
        ("Is it raining", True),
        ("Can you book a flight", True),
        ("So, do you remember me", True),
        ("Don't ever book anything before 10am", False),
        ("Do not call me Bob", False),
        ("When I travel, I prefer window seats", False),
        ("What I want is tea", False),
        ("How I feel is private", False),
        ("Can't stand cilantro", False),
        ("I'm vegetarian", False),
        ("Never book anything before 10am", False),
    ],
)
def test_a_question_is_told_apart_from_a_statement(sentence: str, asks: bool) -> None:
    assert is_question(sentence) is asks


def test_a_huge_paste_is_checked_quickly() -> None:
    """Pasted logs and blobs must not stall the daemon: the check stays linear in size."""
    import time

    blob = "a." * 50_000 + "x" * 50_000 + " a@b.co. " * 5_000 + " 1 2" * 20_000
    started = time.monotonic()
    verdict = words_are_yours("user likes tea", [blob, "I like tea"])
    assert verdict.ok
    assert time.monotonic() - started < 5  # quadratic regexes took minutes here
