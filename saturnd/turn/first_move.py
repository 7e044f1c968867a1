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
CHANGING: frozenset[str] = frozenset({"change", "send"})
SPELLING: dict[Route, str] = {
    "answer": "answer_now", "look_up": "look_up", "change": "change_file", "send": "send_message",
    "ask": "ask_user", "cannot": "no_tool",
}
"""How the model writes each route: named for what it does (the 1.5B, before EXAMPLES: 17 of 32
errands right against 14 with the bare names, bench/results/first-move-probe.md). Their first
tokens differ (answer, look, change, send, ask, no), so the route's first token tells them apart."""


def schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"route": {"type": "string", "enum": list(SPELLING.values())}},
        "required": ["route"],
        "additionalProperties": False,
    }


PROMPT = """\
You decide how a request is handled, before anything is done. The request may be in any \
language: judge what it needs, not its wording.
The tools that exist:
{tools}
Moves:
- answer_now: you reply yourself with no tool or with calculate: general knowledge, advice, a \
translation, arithmetic, a unit conversion.
- look_up: the reply depends on the person's own data: their lists, notes, logs, budget, tables, \
documents or knowledge base, or a web page; also how much, how many or when of what they did or \
recorded.
- change_file: add, edit, mark, tick off or remove something in the person's files or notes (note \
down what they did or what happened), or run a command.
- send_message: send a text message or an email to someone: a number, an address, or a person \
whose address the person's files hold.
- ask_user: a value or a choice that only the person knows is missing.
- no_tool: the person wants something done in the world that none of the tools above can do: \
buying, ordering, booking, paying, phoning, or working a device or an app. A question about what \
they did, or noting it down, is not this.
Reply {{"route": "<move>"}}."""
EXAMPLES: tuple[tuple[str, Route], ...] = (
    ("Get me a taxi to the airport.", "cannot"),
    ("What did I note about the car insurance?", "look_up"),
    ("Email my accountant the summary.", "send"),
    ("Put my new PIN in the notes.", "ask"),
    ("Rename the heading in todo.md to 'This week'.", "change"),
    ("What's the boiling point of water in kelvin?", "answer"),
    ("Trag ein, dass ich heute 40 Minuten gelaufen bin.", "change"),
    ("¿Cuántos kilómetros he hecho en bici este mes?", "look_up"),
    ("Emmène la voiture au garage demain.", "cannot"),
)
"""Worked decisions, as earlier turns of the conversation. Without them the 1.5B never chose
no_tool and took conversions for look-ups (17 of 32 right); with one per move, in English, 27 of
32 and 14 of 17 errands it was never tuned on. Stop 56, on the 148 errands of stops 51-56
(bench/first_move_probe.py --errands): 96 right, 38 of them at 0.5 or more; with the moves' lines
saying that what the person did is looked up or noted down, not a no_tool, 105 and 51; with three
more worked decisions in German, Spanish and French (a note, a month's total, an errand in the
world), 119 and 87 (28 of 32 and 14 of 17 on the short requests above)."""


@dataclass(frozen=True)
class FirstMove:
    route: Route
    probabilities: dict[str, float] | None
    """Each route's share of the route token's likelihood; None when the server sent none."""
    why: str
    """One line for the trace: "first move: change (p=0.91; look_up 0.06)"."""


def move_messages(system_brief: str, request: str, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decision's prompt: the moves, the tools they are judged against, the worked examples,
    then what is shown (`system_brief`, e.g. the folder's file names; may be empty) and the
    request. What changes per turn comes last, so the server's prompt cache keeps the rest."""
    lines = [f"- {f['name']}: {_first_line(f.get('description', ''))}" for f in (t.get("function") or t for t in tools)]
    messages = [{"role": "system", "content": PROMPT.format(tools="\n".join(lines) or "(none)")}]
    for example, route in EXAMPLES:
        messages += [{"role": "user", "content": example},
                     {"role": "assistant", "content": json.dumps({"route": SPELLING[route]})}]
    shown = system_brief.strip()
    messages.append({"role": "user", "content": f"Shown:\n{shown}\n\nRequest: {request}" if shown else request})
    return messages


async def decide_first_move(
    client: ModelClient, request: str, tools: list[dict[str, Any]], context: str = ""
) -> FirstMove | None:
    """The model's first move for `request`; None when the server fails or the reply can't be read."""
    try:
        reply = await client.choose(move_messages(context, request, tools), schema())
    except ModelError:
        return None
    return read_move(reply)


def read_move(reply: ModelReply) -> FirstMove | None:
    """The route the reply's JSON names, with each route's probability when the tokens carry them."""
    try:
        written = json.loads(reply.content).get("route")
    except (ValueError, AttributeError):
        return None
    route = next((r for r, spelled in SPELLING.items() if written in (spelled, r)), None)
    if route is None:  # the bare names are read too: a server may not hold to the grammar
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
    matches = [r for r, spelled in SPELLING.items() if (spelled == rest if whole else spelled.startswith(rest))]
    return matches[0] if len(matches) == 1 else None


FITS_PROMPT = """\
Before a request is turned down as one no tool can do, check the tools an outside server gives. \
The request may be in any language: judge what it asks for, not its wording.
Tools:
{tools}
Reply {{"tool": "<name>"}} with the one tool that does what the request asks, or {{"tool": "none"}} \
when none of them does it."""


async def tool_that_fits(client: ModelClient, request: str, tools: list[dict[str, Any]]) -> str | None:
    """The one tool of `tools` that the model, asked under a grammar, says does what `request`
    asks; None when it says none, or the server fails or its reply can't be read. A first move
    of no_tool is checked this way against an MCP server's tools: the worked example "Get me a
    taxi" is a no_tool for Saturn's own tools, and the 1.5B then turned down a ride with a ride
    tool in hand (BFCL's live cases, stop 52)."""
    functions = [t.get("function") or t for t in tools]
    names = [str(f["name"]) for f in functions]
    if not names:
        return None
    lines = "\n".join(f"- {f['name']}: {_first_line(f.get('description', ''))}" for f in functions)
    schema = {"type": "object", "properties": {"tool": {"type": "string", "enum": [*names, "none"]}},
              "required": ["tool"], "additionalProperties": False}
    messages = [{"role": "system", "content": FITS_PROMPT.format(tools=lines)}, {"role": "user", "content": request}]
    try:
        reply = await client.choose(messages, schema, max_tokens=64)
        chosen = json.loads(reply.content).get("tool")
    except (ModelError, ValueError, AttributeError):
        return None
    return chosen if chosen in names else None


def expects_change(move: FirstMove | None, threshold: float = 0.5) -> bool:
    """The model's first move was to change something or send something, and at least
    `threshold` of the likelihood is on moves that use a tool (all but answer and cannot;
    unknown likelihood: the route). The 1.5B spreads a request in another language over
    change, ask and look_up (stop 52: change 0.34, ask 0.20, answer 0.29 to "re-pot the
    orchid, mark it"); what tells it from a chat or a request no tool can do is how much is
    left on answer and cannot."""
    if move is None or move.route not in CHANGING:
        return False
    if move.probabilities is None:
        return True
    return 1.0 - move.probabilities.get("answer", 0.0) - move.probabilities.get("cannot", 0.0) >= threshold


def _why(route: Route, probabilities: dict[str, float] | None) -> str:
    if probabilities is None:
        return f"first move: {route}"
    others = sorted(((p, r) for r, p in probabilities.items() if r != route and p >= 0.01), reverse=True)
    rest = "".join(f"; {r} {p:.2f}" for p, r in others[:2])
    return f"first move: {route} (p={probabilities[route]:.2f}{rest})"


def _first_line(text: str) -> str:
    return " ".join(text.strip().splitlines()[:1])[:160]
