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

from saturnd.tools.registry import Tool
from saturnd.tools.word_match import fts_index, fts_query, query_terms


def tool_words(tool: Tool) -> str:
    """The tool's name (split into words), description and parameters, as one text."""
    schema = tool.openai_schema(strict=True)["function"]
    name = re.sub(r"[_.\-]+|(?<=[a-z])(?=[A-Z])", " ", tool.name)
    return f"{name} {schema.get('description', '')} {json.dumps(schema.get('parameters', {}))}"


def fits_request(request: str, tool: Tool) -> bool:
    """Whether any content word of the request (stemmed) is in what the tool says of itself."""
    terms = query_terms(request)
    if not terms:
        return False
    with fts_index([("", tool_words(tool))]) as db:
        return db.execute("SELECT 1 FROM doc WHERE doc MATCH ?", (fts_query(terms),)).fetchone() is not None
