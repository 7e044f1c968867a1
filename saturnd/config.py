"""`$SATURN_HOME/config.yaml` -> a typed Config with defaults.

A broken file never half-loads: unknown keys, wrong types and out-of-range
values raise ConfigError naming the key and its line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import msgspec
import yaml

from protocol.jsonrpc import ConfigError
from saturnd.gate.judge import JudgeConfig
from saturnd.gate.policy import GateConfig


class _Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class ModelConfig(_Section):
    base_url: str = ""
    """OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1. Empty: run the embedded model."""
    name: str = ""
    api_key_ref: str = ""
    """Where the API key lives, e.g. keyring:saturn/openrouter. Never the key itself."""
    tool_mode: Literal["native", "constrained", "auto", "default"] = "default"
    """native | constrained | auto (native, constrained retry on a format failure).
    default: auto for a configured server; constrained for the embedded models, which fence
    their native calls (measured: 8/12 right vs 6/12 for auto, in a quarter of the time)."""
    think_style: Literal["chat_template_kwargs", "ollama", "soft_switch", "none"] = (
        "chat_template_kwargs"
    )
    """How the per-request thinking switch is sent to this server."""
    timeout_s: Annotated[float, msgspec.Meta(gt=0, le=3600)] = 300.0
    embedded: str = "qwen2.5-coder-1.5b"
    """What the embedded server runs when base_url is empty: a packaged model's id, or the path
    of any GGUF file (relative to SATURN_HOME), served with its own chat template unless it is a
    Qwen2.5 chat model, which gets Saturn's."""
    threads: Annotated[int, msgspec.Meta(ge=0, le=256)] = 0
    """CPU threads for the embedded server; 0: one per core. Fewer leaves cores to other work
    (llama.cpp's threads spin, so two servers that together want more threads than there are
    cores slow each other down several times over)."""
    temperature: Annotated[float, msgspec.Meta(ge=0, le=2)] = 0.0
    max_tokens: Annotated[int, msgspec.Meta(ge=16, le=131072)] = 2048
    """Per model call: a small model that babbles must not run until the context is full."""


class RuntimeConfig(_Section):
    max_iterations: Annotated[int, msgspec.Meta(ge=1, le=100)] = 16
    think: Literal[
        "off", "auto", "on", "act", "adaptive", "first_move", "first_and_errors", "act_no_steer",
        "act_on_changes",
    ] = "auto"
    """off | auto (the act policy) | on; adaptive is the v1 rule; the rest are benchmark policies."""
    think_budget: Annotated[int, msgspec.Meta(ge=64, le=32768)] = 1024
    tool_timeout_s: Annotated[float, msgspec.Meta(ge=1, le=300)] = 30.0
    max_calls_per_pass: Annotated[int, msgspec.Meta(ge=1, le=50)] = 8
    turn_budget_s: Annotated[float, msgspec.Meta(ge=1, le=86400)] = 600.0
    history_tokens: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 2000
    """The session's earlier turns sent with a request, at most (estimated at four characters a
    token): the oldest are left out whole. The current turn is always sent."""
    first_move: bool = True
    """Before the first pass, the model chooses its first move (answer, look up, change, send,
    ask, cannot) in one short constrained call; a change or message makes the first pass call a tool."""

    @property
    def think_policy(self) -> str:
        return "act" if self.think == "auto" else self.think


class MemoryConfig(_Section):
    auto_learn: bool = True


class ToolsConfig(_Section):
    modules: list[str] = []
    """Python modules whose `TOOLS` list is registered beside the built-in tools."""
    disabled: list[str] = []
    """Tool names or globs (`web_fetch`, `send_*`, `files.*`) never offered to the model: a
    small model picks better from fewer tools."""


class WebConfig(_Section):
    allow_private: bool = False
    """web_fetch may reach loopback, link-local and private addresses."""
    allowed_hosts: list[str] = []
    """Non-empty: web_fetch reaches only these hosts and their subdomains."""


class GroundConfig(_Section):
    folder_map: bool = True
    """Show the model a bounded map of the working folder (names, sizes, first lines)."""
    retrieval: bool = True
    """Rank the folder's small text files and the knowledge base against the request and put
    the best few excerpts, fenced, in front of the model."""


class McpServer(_Section):
    command: Annotated[list[str], msgspec.Meta(min_length=1)]
    env: dict[str, str] = {}
    cwd: str = ""
    description_chars: Annotated[int, msgspec.Meta(ge=20, le=4000)] = 80
    """How much of each tool's description the model sees. Short keeps every request small;
    servers whose tools differ only late in a long description need more."""

    def __post_init__(self) -> None:
        if not self.command[0].strip():
            raise ValueError("command: must start with the program to run, e.g. [python, server.py]")


class McpConfig(_Section):
    servers: dict[str, McpServer] = {}


class FrontDoorConfig(_Section):
    enabled: bool = True
    """Serve OpenAI-compatible /v1/chat/completions and /v1/models on a unix socket beside the
    main one (saturnd-openai.sock): a request there runs the whole agent loop, headless."""
    tcp_port: Annotated[int, msgspec.Meta(ge=0, le=65535)] = 0
    """Also serve on 127.0.0.1 at this port (0: not at all), for programs that cannot use a unix
    socket. Requests there need `Authorization: Bearer <token>`."""
    token_ref: str = "keyring:saturn/front_door"
    """Where the TCP port's bearer token lives: `saturn key set front_door` stores it."""
    cwd: str = ""
    """The working folder a front-door request runs in; empty: SATURN_HOME."""


class Config(_Section):
    model: ModelConfig = msgspec.field(default_factory=ModelConfig)
    runtime: RuntimeConfig = msgspec.field(default_factory=RuntimeConfig)
    memory: MemoryConfig = msgspec.field(default_factory=MemoryConfig)
    tools: ToolsConfig = msgspec.field(default_factory=ToolsConfig)
    gate: GateConfig = msgspec.field(default_factory=GateConfig)
    judge: JudgeConfig = msgspec.field(default_factory=JudgeConfig)
    web: WebConfig = msgspec.field(default_factory=WebConfig)
    ground: GroundConfig = msgspec.field(default_factory=GroundConfig)
    mcp: McpConfig = msgspec.field(default_factory=McpConfig)
    front_door: FrontDoorConfig = msgspec.field(default_factory=FrontDoorConfig)


def load_config(path: Path) -> Config:
    if not path.exists():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    return parse_config(text, source=str(path))


def parse_config(text: str, source: str = "config.yaml") -> Config:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{source}:{where}: not valid YAML: {problem}") from exc
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of sections")
    _no_duplicate_keys(root, source)
    _think_booleans_are_levels(data)
    try:
        return msgspec.convert(data, Config)
    except msgspec.ValidationError as exc:
        raise ConfigError(_describe(exc, root, data, source)) from exc


def _no_duplicate_keys(root: yaml.Node | None, source: str) -> None:
    """YAML lets a later key silently replace an earlier one; in a config that hides a typo or
    a forgotten line, so it is an error naming both lines."""
    pending: list[tuple[yaml.Node | None, str]] = [(root, "")]
    while pending:
        node, path = pending.pop()
        if isinstance(node, yaml.SequenceNode):
            pending.extend((item, f"{path}[{i}]") for i, item in enumerate(node.value))
        if not isinstance(node, yaml.MappingNode):
            continue
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            name, line = str(key_node.value), key_node.start_mark.line + 1
            key = f"{path}.{name}".lstrip(".")
            if name in first_line:
                raise ConfigError(
                    f"{source}: line {line}: {key}: duplicated key (first on line"
                    f" {first_line[name]}); keep one"
                )
            first_line[name] = line
            pending.append((value_node, key))


def _think_booleans_are_levels(data: dict[str, Any]) -> None:
    # YAML 1.1 reads a bare `on`/`off` as a boolean; the user meant the level (seed 001).
    runtime = data.get("runtime")
    if isinstance(runtime, dict) and isinstance(runtime.get("think"), bool):
        runtime["think"] = "on" if runtime["think"] else "off"


_PATH = re.compile(r"at `\$((?:\.[^.`\[]+|\[(?:\d+|\.\.\.)\])*)`")
_STEP = re.compile(r"\.([^.`\[]+)|\[(\d+|\.\.\.)\]")
_SOME_KEY = "..."
"""msgspec's path step for a key of a dict (mcp.servers.<name>): it does not say which."""


def _describe(
    exc: msgspec.ValidationError, root: yaml.Node | None, data: dict[str, Any], source: str
) -> str:
    message = str(exc)
    found = _PATH.search(message)
    keys: list[str | int] = []
    for name, index in _STEP.findall(found.group(1) if found else ""):
        if index == _SOME_KEY:
            keys.append(_failing_key(data, keys) or _SOME_KEY)
        else:
            keys.append(int(index) if index else name)
    reason = _PATH.sub("", message).strip(" -")
    unknown = re.match(r"Object contains unknown field `(.+)`", reason)
    if unknown:
        keys.append(unknown.group(1))
        reason = "unknown key"
        if fields := _fields(_type_at(keys[:-1])):
            reason = f"unknown key; expected one of: {', '.join(fields)}"
    own_check = re.match(r"(\w+): (.*)", reason, re.DOTALL)  # a section's __post_init__
    if own_check and own_check.group(1) in _fields(_type_at(keys)):
        keys.append(own_check.group(1))
        reason = own_check.group(2)
    choices = _choices(keys)
    if reason.startswith("Invalid enum value") and choices:
        reason = f"{reason}; expected one of: {', '.join(choices)}"
    key = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
    key = key or "(top level)"
    line = _line_of(root, keys)
    where = f" line {line}" if line else ""
    return f"{source}:{where}: {key}: {reason}"


def _type_at(keys: list[str | int]) -> Any:
    """The declared type of the value at this path in Config, or None."""
    owner: Any = Config
    for key in keys:
        if get_origin(owner) is list and isinstance(key, int):
            owner = get_args(owner)[0]
        elif get_origin(owner) is dict and isinstance(key, str):
            owner = get_args(owner)[1]
        elif isinstance(owner, type) and issubclass(owner, msgspec.Struct) and isinstance(key, str):
            owner = get_type_hints(owner).get(key)
        else:
            return None
    return owner


def _failing_key(data: Any, keys: list[str | int]) -> str | None:
    """Which key of the mapping at this path holds the value that does not convert."""
    mapping, value_type = data, _type_at(keys)
    for key in keys:
        mapping = mapping.get(key) if isinstance(mapping, dict) else None
    if not isinstance(mapping, dict) or get_origin(value_type) is not dict:
        return None
    for name, value in mapping.items():
        try:
            msgspec.convert(value, get_args(value_type)[1])
        except msgspec.ValidationError:
            return str(name)
    return None


def _choices(keys: list[str | int]) -> tuple[str, ...]:
    """The allowed values of the Literal-typed key at this path, if it is one."""
    owner = _type_at(keys)
    return tuple(get_args(owner)) if get_origin(owner) is Literal else ()


def _fields(owner: Any) -> tuple[str, ...]:
    """The keys a section takes, if the path names a section."""
    if isinstance(owner, type) and issubclass(owner, msgspec.Struct):
        return owner.__struct_fields__
    return ()


def _line_of(node: yaml.Node | None, keys: list[str | int]) -> int | None:
    line = None
    for key in keys:
        if isinstance(key, int):
            if not isinstance(node, yaml.SequenceNode) or key >= len(node.value):
                break
            node = node.value[key]
            line = node.start_mark.line + 1
            continue
        if not isinstance(node, yaml.MappingNode):
            break
        for key_node, value_node in node.value:
            if key_node.value == key:
                line = key_node.start_mark.line + 1
                node = value_node
                break
        else:
            break
    return line
