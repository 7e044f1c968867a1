"""Secrets never become facts: a memory is loaded into every later request, so a card
number or a password stored there leaks into every prompt, log and model call after it.

`find_secret` catches the usual written shapes. It is not a guarantee for every one.
Everything here is local: no secret is ever sent anywhere to check whether it is live.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

CARD = "a card number"
SSN = "a Social Security number"
PASSWORD = "a password"
PIN = "a PIN"
TOKEN = "an API key or token"
PRIVATE_KEY = "a private key"
IBAN = "a bank account number (IBAN)"

_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
# Digit groups joined by single spaces or dashes, as people write card numbers.
_DIGIT_GROUPS = re.compile(r"(?<![\w.-])\d+(?:[ -]\d+)*(?![\w-])")
_SSN_SHAPE = re.compile(r"(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])")
_SSN_NAMED = re.compile(
    r"\b(?:ssn|social security(?: number| no\.?| #)?)\W{0,5}(?:is\W{1,3})?"
    r"(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b",
    re.IGNORECASE,
)
_PIN = re.compile(
    r"\b(?:pin|pin code|pin number|passcode)\b(?:\s+(?:for|on|of|to)\s+(?:\w+\s+){0,3}?\w+)?"
    r"\s*(?:is|was|:|=|-)?\s*(\d{4,8})\b",
    re.IGNORECASE,
)
_PASSWORD = re.compile(
    r"\b(?:password|passwd|passphrase|passcode|pwd|pw)\b"
    # "password for my gmail": greedy and never through "is", so "password for the router is x"
    # reads "the router" as what it is for, not "the" as the password.
    r"(?:\s+(?:for|on|of|to|at)\s+(?:(?!(?:is|was)\b)\w+\s+){0,3}(?!(?:is|was)\b)[\w.@-]+)?"
    r"(?P<sep>\s*[:=]\s*|\s+(?:is|was|to)\s*[:=]?\s*|\s+)[\"'`]?(?P<value>[^\s\"'`]+)",
    re.IGNORECASE,
)
# Country code, check digits, then 10-30 letters and digits, written whole or in groups of four
# (the last group shorter, and maybe a word of the sentence: "DE89 ... 00 for rent").
_IBAN_SHAPE = re.compile(
    r"(?<![\w-])[A-Z]{2}\d{2}(?:[A-Z0-9]{10,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)(?![\w-])",
    re.IGNORECASE,
)
# Words after "my password is" that describe it rather than give it away.
_NOT_A_VALUE = {
    "a", "an", "the", "not", "too", "very", "so", "weak", "strong", "long", "short", "secure",
    "safe", "secret", "private", "expired", "changed", "wrong", "correct", "right", "saved",
    "stored", "in", "on", "at", "same", "different", "reset", "required", "hard", "easy",
    "missing", "new", "old", "written", "somewhere", "complicated", "simple", "also", "still",
}
_PREFIXED_TOKEN = re.compile(
    r"(?<![\w-])(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"
    r"|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
)
_NAMED_TOKEN = re.compile(
    r"\b(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key|token|client[ _-]?secret)\b"
    r"(?:\s*[:=]\s*|\s+(?:is|was)\s+)[\"'`]?(?P<value>[A-Za-z0-9_\-./+=]{16,})",
    re.IGNORECASE,
)
# detect-secrets plugin results that are not secrets a person would tell Saturn.
_NOT_SECRET_TYPES = {"Public IP (ipv4)"}
_SCAN_WIDTH = 2000
_VERIFY_FILTER = "detect_secrets.filters.common.is_ignored_due_to_verification_policies"


def find_secret(text: str) -> str | None:
    """What kind of secret `text` holds ("a card number", …), or None."""
    for kind, found in (
        (PRIVATE_KEY, _PRIVATE_KEY.search(text) is not None),
        (CARD, _has_card_number(text)),
        (IBAN, _has_iban(text)),
        (SSN, _has_ssn(text)),
        (PIN, _PIN.search(text) is not None),
        (PASSWORD, _has_password(text)),
        (TOKEN, _has_token(text)),
    ):
        if found:
            return kind
    return _detect_secrets_kind(text)


def secret_refusal(text: str) -> str:
    """Why `text` is never kept, as the person and the model are told; "" when it holds no secret."""
    secret = find_secret(text)
    return f"refused: that looks like {secret}; Saturn never keeps secrets" if secret else ""


def _has_card_number(text: str) -> bool:
    for m in _DIGIT_GROUPS.finditer(text):
        groups = re.split(r"[ -]", m.group())
        # Any run of neighbouring groups may be the card: "4111 1111 1111 1111 12/25".
        for start in range(len(groups)):
            digits = ""
            for end in range(start, len(groups)):
                digits += groups[end]
                if len(digits) > 19:
                    break  # keeps a pasted wall of numbers linear
                if len(digits) >= 13 and _issuer_ok(digits) and _luhn_ok(digits):
                    return True
    return False


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _issuer_ok(digits: str) -> bool:
    """A prefix some card network issues: Visa, Mastercard, Amex, Discover, JCB, Diners,
    UnionPay, Maestro. A Luhn-valid order number with another prefix is not a card."""
    two, four = int(digits[:2]), int(digits[:4])
    return (
        digits[0] == "4"
        or 50 <= two <= 58
        or 2221 <= four <= 2720
        or two in {30, 34, 35, 36, 37, 38, 39, 60, 62, 63, 64, 65, 67}
    )


def _has_iban(text: str) -> bool:
    """An IBAN whose mod-97 check digits hold and whose layout fits its country (the national
    checksums are not asked for: a mistyped account number is still one)."""
    return any(
        _iban_ok(m.group()) or _iban_ok(m.group().rpartition(" ")[0])
        for m in _IBAN_SHAPE.finditer(text)
    )


def _iban_ok(candidate: str) -> bool:
    from stdnum import iban
    from stdnum.exceptions import ValidationError

    if not candidate:
        return False
    try:
        iban.validate(candidate, check_country=False)
    except ValidationError:
        return False
    return True


def _has_ssn(text: str) -> bool:
    shaped = (m.groups() for m in _SSN_SHAPE.finditer(text))
    named = (m.groups() for m in _SSN_NAMED.finditer(text))
    return any(_ssn_ok(*parts) for parts in (*shaped, *named))


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    """The SSA never issues area 000, 666 or 9xx, group 00, or serial 0000."""
    return area not in {"000", "666"} and area[0] != "9" and group != "00" and serial != "0000"


def _has_password(text: str) -> bool:
    for m in _PASSWORD.finditer(text):
        value = m.group("value").rstrip(".,;!?")
        if not value or value.lower() in _NOT_A_VALUE:
            continue
        # "pw hunter2" or "changed it to x" can be prose, so the value must look made up.
        bare = m.group("sep").strip() in {"", "to"}
        if not bare or _looks_made_up(value):
            return True
    return False


def _looks_made_up(value: str) -> bool:
    """A digit, a symbol or a capital inside the word: "hunter2", "gWNdBDUE", not "manager"."""
    return len(value) >= 4 and bool(
        re.search(r"\d", value) or re.search(r"[^\w]", value) or re.search(r"[A-Z]", value[1:])
    )


def _has_token(text: str) -> bool:
    if _PREFIXED_TOKEN.search(text):
        return True
    for m in _NAMED_TOKEN.finditer(text):
        value = m.group("value")
        if re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            return True
    return False


def _detect_secrets_kind(text: str) -> str | None:
    """detect-secrets' default plugins, line by line, with verification switched off."""
    from detect_secrets.settings import get_settings  # slow import: only when a fact is saved

    # Verification would send the candidate secret to its vendor's API: never.
    get_settings().disable_filters(_VERIFY_FILTER)
    for number, line in enumerate(_scan_lines(text), start=1):
        for plugin in _plugins():
            for secret in plugin.analyze_line(filename="fact.yaml", line=line, line_number=number):
                if secret.type in _NOT_SECRET_TYPES or _filtered_out(secret, line, plugin):
                    continue
                return _kind_of(secret.type, line)
    return None


def _scan_lines(text: str) -> Iterator[str]:
    """The text's lines, long ones cut at a space into pieces of at most _SCAN_WIDTH:
    some detect-secrets patterns take quadratic time on one very long line."""
    for line in text.splitlines() or [text]:
        while len(line) > _SCAN_WIDTH:
            cut = line.rfind(" ", 0, _SCAN_WIDTH)
            cut = cut if cut > 0 else _SCAN_WIDTH
            yield line[:cut]
            line = line[cut:]
        yield line


@cache
def _plugins() -> tuple[Any, ...]:
    """Every default plugin, built once. The ".yaml" filename in `_detect_secrets_kind`
    makes the keyword plugin read "password: x" and "api_key: x" the way people write them."""
    from detect_secrets.settings import default_settings, get_plugins

    with default_settings():
        return tuple(get_plugins())


def _filtered_out(secret: Any, line: str, plugin: Any) -> bool:
    """detect-secrets' own false-positive heuristics (uuids, ${VARS}, sequences)."""
    from detect_secrets.filters import heuristic

    value = secret.secret_value or ""
    return (
        heuristic.is_sequential_string(value)
        or heuristic.is_potential_uuid(value)
        or heuristic.is_likely_id_string(value, line, plugin)
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_indirect_reference(line)
    )


def _kind_of(secret_type: str, line: str) -> str:
    if secret_type == "Private Key":
        return PRIVATE_KEY
    if secret_type == "Basic Auth Credentials":
        return PASSWORD
    if secret_type == "Secret Keyword" and re.search(r"pass|pwd", line, re.IGNORECASE):
        return PASSWORD
    return TOKEN
