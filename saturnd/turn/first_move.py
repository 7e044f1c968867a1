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
    settled: bool = False
    """A question of the second look made the route firm (see second_look)."""


@dataclass(frozen=True)
class Question:
    """A two-way question about the request, asked alone under a grammar with worked answers,
    read as the likelihood of `meaning`. Asked as a follow-up in the move's own conversation,
    the same questions told the kinds of errand apart far less (stop 57's probe: a wanted change
    0.22-0.54 against 0.19-0.39 for questions, where alone they gave 0.52-1.0 against 0.13-0.88)."""

    system: str
    key: str
    options: tuple[str, str]
    meaning: str
    examples: tuple[tuple[str, str], ...]

    def messages(self, request: str) -> list[dict[str, Any]]:
        messages = [{"role": "system", "content": self.system}]
        for example, answer in self.examples:
            messages += [{"role": "user", "content": example},
                         {"role": "assistant", "content": json.dumps({self.key: answer})}]
        return [*messages, {"role": "user", "content": request}]

    def schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {self.key: {"type": "string", "enum": list(self.options)}},
                "required": [self.key], "additionalProperties": False}


WANTS = Question(
    """Say what a request wants. The request may be in any language.
- know: an answer: a fact, a figure, a date, what a file or list says; nothing is to be changed or sent.
- change: something to be done: a file or list changed (add, remove, tick off, note down, correct) or a \
message sent, or anything done in the world.
Reply {"want": "know"} or {"want": "change"}.""",
    "want", ("know", "change"), "change",
    (("How many km did I run this month?", "know"), ("Note that I ran 5 km today.", "change"),
     ("Streich die Milch von der Einkaufsliste.", "change"), ("¿Cuándo es la próxima cita del dentista?", "know"),
     ("Envoie un SMS à Paul: j'arrive.", "change"), ("Welke boeken staan op mijn verlanglijst?", "know")),
)
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
    messages = move_messages(context, request, tools)
    try:
        reply = await client.choose(messages, schema())
    except ModelError:
        return None
    move = read_move(reply)
    if move is None or move.probabilities is None:
        return move
    return await second_look(client, request, move)


SURE = 0.8
"""A look-up or an answer this likely is not asked what it wants (the changes the 1.5B took for
look-ups in stop 57's first run had 0.46-0.54)."""
WANTS_A_CHANGE = 0.9
"""A look-up or an answer whose request, asked what it wants, wants a change this surely is one.
Stop 57's probe: none of 39 questions about the person's data reached 0.9 (the most 0.88), and
the changes and messages the move took for look-ups mostly did (0.95-0.99)."""


async def second_look(client: ModelClient, request: str, move: FirstMove) -> FirstMove:
    """The move, settled by a two-way question where the six-way choice is the 1.5B's weak spot: a
    change asked in Swedish, Dutch or Serbian read as a look-up (stop 57's first run). Asked only
    where the move leaves room for it: it is a second prompt in the server's decision slot, which
    the next turn's move then evaluates afresh. A second question, who must act (an assistant at
    a computer or a person away from it), went in stop 62: on the 12 cannot errands held out in
    stops 60-62 it settled none."""
    p = move.probabilities or {}
    if move.route in ("look_up", "answer") and p[move.route] < SURE:
        change = await likelihood(client, request, WANTS)
        if change is not None and change >= WANTS_A_CHANGE:
            route: Route = "send" if p.get("send", 0.0) > p.get("change", 0.0) else "change"
            return FirstMove(route, p, f"{move.why}; wants a change {change:.2f}: {route}", settled=True)
    return move


async def likelihood(client: ModelClient, request: str, question: Question) -> float | None:
    try:
        reply = await client.choose(question.messages(request), question.schema())
    except ModelError:
        return None
    shares = value_probabilities(reply, question.key, question.options)
    return None if shares is None else shares[question.meaning]


def no_tool_fits(move: FirstMove, threshold: float = 0.5) -> bool:
    """The model judged that none of its tools can do what is asked (buy, book, phone, work a
    device): settled so, or with at least `threshold` of the likelihood on no_tool."""
    if move.route != "cannot":
        return False
    return move.settled or move.probabilities is None or move.probabilities.get("cannot", 0.0) >= threshold


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
    """Each route's share, read from the route's spellings."""
    shares = value_probabilities(reply, "route", tuple(SPELLING.values()))
    if shares is None:
        return None
    return {route: shares[SPELLING[route]] for route in ROUTES}


def value_probabilities(reply: ModelReply, key: str, values: tuple[str, ...]) -> dict[str, float] | None:
    """At the token where `key`'s value begins, the alternatives mapped to `values` by prefix
    (the part of the token before the value must match), their mass normalised over the values.
    llama.cpp's alternatives are the model's before the grammar, so the written token is added
    when it is not among them."""
    tokens = reply.logprobs
    if not tokens:
        return None
    text = "".join(t.token for t in tokens)
    opening = re.search(rf'"{re.escape(key)}"\s*:\s*"', text)
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
    mass = dict.fromkeys(values, 0.0)
    seen = {alternative for alternative, _ in token.top}
    chosen = () if token.token in seen else ((token.token, token.logprob),)
    for alternative, logprob in (*token.top, *chosen):
        if (value := _value_of(alternative, before, values)) is not None:
            mass[value] += math.exp(logprob)
    total = sum(mass.values())
    if total <= 0:
        return None
    return {value: round(p / total, 4) for value, p in mass.items()}


def _value_of(token: str, before: str, values: tuple[str, ...]) -> str | None:
    if not token.startswith(before):
        return None
    rest = token[len(before):]
    whole = '"' in rest
    rest = rest.split('"')[0]
    if not rest:
        return None
    matches = [v for v in values if (v == rest if whole else v.startswith(rest))]
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
    if move.probabilities is None or move.settled:
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
