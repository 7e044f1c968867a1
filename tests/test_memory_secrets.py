"""Secrets are refused as facts: the usual written shapes, no false alarms on ordinary
numbers, and never a network call while looking."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from saturnd.memory import secrets
from saturnd.memory.secrets import (
    CARD,
    IBAN,
    PASSWORD,
    PIN,
    PRIVATE_KEY,
    SSN,
    TOKEN,
    find_secret,
)

# Test values are published test numbers and made-up keys, never real ones.
FOUND = [
    # card numbers: Luhn-valid with a real issuer prefix, spaced, dashed or run together
    ("my card is 4111 1111 1111 1111", CARD),
    ("card: 4111-1111-1111-1111 exp 12/25", CARD),
    ("4111111111111111 12 25", CARD),
    ("Mastercard 5500 0000 0000 0004", CARD),
    ("new mastercard 2223 0031 2200 3222", CARD),
    ("amex 3782 822463 10005", CARD),
    ("discover 6011111111111117", CARD),
    ("JCB 3530111333300000", CARD),
    ("diners 3056 9309 0259 04", CARD),
    # Social Security numbers
    ("SSN 123-45-6789", SSN),
    ("my social security number is 123456789", SSN),
    ("ssn: 123 45 6789", SSN),
    ("here it is: 078-05-1120", SSN),
    # passwords and PINs in the phrases people use
    ("my password is hunter2", PASSWORD),
    ("password: Tr0ub4dor&3", PASSWORD),
    ("pw hunter2", PASSWORD),
    ("the wifi password is 'correcthorse'", PASSWORD),
    ("My password for gmail is Blue-Moon-77", PASSWORD),
    ("password=correcthorsebatterystaple", PASSWORD),
    ("my password is: hunter2", PASSWORD),
    ("I changed my password to hunter2", PASSWORD),
    ("log in with https://ada:s3cretPW@example.com/x", PASSWORD),
    ("My PIN is 1234", PIN),
    ("PIN: 4821", PIN),
    ("passcode 4821", PIN),
    ("my bank card PIN is 0000", PIN),
    ("the pin code for the garage is 80451", PIN),
    # API keys and tokens
    ("sk-proj-abc123DEF456ghi789JKL012mno", TOKEN),
    ("use ghp_16C7e42F292c6912E7710c838347Ae178B4a for GitHub", TOKEN),
    ("xoxb-2408-1234567890-AbCdEfGhIjKlMnOpQrStUvWx", TOKEN),
    ("AKIAIOSFODNN7EXAMPLE", TOKEN),
    ("AIzaSyD4k9aJ7c1x_2Qb8ZpL0mN3vR5tW6yU8iO", TOKEN),
    ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
     "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", TOKEN),
    ("my api key is 9f8e7d6c5b4a39281706f5e4d3c2b1a0", TOKEN),
    ("api_key: 'Xy7Gh2Kp9Lm4Nq8Rs3Tv6Wz1'", TOKEN),
    ("stripe key sk_live_4eC39HqLyjWDarjtT1zdp7dc", TOKEN),
    ('secret = "s3cr3tV4lu3xyzABC123"', TOKEN),
    ("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", TOKEN),
    # private keys
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", PRIVATE_KEY),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", PRIVATE_KEY),
    ("-----BEGIN PGP PRIVATE KEY BLOCK-----", PRIVATE_KEY),
    # IBANs (mod-97 check digits), grouped or whole, a sentence's word after the last group
    ("my IBAN is DE89 3704 0044 0532 0130 00", IBAN),
    ("send it to GB29NWBK60161331926819", IBAN),
    ("my account NL91 ABNA 0417 1643 00 for the rent", IBAN),
    # a password after what it is for, and a made-up word given bare
    ("password for the router is sunflower", PASSWORD),
    ("the password for my old work laptop is Kestrel", PASSWORD),
    ("login is tom, password gWNdBDUEGFSsfr", PASSWORD),
]


@pytest.mark.parametrize(("text", "kind"), FOUND)
def test_a_secret_in_a_common_written_form_is_found(text: str, kind: str) -> None:
    assert find_secret(text) == kind


NOT_SECRETS = [
    "My phone number is +1 555 123 4567",
    "call me at (555) 123-4567",
    "I was born 1990-04-12",
    "order number 112-3345-99881",
    "order #4111111111111112",  # 16 digits, Luhn-invalid
    "4111 1111 1111 1112",  # Luhn-invalid
    "tracking 1Z999AA10123456784",
    "ISBN 978-3-16-148410-0",
    "my account number 12345678",
    "employee id 000-12-3456",  # area 000 is never issued
    "ticket 666-12-3456",
    "ref 123-00-4567",
    "code 900-12-3456",
    "My favourite word is password",
    "my password is weak",
    "I changed my password 3 times",
    "my password is the same everywhere",
    "I forgot my password again",
    "I changed my password to something else",
    "the PIN pad was broken",
    "I pinned 1234 tabs",
    "my pin is in my wallet",
    "token: blue",
    "I collect bus tokens",
    "I live in Berlin",
    "Petra is my manager",
    "never book anything before 10am",
    "my zip code is 10115",
    "the server is at 8.8.8.8",
    "python version 3.11.7",
    "meet at 10:30",
    "order id 8a7b6c5d-1234-4e5f-9a8b-7c6d5e4f3a2b",
    "the commit is 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a",
    "DE89370400440532013001",  # check digits do not hold
    "flight LH12 3456 7890 on Monday",
    "I use my password manager",
    "",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_numbers_and_words_are_not_secrets(text: str) -> None:
    assert find_secret(text) is None


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every attempt to reach the network is recorded (and fails)."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


def test_scanning_makes_zero_network_calls(no_network: list[Any]) -> None:
    corpus = [text for text, _ in FOUND] + NOT_SECRETS
    assert all(find_secret(text) for text, _ in FOUND)
    for text in corpus:
        find_secret(text)
    assert no_network == []


def test_no_verification_even_when_detect_secrets_is_set_to_verify(
    no_network: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """detect-secrets verifies a found key with its vendor (Slack, Stripe…) when its
    verification filter is on. Saturn switches it off before every scan."""
    from detect_secrets.settings import get_settings

    monkeypatch.setitem(get_settings().filters, secrets._VERIFY_FILTER, {})
    for token in [
        "xoxb-2408-1234567890-AbCdEfGhIjKlMnOpQrStUvWx",
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "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",
    ]:
        assert secrets._detect_secrets_kind(token) == TOKEN
    assert no_network == []


def test_detect_secrets_catches_what_the_simple_rules_miss() -> None:
    """A SendGrid key has no rule of Saturn's own; only detect-secrets knows its shape."""
    key = "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"
    assert not secrets._has_token(key)
    assert find_secret(f"my sendgrid key {key}") == TOKEN


def test_a_huge_fact_is_scanned_quickly() -> None:
    """Very long input stays fast: digit walls and long lines can't stall the daemon."""
    import time

    started = time.monotonic()
    for blob in ["1 " * 50_000, "eyJ" * 30_000 + ".", "a." * 50_000, "sk- " * 30_000]:
        assert find_secret(blob) is None
    assert time.monotonic() - started < 10  # the quadratic versions took minutes
