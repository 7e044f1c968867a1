"""Proof 6, secrets: >= 500 secrets in their written forms are refused (recall >= 99 %), >= 1,000
ordinary preference sentences are kept (false positives <= 0.5 %), and scanning makes no
network call. Both sets are generated from a seed, so a run can be repeated exactly.

The rule measured is memory's own (`decide_remember`), with the sentence typed by the user:
anything it does not refuse would be saved silently.

    python -m bench.reliability.secrets_recall [--short]
"""

from __future__ import annotations

import base64
import random
import string
import sys
from collections import Counter

from bench.reliability.common import Proof, proof_main
from saturnd.memory.remember import MemoryGate, decide_remember

SEED = 13
RECALL_TARGET = 0.99
FALSE_POSITIVE_TARGET = 0.005


def _chars(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


ALNUM = string.ascii_letters + string.digits


def _luhn_complete(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + _chars(rng, string.digits, length - len(prefix) - 1)
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def _grouped(rng: random.Random, digits: str) -> str:
    sep = rng.choice([" ", "-", ""])
    if len(digits) == 15:  # Amex: 4-6-5
        return sep.join([digits[:4], digits[4:10], digits[10:]])
    return sep.join(digits[i : i + 4] for i in range(0, len(digits), 4))


IBAN_LENGTHS = {"DE": 22, "GB": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "BE": 16, "CH": 21,
                "AT": 20, "PL": 28, "SE": 24, "IE": 22}


def _iban(rng: random.Random) -> str:
    country = rng.choice(sorted(IBAN_LENGTHS))
    # The layouts IBAN's registry gives: bank letters first in these countries.
    bban = {"GB": 4, "NL": 4, "IE": 4, "IT": 1}.get(country, 0)
    bban = _chars(rng, string.ascii_uppercase, bban)
    bban += _chars(rng, string.digits, IBAN_LENGTHS[country] - 4 - len(bban))
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    iban = f"{country}{check:02d}{bban}"
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4)) if rng.random() < 0.6 else iban


def _vendor_key(rng: random.Random) -> str:
    return rng.choice([
        lambda: "sk-" + _chars(rng, ALNUM, 48),
        lambda: "sk-proj-" + _chars(rng, ALNUM + "-_", 56),
        lambda: "sk-ant-api03-" + _chars(rng, ALNUM + "-_", 60),
        lambda: "ghp_" + _chars(rng, ALNUM, 36),
        lambda: "github_pat_" + _chars(rng, ALNUM + "_", 60),
        lambda: "xoxb-" + "-".join(_chars(rng, string.digits, 12) for _ in range(2)) + "-" + _chars(rng, ALNUM, 24),
        lambda: "AKIA" + _chars(rng, string.ascii_uppercase + string.digits, 16),
        lambda: "AIza" + _chars(rng, ALNUM + "-_", 35),
        lambda: "glpat-" + _chars(rng, ALNUM + "-_", 20),
        lambda: "sk_live_" + _chars(rng, ALNUM, 24),
        lambda: "rk_test_" + _chars(rng, ALNUM, 24),
        lambda: "hf_" + _chars(rng, ALNUM, 34),
        lambda: "npm_" + _chars(rng, ALNUM, 36),
        lambda: "eyJhbGciOiJIUzI1NiJ9." + _chars(rng, ALNUM, 40) + "." + _chars(rng, ALNUM + "-_", 43),
    ])()


def _private_key(rng: random.Random) -> str:
    kind = rng.choice(["RSA ", "EC ", "OPENSSH ", "", "DSA ", "ENCRYPTED "])
    body = base64.b64encode(rng.randbytes(rng.randint(90, 300))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"


def _password(rng: random.Random) -> str:
    word = rng.choice(["sunflower", "Tiger", "bluebird", "Marmalade", "hunter", "dragon", "Kestrel"])
    return rng.choice([
        lambda: word + str(rng.randint(1, 9999)) + rng.choice(["!", "#", "", "$"]),
        lambda: _chars(rng, ALNUM + "!@#$%&*", rng.randint(10, 18)),
        lambda: f"{word.capitalize()}-{rng.randint(10, 99)}-{rng.choice(['Moon', 'Rain', 'Fox'])}",
    ])()


SECRET_FORMS = {
    "vendor key": (_vendor_key, [
        "my openai key is {s}", "use this token: {s}", "api key: {s}", "remember {s} for the deploy",
        "the key for production is {s}", "here's my token {s}", "save this: {s}",
    ]),
    "private key": (_private_key, ["my ssh key:\n{s}", "{s}", "keep this key for me\n{s}"]),
    "card": (lambda rng: _grouped(rng, rng.choice([
        lambda: _luhn_complete(rng, "4", 16), lambda: _luhn_complete(rng, str(rng.randint(51, 55)), 16),
        lambda: _luhn_complete(rng, rng.choice(["34", "37"]), 15), lambda: _luhn_complete(rng, "6011", 16),
        lambda: _luhn_complete(rng, str(rng.randint(2221, 2720)), 16),
    ])()), [
        "my card number is {s}", "visa {s} exp 09/28", "card: {s}", "pay with {s}",
        "remember my credit card {s}", "my debit card is {s}, cvv 123",
    ]),
    "IBAN": (_iban, [
        "my IBAN is {s}", "send my salary to {s}", "bank account: {s}", "IBAN {s}",
        "remember my account {s} for transfers", "my iban's {s}",
    ]),
    "password": (_password, [
        "my gmail password is {s}", "the wifi password: {s}", "password for the router is {s}",
        "pw: {s}", "login is tom, password {s}", "I set my netflix password to {s}",
        "remember my password {s}", "my passphrase is {s}",
    ]),
    "PIN": (lambda rng: _chars(rng, string.digits, rng.choice([4, 4, 4, 6])), [
        "my bank PIN is {s}", "PIN: {s}", "the pin for my debit card is {s}", "my phone's pin code is {s}",
        "remember my PIN {s}", "my passcode is {s}", "the PIN for the garage is {s}",
    ]),
}


def secrets(rng: random.Random, per_form: int) -> list[tuple[str, str]]:
    out = []
    for form, (make, templates) in SECRET_FORMS.items():
        for i in range(per_form):
            out.append((form, templates[i % len(templates)].format(s=make(rng))))
    return out


PREFERENCES = [
    "I prefer {a} seats on flights", "I'm vegetarian", "my favourite colour is {c}",
    "I wake up at {h}:{m:02d} on weekdays", "call me {n}", "{n} is my manager",
    "never book anything before {h}am", "I live at {num} {street} Street", "my flight is LH{num} on {d} March",
    "I run {k} km every morning", "my phone number is +49 170 {p}", "I was born in {y}",
    "my zip code is {z}", "I like my coffee with {milk}", "the team meeting is at {h}:30 every Monday",
    "I use 1Password as my password manager", "I never share my PIN with anyone",
    "I changed my password yesterday", "my order number is {o}", "our wifi network is called {n}Home",
    "I have {k} cats", "my budget for the trip is {num} euros", "my room number is {num}",
    "remind me that the rent of {num} euros is due on the {k}th", "I'm allergic to {food}",
    "my daughter {n} turns {k} in {y2}", "my sister's name is {n}", "from now on answer in {lang}",
    "I work from home on {day}s", "my car is a {y} {car}", "my shoe size is {k}",
    "I take the {h}:{m:02d} train", "my employee id is {z}", "I'm {k}{k} years old",
    "the password reset link expired", "my invoice INV-{num} is paid", "my seat was {k}{a2}",
    "I read {k} books a month", "my tax class is {k}", "the gate code changes every month",
    "I keep my API keys in the vault", "my token for the bus is in the drawer",
    "I pay my rent by bank transfer", "the meeting room is B{num}", "version {k}.{m}.{num} works for me",
    "my GitHub username is {n}dev{k}", "I prefer emails over calls", "I get paid on the {k}th",
]
NAMES = ["Petra", "Sam", "Tom", "Aiko", "Lena", "Omar", "Ravi", "Mia", "Jonas", "Chloe"]


def preferences(rng: random.Random, count: int) -> list[str]:
    out = []
    for i in range(count):
        template = PREFERENCES[i % len(PREFERENCES)]
        out.append(template.format(
            a=rng.choice(["window", "aisle"]), a2=rng.choice("ACDF"), c=rng.choice(["green", "blue"]),
            h=rng.randint(5, 11), m=rng.randint(0, 59), n=rng.choice(NAMES), num=rng.randint(1, 9999),
            street=rng.choice(["Oak", "Linden", "Main"]), d=rng.randint(1, 28), k=rng.randint(2, 9),
            p=rng.randint(1000000, 9999999), y=rng.randint(1950, 2010), y2=rng.randint(2026, 2030),
            z=rng.randint(10000, 99999), milk=rng.choice(["oat milk", "no sugar"]),
            o=rng.randint(10**7, 10**9), food=rng.choice(["peanuts", "shellfish"]),
            lang=rng.choice(["German", "French"]), day=rng.choice(["Friday", "Tuesday"]),
            car=rng.choice(["VW Golf", "Toyota Yaris"]),
        ))
    return out


def refused(sentence: str) -> bool:
    gate = MemoryGate(user_messages=(sentence,))
    return decide_remember(sentence, gate).outcome == "refuse"


class _NetworkWatch:
    """Counts every socket connect and name lookup the process makes (an audit hook)."""

    calls = 0
    watching = False

    @classmethod
    def hook(cls, event: str, args: tuple) -> None:
        if cls.watching and event in {"socket.connect", "socket.getaddrinfo", "socket.sendto"}:
            cls.calls += 1


sys.addaudithook(_NetworkWatch.hook)


def run(short: bool = False) -> Proof:
    proof = Proof("Secrets: refused on every path that writes a fact")
    rng = random.Random(SEED)
    positives = secrets(rng, per_form=20 if short else 100)
    negatives = preferences(rng, 240 if short else 1200)
    _NetworkWatch.calls, _NetworkWatch.watching = 0, True
    missed = [(form, s) for form, s in positives if not refused(s)]
    false_positives = [s for s in negatives if refused(s)]
    _NetworkWatch.watching = False
    recall = 1 - len(missed) / len(positives)
    fp_rate = len(false_positives) / len(negatives)
    by_form = Counter(form for form, _ in positives)
    missed_by_form = Counter(form for form, _ in missed)
    proof.figure("secrets", f"{len(positives)} ({', '.join(f'{f} {n}' for f, n in by_form.items())})")
    proof.figure("refusal recall", f"{recall:.2%} ({len(positives) - len(missed)}/{len(positives)})")
    proof.figure("missed by form", dict(missed_by_form) or "none")
    proof.figure("ordinary sentences", len(negatives))
    proof.figure("false positives", f"{fp_rate:.2%} ({len(false_positives)}/{len(negatives)})")
    proof.figure("network calls while scanning", _NetworkWatch.calls)
    for form, sentence in missed[:5]:
        proof.figure(f"missed ({form})", repr(sentence[:90]))
    for sentence in false_positives[:5]:
        proof.figure("false positive", repr(sentence))
    proof.expect(recall >= RECALL_TARGET, f"recall {recall:.2%} < {RECALL_TARGET:.0%}")
    proof.expect(fp_rate <= FALSE_POSITIVE_TARGET, f"false positives {fp_rate:.2%} > 0.5 %")
    proof.expect(_NetworkWatch.calls == 0, f"{_NetworkWatch.calls} network calls")
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
