"""Retrieval: the lines of the user's small files that share the most words with the request.

Language-neutral by construction: words are Unicode letter and digit runs, folded to
lower case, and a word counts by how rare it is among the documents' lines (IDF), so
"die", "the", "el" and "le" weigh nothing without a stop list. A small file that
matches is shown whole; a larger one by windows around its best lines.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from dataclasses import dataclass

from saturnd.tools.names import WORD

KB_SOURCE = "kb:"
MIN_WORD_CHARS = 3
PREFIX_CHARS = 5
"""Words agree on their first letters ("Einkaufsliste" / "Einkauf", "factures" / "facture")."""


@dataclass(frozen=True)
class Document:
    source: str
    """How the model can read it: a path in the working folder, or "kb:<name>" (KB_SOURCE)."""
    text: str


@dataclass(frozen=True)
class Excerpt:
    source: str
    first_line: int
    lines: list[str]
    total_lines: int
    last_line: int = 0
    """The last line shown (0: the excerpt runs to the end of `lines`)."""

    @property
    def whole(self) -> bool:
        return self.first_line == 1 and len(self.lines) == self.total_lines


@dataclass(frozen=True)
class RetrievalLimits:
    top: int = 3
    whole_file_chars: int = 1_500
    """A file this small is shown whole; a larger one by its matching lines."""
    lines_around: int = 2
    max_lines: int = 12
    total_chars: int = 3_000
    relative_floor: float = 0.35
    """A document scoring under this share of the best one is left out."""


def words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return {w[:PREFIX_CHARS] for w in WORD.findall(folded) if len(w) >= MIN_WORD_CHARS or w.isdigit()}


def relevant_excerpts(request: str, documents: list[Document], limits: RetrievalLimits = RetrievalLimits()) -> list[Excerpt]:
    asked = words(request) | words(" ".join(request.split("/")))
    if not asked or not documents:
        return []
    lines_of = {d.source: d.text.splitlines() for d in documents}
    line_words = {d.source: [words(line) for line in lines_of[d.source]] for d in documents}
    document_words = {d.source: words(d.source.replace("/", " ").replace("_", " ").replace(".", " ")) for d in documents}
    frequency: Counter[str] = Counter(w for ws in line_words.values() for line in ws for w in line & asked)
    total = sum(len(ws) for ws in line_words.values()) or 1

    def weight(word: str) -> float:
        return math.log(1 + total / (1 + frequency[word]))

    scored = []
    for d in documents:
        per_line = [sum(weight(w) for w in line & asked) for line in line_words[d.source]]
        named = sum(weight(w) for w in document_words[d.source] & asked)
        score = max(per_line, default=0.0) + sum(sorted(per_line)[-3:]) / 3 + named
        if score > 0:
            scored.append((score, d, per_line))
    scored.sort(key=lambda s: -s[0])
    if not scored:
        return []
    best = scored[0][0]
    excerpts: list[Excerpt] = []
    used = 0
    for score, d, per_line in scored[: limits.top]:
        if score < best * limits.relative_floor:
            break
        part = _excerpt(d, lines_of[d.source], per_line, limits)
        size = sum(len(line) + 1 for line in part.lines)
        if used + size > limits.total_chars and excerpts:
            break
        excerpts.append(part)
        used += size
    return excerpts


def _excerpt(doc: Document, lines: list[str], per_line: list[float], limits: RetrievalLimits) -> Excerpt:
    if len(doc.text) <= limits.whole_file_chars:
        return Excerpt(doc.source, 1, lines, len(lines))
    best = sorted(range(len(lines)), key=lambda n: -per_line[n])[: limits.max_lines]
    keep = sorted({m for n in best if per_line[n] > 0
                   for m in range(max(0, n - limits.lines_around), min(len(lines), n + limits.lines_around + 1))})
    keep = keep[: limits.max_lines] or [0]
    if 0 not in keep:  # a heading or a table's header row says what the lines under it are
        keep = [0, *keep[: limits.max_lines - 1]]
    shown: list[str] = []
    for at, n in enumerate(keep):
        if at and n > keep[at - 1] + 1:
            shown.append("…")
        shown.append(lines[n])
    return Excerpt(doc.source, keep[0] + 1, shown, len(lines), last_line=keep[-1] + 1)


def render_excerpts(excerpts: list[Excerpt]) -> str:
    parts = []
    for part in excerpts:
        last = part.last_line or part.first_line + len(part.lines) - 1
        where = "whole file" if part.whole else f"lines {part.first_line}-{last} of {part.total_lines}"
        parts.append(f"{part.source} ({where}):\n" + "\n".join(part.lines))
    return "\n\n".join(parts)
