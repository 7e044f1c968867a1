"""The words-are-yours check: a fact is saved silently only when one stated sentence the
user typed holds every meaningful word of it, with each "not" where the user put it.
Deterministic on purpose: a planted fact steers every later turn, so no model decides this."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Verdict:
    ok: bool
    """True: the fact may be saved silently."""
    reason: str
    """Why not (shown to the user when Saturn asks instead), or why yes ("you said it")."""
    sentence: str = ""
    """The one user sentence every meaningful word of the fact came from (when ok)."""


TAINTED = ("something from outside (a web page, an email, a file or an attachment) was read "
           "in this conversation; facts ask until /clear")
RESUMED = "a restored conversation can't say what it read, so every fact asks"
SAID = "you said it"
EMPTY = "the fact is empty"
NO_WORDS = "the fact has no meaningful words"
QUESTION = "you asked that as a question; it is not a statement"

# Emails, URLs, phone numbers and numbers stay whole, so 'evil@x.com' can't be assembled
# from 'evil' and 'x'. The domain's TLD is case-sensitive so "cilantro.My" still splits.
# Lookbehinds and possessive runs keep a pasted 100 kB blob linear, not quadratic.
_URL = r"(?:https?://|www\.)[^\s<>\"']+"
_EMAIL = r"(?<![\w.+-])[\w.+-]++@[\w-]+(?:\.[\w-]+)+"
_DOMAIN = r"(?<![\w.-])[A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)*\.(?-i:[a-z]{2,})\b(?:/[^\s\"']*)?"
_TOKEN = re.compile(
    rf"(?P<url>{_URL})|(?P<email>{_EMAIL})"
    r"|(?P<phone>\+\d[\d ().-]{5,}\d|\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b)"
    rf"|(?P<domain>{_DOMAIN})"
    r"|(?P<number>\d+(?:[.,:/-]\d+)*[^\W\d_]*%?)"
    r"|(?P<word>[^\W\d_]+(?:'[^\W\d_]+)*)"
    r"|(?P<brk>[,:()\[\]\"\u2014\u2013]|\s-\s)",
    re.IGNORECASE,
)
_PROTECT = re.compile(rf"{_URL}|{_EMAIL}|{_DOMAIN}", re.IGNORECASE)
# A sentence ends at . ! ? ; … or a newline; a period only before a space, a quote, the
# end, or a capital (so "cilantro.My sister" is still two sentences).
_BREAK = re.compile(r"\n+|[!?;\u2026\u3002\uff01\uff1f]+|\.+(?=[\s\"')\]]|$|[A-Z])")
_NEVER_END = {"e.g", "i.e", "eg", "ie", "dr", "mr", "mrs", "ms", "prof", "vs", "cf", "approx"}
_MAYBE_END = {"a.m", "p.m", "etc"}  # ends a sentence only when a capital follows


def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


_NEGATORS = _words("not never no none nobody nothing neither nor without nowhere hardly "
                   "barely rarely seldom")
_STOP = _words("a an the am is are was were be been being do does did doing have has had "
               "having of to that it its there ever so just really very also please and or but "
               "yet then than as which s um oh")
# Words after which a negation no longer reaches ("I don't eat meat because I'm vegan").
_CLAUSE = _words("but although though because since while whereas however yet so unless "
                 "until except if when whenever")
_SUBJECTS = _words("i you he she we they it my user this there")
_AUX = _words("do does did have has had can could would should will shall may might must")
_BE, _WH_ALWAYS = _words("is are was were am"), _words("who whom whose which")
_WH = _words("what where why how when")
_HOW_MUCH = _words("many much long old often far about come big")
_FILLER = _words("so and but also ok okay hey hi well oh now saturn")
# The user says "I/my"; the fact may say "I/my" or "user/you/your": both mean the user.
# Possessive and subject stay distinct, so "My sister loves sushi" never gives "user loves".
_ME = {"i": "@user", "me": "@user", "myself": "@user", "my": "@user's", "mine": "@user's"}
_YOU = {"you": "@user", "yourself": "@user", "user": "@user", "your": "@user's",
        "yours": "@user's", "user's": "@user's"}
_CONTRACTED = {"won't": "will not", "can't": "can not", "cannot": "can not", "wont": "will not",
               "cant": "can not", "shan't": "shall not", "ain't": "am not", "aint": "am not",
               "im": "i am", "ive": "i have", "what's": "what is", "where's": "where is",
               "who's": "who is", "how's": "how is", "when's": "when is", "why's": "why is"}
_NT_BARE = re.compile(r"^(do|does|did|is|are|was|were|have|has|had|could|should|would|must|need)nt$")
_SUFFIX = {"'m": "am", "'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_IRREGULAR = {"children": "child", "men": "man", "women": "woman", "people": "person"}


@dataclass
class _Parsed:
    keys: list[str] = field(default_factory=list)  # comparison keys, in order
    shown: dict[str, str] = field(default_factory=dict)  # key -> as written, for reasons
    negations: list[tuple[str, set[str]]] = field(default_factory=list)  # (word, scope keys)


def words_are_yours(
    fact: str, user_messages: list[str], tainted: bool = False, resumed: bool = False
) -> Verdict:
    """Outside reading and resumes ask first; then the first stated sentence that holds it."""
    if tainted:
        return Verdict(False, TAINTED)
    if resumed:
        return Verdict(False, RESUMED)
    if not fact.strip():
        return Verdict(False, EMPTY)
    want = _parse(fact, _YOU | _ME)
    if not want.keys:
        return Verdict(False, NO_WORDS)
    sentences = [s for message in user_messages for s in split_sentences(message)]
    stated = [(s, _parse(s, _ME)) for s in sentences if not is_question(s)]
    asked = [_parse(s, _ME) for s in sentences if is_question(s)]
    negation_trouble = ""
    for sentence, have in stated:
        if set(want.keys) <= set(have.keys):
            trouble = _negation_trouble(want, have)
            if not trouble:
                return Verdict(True, SAID, sentence)
            negation_trouble = negation_trouble or trouble
    if negation_trouble:
        return Verdict(False, negation_trouble)
    if any(set(want.keys) <= set(q.keys) for q in asked):
        return Verdict(False, QUESTION)
    return Verdict(False, _missing_reason(want, [h for _, h in stated], asked))


def key_words(fact: str) -> set[str]:
    """The fact's comparison keys (stemmed, pronouns unified) plus "not" when negated."""
    parsed = _parse(fact, _YOU | _ME)
    return set(parsed.keys) | ({"not"} if parsed.negations else set())


def split_sentences(text: str) -> list[str]:
    """Sentences as typed; "e.g.", "3.5", "evil@x.com" and URLs don't end one."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    protected = [m.span() for m in _PROTECT.finditer(text)]
    pieces, start = [], 0
    for m in _BREAK.finditer(text):
        at = bisect.bisect_right(protected, (m.start(), len(text))) - 1
        if (at >= 0 and m.start() < protected[at][1]) or _is_abbreviation(text, m):
            continue
        pieces.append(text[start : m.end()])
        start = m.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if re.search(r"\w", p)]


def _is_abbreviation(text: str, m: re.Match[str]) -> bool:
    if not m.group().startswith("."):
        return False
    before = re.search(r"([A-Za-z.]+)$", text[max(0, m.start() - 12) : m.start()])
    word = before.group(1).strip(".").lower() if before else ""
    capital_next = text[m.end() :].lstrip()[:1].isupper()
    return word in _NEVER_END or (word in _MAYBE_END and not capital_next)


def is_question(sentence: str) -> bool:
    if sentence.rstrip(" \"')]").endswith(("?", "\uff1f")):
        return True
    words = [w for raw in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", sentence.lower())
             for w in _expand(raw)]
    while words and words[0] in _FILLER:
        words.pop(0)
    if len(words) < 2:
        return False
    first, second = words[0], words[1]
    if first in _WH_ALWAYS or first in _BE:
        return True
    if first in _WH:  # "When I travel, I prefer…" is a statement; "When is…" is not
        return second in _AUX | _BE or (first == "how" and second in _HOW_MUCH)
    # "Do you…" asks; "Don't ever book…" (do not) tells.
    return first in _AUX and (second in _SUBJECTS | {"the", "a", "an", "your", "any"})


def _expand(word: str) -> list[str]:
    """Contractions to full words, so "don't" carries the same "not" as "do not"."""
    word = word.lower()
    if word in _CONTRACTED:
        return _CONTRACTED[word].split()
    bare = _NT_BARE.match(word)
    if bare or word.endswith("n't"):
        return [bare.group(1) if bare else word[:-3], "not"]
    for suffix, full in _SUFFIX.items():
        if word.endswith(suffix):
            return [word[: -len(suffix)], full]
    if word.endswith("'s") and word not in _YOU:
        return [word[:-2]]  # possessive or "is": neither changes which words were said
    return [word.rstrip("'")]


def _stem(word: str) -> str:
    """A compact suffix stemmer: loves≈love, booking≈book, managers≈manager, cities≈city."""
    word = _IRREGULAR.get(word, word)
    if len(word) > 3 and word.isalpha():
        word = _strip_plural(word)
        for suffix in ("ing", "ed", "est", "er"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
    if len(word) >= 3 and word[-1] == word[-2] and word[-1] not in "lsfzaeiou0123456789":
        word = word[:-1]  # running → runn → run
    if len(word) >= 4 and word.endswith("e"):
        word = word[:-1]  # love/loved/loving all meet at "lov"
    return word


def _strip_plural(word: str) -> str:
    for suffix in ("ies", "ied", "ier", "iest"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            return word[: -len(suffix)] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    keep = word.endswith(("ss", "us", "is")) or not word.endswith("s")
    return word if keep else word[:-1]


def _normalize(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"\b([ap])\.m\b\.?", r"\1m", text, flags=re.IGNORECASE)
    return re.sub(r"(\d)\s+([ap]m)\b", r"\1\2", text, flags=re.IGNORECASE)  # 10 am = 10am


def _parse(text: str, pronouns: dict[str, str]) -> _Parsed:
    parsed = _Parsed()
    open_negations: list[set[str]] = []
    tokens = list(_TOKEN.finditer(_normalize(text)))
    for i, m in enumerate(tokens):
        if m.lastgroup == "brk":  # a comma or a dash ends the clause a "not" reaches into
            open_negations = []
            continue
        if m.lastgroup != "word":
            _add(parsed, open_negations, _whole_token(m.group(), m.lastgroup), m.group())
            continue
        nxt = _expand(tokens[i + 1].group())[0] if i + 1 < len(tokens) else ""
        for word in _expand(m.group()):
            if word in _CLAUSE or (word in {"and", "or"} and nxt in _SUBJECTS):
                open_negations = []
            if word in _NEGATORS:
                scope: set[str] = set()
                parsed.negations.append((word, scope))
                open_negations.append(scope)
            elif word in pronouns:
                _add(parsed, open_negations, pronouns[word], m.group())
            elif word not in _STOP:
                _add(parsed, open_negations, _stem(word), m.group())
    return parsed


def _whole_token(token: str, kind: str | None) -> str:
    token = token.lower().rstrip(".,;:!?)")
    if kind == "phone":
        return re.sub(r"[^\d+]", "", token)
    if kind == "number" and re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", token):
        return token.replace(",", "")  # 1,000 = 1000
    return token


def _add(parsed: _Parsed, open_negations: list[set[str]], key: str, shown: str) -> None:
    parsed.keys.append(key)
    parsed.shown.setdefault(key, shown)
    for scope in open_negations:
        scope.add(key)


def _negation_trouble(want: _Parsed, have: _Parsed) -> str:
    """Each negation in the sentence that reaches the fact's words must sit over the same
    words in the fact, and the fact may add none: "I don't like cilantro" ≠ "likes cilantro"."""
    fact_words = set(want.keys)
    said = [(w, s & fact_words) for w, s in have.negations if s & fact_words]
    claimed = want.negations
    if sorted(map(sorted, (s for _, s in said))) == sorted(map(sorted, (s for _, s in claimed))):
        return ""
    if len(said) > len(claimed):
        return f"you said '{said[0][0]}' there; the fact drops it"
    if len(said) < len(claimed):
        return f"you didn't say '{claimed[0][0]}' there; the fact adds it"
    return f"the fact moves your '{said[0][0]}' to other words"


def _missing_reason(want: _Parsed, stated: list[_Parsed], asked: list[_Parsed]) -> str:
    typed = {k for p in stated + asked for k in p.keys}
    untyped = _ordered(want, lambda k: k not in typed)
    if untyped:
        verb = "is" if len(untyped) == 1 else "are"
        return f"{_quote(untyped[:2])} {verb} not in anything you typed"
    said = {k for p in stated for k in p.keys}
    only_asked = _ordered(want, lambda k: k not in said)
    if only_asked:
        return f"{_quote(only_asked[:1])} is only in a question you asked"
    best = max(stated, key=lambda p: len(set(want.keys) & set(p.keys)))
    missing = _ordered(want, lambda k: k not in best.keys)
    present = _ordered(want, lambda k: k in best.keys and not k.startswith("@"))
    present = present or _ordered(want, lambda k: k in best.keys)
    return f"{_quote([present[0], missing[0]])} are not in one sentence you typed"


def _ordered(parsed: _Parsed, keep: Callable[[str], bool]) -> list[str]:
    """The fact's words that pass `keep`, once each, in the fact's order, as written."""
    return [parsed.shown[k] for k in dict.fromkeys(parsed.keys) if keep(k)]


def _quote(words: list[str]) -> str:
    return " and ".join(f"'{w}'" for w in words)
