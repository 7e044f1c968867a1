"""The first move: the model's own decision of what a request needs, made in one constrained step.

Asked alone, with the routes explained and the real tool list beside them, the model picks one
of six moves under a JSON schema (the server's grammar), and the likelihood of each move is read
from the log-probabilities of the route's first token. No word list guesses the request: it
works the same whatever language the request is in.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Literal, get_args

from saturnd.model.client import ModelClient, ModelError
from saturnd.model.types import ModelReply

Route = Literal["answer", "look_up", "change", "send", "ask", "cannot"]
ROUTES: tuple[Route, ...] = get_args(Route)
"""Their first tokens differ, so the route's first token tells them apart (prefix matched)."""
CHANGING: frozenset[str] = frozenset({"change", "send"})

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"route": {"type": "string", "enum": list(ROUTES)}},
    "required": ["route"],
    "additionalProperties": False,
}
PROMPT = """\
Choose the first move for the person's request. The request may be in any language: judge what \
it needs, not its wording. Reply {{"route": "<move>"}} with one of these moves:
- answer: reply now from what is shown here or from general knowledge: facts, advice, \
translations, and any arithmetic or unit conversion (computed, with calculate if it is listed).
- look_up: read the person's own files, notes, knowledge base, tables or a web page to find it out.
- change: create or edit a file or note of the person's, run a command, or keep a fact they state.
- send: send a message or an email to someone.
- ask: a value only the person knows is missing (who, which one, how much), so ask them first.
- cannot: none of the listed tools can do it: it needs a shop, a booking, a payment, a call, \
a device or an app that is not in the list.
Tools:
{tools}{shown}"""


@dataclass(frozen=True)
class FirstMove:
    route: Route
    probabilities: dict[str, float] | None
    """Each route's share of the route token's likelihood; None when the server sent none."""
    why: str
    """One line for the trace: "first move: change (p=0.91; look_up 0.06)"."""


def move_messages(system_brief: str, request: str, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decision's prompt: the moves, the tools they are judged against, what is shown
    (`system_brief`, e.g. the folder's file names; may be empty) and the request."""
    lines = [f"- {f['name']}: {_first_line(f.get('description', ''))}" for f in (t.get("function") or t for t in tools)]
    shown = f"\nShown:\n{system_brief.strip()}" if system_brief.strip() else ""
    return [
        {"role": "system", "content": PROMPT.format(tools="\n".join(lines) or "(none)", shown=shown)},
        {"role": "user", "content": request},
    ]


async def decide_first_move(
    client: ModelClient, request: str, tools: list[dict[str, Any]], context: str = ""
) -> FirstMove | None:
    """The model's first move for `request`; None when the server fails or the reply can't be read."""
    try:
        reply = await client.choose(move_messages(context, request, tools), SCHEMA)
    except ModelError:
        return None
    return read_move(reply)


def read_move(reply: ModelReply) -> FirstMove | None:
    """The route the reply's JSON names, with each route's probability when the tokens carry them."""
    try:
        route = json.loads(reply.content).get("route")
    except (ValueError, AttributeError):
        return None
    if route not in ROUTES:
        return None
    probabilities = route_probabilities(reply)
    return FirstMove(route, probabilities, _why(route, probabilities))


def route_probabilities(reply: ModelReply) -> dict[str, float] | None:
    """At the token where the route's value begins, the alternatives mapped to routes by prefix
    (the part of the token before the value must match), their mass normalised over the routes.
    llama.cpp's alternatives are the model's before the grammar, so the written token is added
    when it is not among them."""
    tokens = reply.logprobs
    if not tokens:
        return None
    text = "".join(t.token for t in tokens)
    opening = re.search(r'"route"\s*:\s*"', text)
    if opening is None:
        return None
    start = 0
    for token in tokens:
        if start + len(token.token) > opening.end():
            break
        start += len(token.token)
    else:
        return None
    before = text[start:opening.end()]
    mass = dict.fromkeys(ROUTES, 0.0)
    seen = {alternative for alternative, _ in token.top}
    chosen = () if token.token in seen else ((token.token, token.logprob),)
    for alternative, logprob in (*token.top, *chosen):
        if (route := _route_of(alternative, before)) is not None:
            mass[route] += math.exp(logprob)
    total = sum(mass.values())
    if total <= 0:
        return None
    return {route: round(p / total, 4) for route, p in mass.items()}


def _route_of(token: str, before: str) -> Route | None:
    if not token.startswith(before):
        return None
    rest = token[len(before):]
    whole = '"' in rest
    rest = rest.split('"')[0]
    if not rest:
        return None
    matches = [r for r in ROUTES if (r == rest if whole else r.startswith(rest))]
    return matches[0] if len(matches) == 1 else None


def expects_change(move: FirstMove | None, threshold: float = 0.5) -> bool:
    """The model's first move was to change something or send something, with at least
    `threshold` of the likelihood on those two moves together (unknown likelihood: the route)."""
    if move is None or move.route not in CHANGING:
        return False
    if move.probabilities is None:
        return True
    return sum(move.probabilities.get(r, 0.0) for r in CHANGING) >= threshold


def _why(route: Route, probabilities: dict[str, float] | None) -> str:
    if probabilities is None:
        return f"first move: {route}"
    others = sorted(((p, r) for r, p in probabilities.items() if r != route and p >= 0.01), reverse=True)
    rest = "".join(f"; {r} {p:.2f}" for p, r in others[:2])
    return f"first move: {route} (p={probabilities[route]:.2f}{rest})"


def _first_line(text: str) -> str:
    return " ".join(text.strip().splitlines()[:1])[:160]
