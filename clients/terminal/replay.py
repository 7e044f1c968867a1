"""`saturn replay TURN`: a past turn drawn from its stored events, as it looked live."""

from __future__ import annotations

import sys

from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText

from clients.cli.daemon_control import StartFailed, connect_or_start
from clients.terminal.app import STYLE
from clients.terminal.render import replay_lines
from protocol.jsonrpc import ConnectionClosed, RpcError
from protocol.methods import TurnSubscribeParams


def replay(turn_id: str) -> int:
    try:
        with connect_or_start() as client:
            client.call("turn/subscribe", TurnSubscribeParams(turn_id=turn_id))
            events = list(client.turn_events(turn_id))  # a running turn is followed to its end
    except (RpcError, StartFailed, ConnectionClosed) as exc:
        print(f"saturn: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    fragments = [(f"class:{style}", text + "\n") for style, text in replay_lines(events)]
    print_formatted_text(FormattedText(fragments), style=STYLE, end="")
    return 0
