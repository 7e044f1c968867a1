"""Does a chosen tool fit the request at all? A check for tools Saturn did not write.

On BFCL's live_irrelevance cases the 1.5B called get_current_weather to resolve a
domain's DNS and requests.get for a list of 2019's games: when no tool does what is
asked, a small model still picks one. A tool from an MCP server whose name,
description and parameters share no word (stemmed) with the request is sent back
once with the reason; called again, it runs. Built-in tools are exempt: their
descriptions are Saturn's own and short ("Read a text file" fits "What's on my list?").
"""

from __future__ import annotations

import json
import re
import unicodedata

from saturnd.tools.registry import Tool
from saturnd.tools.word_match import fts_index, fts_query, query_terms


def tool_words(tool: Tool) -> str:
    """The tool's name (split into words), description and parameters, as one text."""
    schema = tool.openai_schema(strict=True)["function"]
    return f"{name_words(tool)} {schema.get('description', '')} {json.dumps(schema.get('parameters', {}), ensure_ascii=False)}"


def name_words(tool: Tool) -> str:
    """get_current_weather, OpenWeatherMap.getForecast: the words of the name, lowercased."""
    return re.sub(r"[_.\-]+|(?<=[a-z])(?=[A-Z])", " ", tool.name).lower()


def fits_request(request: str, tool: Tool) -> bool:
    """Whether any content word of the request (stemmed) is in what the tool says of itself."""
    return _shares_a_word(query_terms(request), tool_words(tool))


def _shares_a_word(terms: list[str], text: str) -> bool:
    if not terms or not text.strip():
        return False
    with fts_index([("", text)]) as db:
        return db.execute("SELECT 1 FROM doc WHERE doc MATCH ?", (fts_query(terms),)).fetchone() is not None


def seems_unfit(request: str, tool: Tool) -> bool:
    """The request shares no word with the tool, though both are written in one script: a request
    in Korean and a tool described in English share no word and say nothing about the fit
    ("최근 박지성에 관한 뉴스를 찾아줘" for HNA_NEWS.search)."""
    terms, words = query_terms(request), tool_words(tool)
    return not _shares_a_word(terms, words) and bool(_scripts(" ".join(terms)) & _scripts(words))


def _scripts(text: str) -> set[str]:
    """LATIN, HANGUL, CJK, CYRILLIC…: the first word of each letter's Unicode name."""
    return {unicodedata.name(c, "?").split()[0] for c in text if c.isalpha()}


DOING_WORDS = frozenset({
    "get", "set", "calculate", "compute", "find", "search", "create", "make", "update", "delete", "remove",
    "add", "list", "fetch", "check", "generate", "send", "run", "retrieve", "lookup", "look", "query",
    "execute", "start", "stop", "perform", "call", "request", "requests", "post", "put", "api", "tool", "info",
})
"""Words a tool's name shares with many requests without saying what it is about: "calculate" in
calculate_compound_interest does not make it the tool for "Calculate the prime factors of 100"."""


def named_for_request(request: str, tool: Tool) -> bool:
    """Whether the tool's own name says what the request is about: "weather" in
    get_current_weather for "What's the weather in Shanghai?"."""
    subject = " ".join(w for w in name_words(tool).split() if w not in DOING_WORDS)
    return _shares_a_word(query_terms(request), subject)
