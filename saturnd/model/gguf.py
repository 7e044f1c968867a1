"""A user's own GGUF file: read the few header fields Saturn needs to serve it.

GGUF (llama.cpp's model format) opens with a key/value header: the model's
architecture, its name, its tokenizer and, usually, its chat template. Saturn
reads those before starting the server, so a missing or broken file fails with
one line naming the path instead of a crashed child, and so the chat template
can be chosen (Saturn's own for a Qwen2.5 chat model, the file's for the rest).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

MAGIC = b"GGUF"
_WANTED = {"general.architecture", "general.name", "tokenizer.chat_template"}
_STRING = 8
_ARRAY = 9
_FIXED_SIZE = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
"""Byte size of each fixed-size GGUF value type (u8 i8 u16 i16 u32 i32 f32 bool u64 i64 f64)."""


class GgufError(Exception):
    """The file is missing, unreadable, or not a GGUF model; the message names its path."""


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    architecture: str
    """llama.cpp's architecture name: qwen2 (Qwen2 and Qwen2.5), qwen3, llama, ..."""
    name: str
    """``general.name``, or the file name when the header has none."""
    chat_template: str
    """The Jinja template the file carries; empty when it has none."""

    @property
    def is_qwen25_chat(self) -> bool:
        """A Qwen2.5 chat model, the family Saturn's own template is written for.

        Qwen2 and QwQ share the architecture name; only Qwen2.5's template has
        ChatML turns with <tool_call> and no <think> block.
        """
        template = self.chat_template
        return (
            self.architecture == "qwen2"
            and "<|im_start|>" in template
            and "<tool_call>" in template
            and "<think>" not in template
        )


def read_gguf(path: Path) -> GgufInfo:
    """The header fields of the GGUF at ``path``; raises GgufError naming the path."""
    try:
        with path.open("rb") as f:
            fields = _read_header(f, path.stat().st_size)
    except FileNotFoundError:
        raise GgufError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise GgufError(f"{path}: is a folder, not a GGUF file") from None
    except OSError as exc:
        raise GgufError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (struct.error, UnicodeDecodeError, ValueError) as exc:
        raise GgufError(f"{path}: not a readable GGUF file ({exc})") from None
    return GgufInfo(
        path=path,
        architecture=str(fields.get("general.architecture", "")),
        name=str(fields.get("general.name") or path.name),
        chat_template=str(fields.get("tokenizer.chat_template", "")),
    )


def _read_header(f: BinaryIO, size: int) -> dict[str, object]:
    magic = f.read(4)
    if magic != MAGIC:
        raise ValueError(f"it starts with {magic!r}, not {MAGIC!r}")
    (version,) = struct.unpack("<I", _exactly(f, 4))
    if version < 2:
        raise ValueError(f"GGUF version {version} is too old for llama.cpp")
    _tensors, kv_count = struct.unpack("<QQ", _exactly(f, 16))
    fields: dict[str, object] = {}
    for _ in range(kv_count):
        key = _string(f, size)
        (kind,) = struct.unpack("<I", _exactly(f, 4))
        if key in _WANTED and kind == _STRING:
            fields[key] = _string(f, size)
        else:
            _skip_value(f, kind, size)
        if len(fields) == len(_WANTED):
            break
    return fields


def _exactly(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise ValueError("the header ends early")
    return data


def _string(f: BinaryIO, size: int) -> str:
    (length,) = struct.unpack("<Q", _exactly(f, 8))
    if length > size:
        raise ValueError("a header string is longer than the file")
    return _exactly(f, length).decode("utf-8")


def _skip_value(f: BinaryIO, kind: int, size: int) -> None:
    if kind in _FIXED_SIZE:
        _exactly(f, _FIXED_SIZE[kind])
    elif kind == _STRING:
        _skip_string(f, size)
    elif kind == _ARRAY:
        item_kind, count = struct.unpack("<IQ", _exactly(f, 12))
        if item_kind in _FIXED_SIZE:
            f.seek(_FIXED_SIZE[item_kind] * count, 1)
        else:
            for _ in range(count):
                _skip_value(f, item_kind, size)
    else:
        raise ValueError(f"unknown value type {kind}")


def _skip_string(f: BinaryIO, size: int) -> None:
    (length,) = struct.unpack("<Q", _exactly(f, 8))
    if length > size:
        raise ValueError("a header string is longer than the file")
    f.seek(length, 1)
