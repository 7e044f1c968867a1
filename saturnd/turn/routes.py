"""What the first move makes the first pass do: which tools it must call among (route first,
arguments second). Decided from the move, the registry and what the ground showed, never from
the request's words (an address, a number or a web address in it is read as the gate reads one).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from saturnd.gate.provenance import EMAIL, PHONE
from saturnd.memory.remember import REMEMBER
from saturnd.tools.harness import ASK_USER as ASK_USER_TOOL
from saturnd.tools.registry import Registry
from saturnd.turn.first_move import FirstMove, expects_change, no_tool_fits

ROUTE_RISKS = {
    "change": frozenset({"write", "exec"}), "send": frozenset({"messaging"}), "look_up": frozenset({"egress"}),
    "answer": frozenset({"egress"}), "ask": frozenset(), "cannot": frozenset(),
}


def gives_address(text: str) -> bool:
    return EMAIL.search(text) is not None or PHONE.search(text) is not None


def names_page(text: str) -> bool:
    """The request names a web page: what it holds is in nothing the ground shows."""
    return any(urlsplit(word.strip("<>\"'()")).scheme in ("http", "https") for word in text.split())


def route_tools(
    move: FirstMove, registry: Registry, tables_shown: bool = False, address_given: bool = True,
    files_shown: bool = False, page_named: bool = False,
) -> tuple[str, ...]:
    """The model's first move makes its first pass call a tool, one that looks, asks, or does
    that kind of thing (route first, arguments second): for a change or a message; for a
    question to the person (ask_user, or a read that makes it unnecessary); and for a look-up
    or an answer when the ground showed tables, of which it shows only the first rows (a latest
    entry, a total or a difference is the query tool's, not a guess from three rows). A message
    whose request gives no address or number looks its recipient up first (it may ask on a later
    pass; with no files in view, an ask's first step may be the question): the gate takes a
    recipient only from the person's words or a tool's result, never from the files the ground
    shows (stop 51: 3 of 4 messages were refused for an address copied from there)."""
    # the 1.5B takes "how many … have I" for arithmetic it can do itself as often as for a
    # look-up (stop 51's first run: 5 of 8 such questions chose answer_now), so with the
    # person's tables in view either route reads them first
    # and an unsure "cannot" (stop 52's first run: 0.34 for a sum over a shown CSV) reads them too
    look_up = tables_shown and (move.route in ("look_up", "answer") or move.route == "cannot" and not no_tool_fits(move))
    # a page the request names, whatever the move, is fetched first (stop 54: "follow the links
    # from http://…/start.html" was a no_tool, at 0.38–0.73, for 6 of 7 such trails, and the
    # seventh was answered with a made-up phone number)
    look_up = look_up or page_named
    if not (expects_change(move) or look_up or move.route == "ask"):
        return ()
    # an MCP server's tools ("external") may read, change or send: any route may need them (the
    # BFCL report slice of stop 52 forced ask_user alone where the case's own tool was the answer)
    risks = ROUTE_RISKS[move.route] | {"read_only", "external"} | ({"egress"} if page_named else set())
    if move.route == "send" and not address_given:
        return look_up_tools(registry)
    # ask_user is for what no tool can supply (seed 000): with the person's files in view, the
    # first step reads them (stop 52: a contact's address and a meeting place that the files
    # held were asked of the person instead)
    asks = move.route == "ask" and not files_shown
    return tuple(
        t.name for t in registry
        if t.risk in risks and t.name not in NOT_A_FIRST_STEP or t.name == ASK_USER_TOOL.name and asks
        or t.name == REMEMBER and move.route == "change"
    )


def sending_steps(move: FirstMove, registry: Registry, address_given: bool) -> list[tuple[str, ...]]:
    """A message whose recipient the first step looked up: the pass after it reads more or sends
    (or asks the person what the look-ups did not give), and the pass after that sends or asks
    (route first, arguments second). With the send alone forced next, the 1.5B sent what the first
    read gave: the treasurer's address and no figure (stop 60's first run); with nothing forced, it
    read the contact and then answered, or wrote the message into a file (stop 52: 0 of 3 sent)."""
    if move.route != "send" or address_given:
        return []
    return [look_up_tools(registry) + send_or_ask(registry), send_or_ask(registry)]


def look_up_tools(registry: Registry) -> tuple[str, ...]:
    """The tools that read the person's things (an MCP server's among them)."""
    return tuple(t.name for t in registry if t.risk in ("read_only", "external") and t.name not in NOT_A_FIRST_STEP)


def send_or_ask(registry: Registry) -> tuple[str, ...]:
    return tuple(t.name for t in registry if t.risk in ("messaging", "external") or t.name == ASK_USER_TOOL.name)


NOT_A_FIRST_STEP = frozenset({"calculate", "plan", REMEMBER, ASK_USER_TOOL.name})
"""Tools that neither read nor change the person's things: a forced first pass that takes one
(the 1.5B wrote sum(table.column) to calculate, and 'did' a change with plan) has done nothing."""
