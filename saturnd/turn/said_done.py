"""Whether an answer tells the person something was done: the model's own reading, under a grammar.

The nothing-changed check knows what ran; what the answer says it did is a question of meaning
in whatever language the answer is in, so the model is asked, in one short constrained call,
the way the first move is: no word list reads the answer. Asked only when no changing call was
tried and the first move was to ask or that no tool can do it (checks.may_claim_undone).
"""

from __future__ import annotations

import json
from typing import Any

from saturnd.model.client import ModelClient, ModelError

PROMPT = """\
You read a reply an assistant gave and decide one thing: does it tell the person that an action \
has been carried out, such as something added, changed, marked, removed, saved, sent, ordered, \
booked, paid, or switched on or off? A reply that only gives information, asks a question, \
suggests something, or says it cannot do it has carried nothing out. The reply may be in any \
language. Reply {"carried_out": "yes"} or {"carried_out": "no"}."""
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("I've added butter to your shopping list.", "yes"),
    ("Your last meter reading was 1,350 kWh on 1 December.", "no"),
    ("Done.", "yes"),
    ("I can't book a table, but you could call the restaurant.", "no"),
    ("The message has been sent to Anna.", "yes"),
    ("Which of the two green teas do you mean?", "no"),
)
"""One worked reading each way, as earlier turns; in English: the replies read need not be."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"carried_out": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["carried_out"],
    "additionalProperties": False,
}


def said_done_messages(answer: str) -> list[dict[str, Any]]:
    messages = [{"role": "system", "content": PROMPT}]
    for reply, verdict in EXAMPLES:
        messages += [{"role": "user", "content": reply},
                     {"role": "assistant", "content": json.dumps({"carried_out": verdict})}]
    return [*messages, {"role": "user", "content": answer}]


async def says_done(client: ModelClient, answer: str) -> bool:
    """True when the model reads `answer` as telling of an action carried out; False when it
    does not, or the server fails or its reply can't be read (the answer then stands)."""
    try:
        reply = await client.choose(said_done_messages(answer), SCHEMA)
        return bool(json.loads(reply.content).get("carried_out") == "yes")
    except (ModelError, ValueError, AttributeError):
        return False
