"""OpenAI chat-completions shapes: the request the front door reads and the replies it writes.

Pure functions, no HTTP: the server (server.py) moves them on and off the wire.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from protocol.events import Receipt
from protocol.jsonrpc import InvalidParams

MODEL_ID = "saturn"
"""What /v1/models lists: the agent loop over whichever model saturnd is configured with."""
CALLER_INSTRUCTIONS = "(Instructions from the program that sent this request) "
TOOL_RESULT = "(A result of the calling program's own tool) "


@dataclass(frozen=True)
class CompletionRequest:
    text: str
    """The request: the last message, which must be the user's."""
    history: list[dict[str, Any]]
    """What came before it, as plain user and assistant messages."""
    stream: bool
    model: str


def read_request(body: Any) -> CompletionRequest:
    """The caller's own tools and tool calls are not Saturn's: the loop offers its own, so what
    the caller's tools returned reaches the model as text; its system messages become user
    messages that say whose they are (any chat template takes those anywhere)."""
    if not isinstance(body, dict):
        raise InvalidParams("the body must be a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
        raise InvalidParams("messages must be a non-empty list of objects")
    *earlier, last = messages
    if last.get("role") != "user" or not content_text(last.get("content")).strip():
        raise InvalidParams("the last message must be the user's, with text")
    history = [converted for message in earlier if (converted := _plain(message)) is not None]
    return CompletionRequest(
        text=content_text(last.get("content")),
        history=history,
        stream=bool(body.get("stream")),
        model=str(body.get("model") or MODEL_ID),
    )


def content_text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", "")) for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def _plain(message: dict[str, Any]) -> dict[str, Any] | None:
    text = content_text(message.get("content"))
    role = message.get("role")
    if not text:
        return None
    if role in ("system", "developer"):
        return {"role": "user", "content": CALLER_INSTRUCTIONS + text}
    if role == "tool":
        return {"role": "user", "content": TOOL_RESULT + text}
    if role in ("user", "assistant"):
        return {"role": role, "content": text}
    return None


def usage(receipt: Receipt) -> dict[str, Any]:
    return {
        "prompt_tokens": receipt.tokens_in,
        "completion_tokens": receipt.tokens_out,
        "total_tokens": receipt.tokens_in + receipt.tokens_out,
        "prompt_tokens_details": {"cached_tokens": receipt.tokens_cached},
    }


@dataclass(frozen=True)
class Reply:
    """One completion's identity: every chunk of a stream carries the same."""

    completion_id: str
    model: str
    created: int

    @classmethod
    def for_turn(cls, turn_id: str, model: str) -> Reply:
        return cls(f"chatcmpl-{turn_id}", model, int(time.time()))

    def completion(self, answer: str, receipt: Receipt, saturn: dict[str, Any]) -> dict[str, Any]:
        """`saturn`: the turn's ids, status and note, beside the standard fields."""
        return {
            "id": self.completion_id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": answer},
                "finish_reason": "stop",
            }],
            "usage": usage(receipt),
            "saturn": saturn,
        }

    def chunk(
        self, delta: dict[str, Any], finish_reason: str | None = None,
        receipt: Receipt | None = None, saturn: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The last chunk carries the finish reason, the usage and the turn's ids and note."""
        chunk: dict[str, Any] = {
            "id": self.completion_id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        }
        if receipt is not None:
            chunk["usage"] = usage(receipt)
        if saturn is not None:
            chunk["saturn"] = saturn
        return chunk


def models_list(created: int) -> dict[str, Any]:
    return {
        "object": "list",
        "data": [{"id": MODEL_ID, "object": "model", "created": created, "owned_by": "saturn"}],
    }


def error_body(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}
