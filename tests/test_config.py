"""config.yaml -> Config: defaults, and errors that name the key and line."""

from __future__ import annotations

import pytest

from protocol.jsonrpc import ConfigError
from saturnd.config import Config, load_config, parse_config


def test_defaults():
    config = parse_config("")
    assert config == Config()
    runtime = config.runtime
    assert (runtime.max_iterations, runtime.think, runtime.think_budget, runtime.tool_timeout_s,
            runtime.max_calls_per_pass, runtime.turn_budget_s) == (16, "auto", 1024, 30, 8, 600)
    assert config.memory.auto_learn is True
    assert runtime.think_policy == "act"


def test_a_missing_file_means_defaults(tmp_path):
    assert load_config(tmp_path / "config.yaml") == Config()


@pytest.mark.parametrize(("text", "policy"), [
    ("runtime:\n  think: on\n", "on"), ("runtime:\n  think: off\n", "off"),
    ("runtime:\n  think: yes\n", "on"), ("runtime:\n  think: adaptive\n", "adaptive"),
    ("runtime:\n  think: auto\n", "act"), ("runtime:\n  think: 'on'\n", "on"),
])
def test_think_levels_are_not_misread(text, policy):
    assert parse_config(text).runtime.think_policy == policy


def test_a_full_file():
    config = parse_config(
        "model:\n  base_url: http://127.0.0.1:8080/v1\n  name: qwen\n  api_key_ref: keyring:saturn/local\n"
        "runtime:\n  max_iterations: 4\n  max_calls_per_pass: 1\n  tool_timeout_s: 5\n"
        "memory:\n  auto_learn: false\n"
    )
    assert config.model.base_url == "http://127.0.0.1:8080/v1"
    assert (config.runtime.max_iterations, config.runtime.max_calls_per_pass) == (4, 1)
    assert config.memory.auto_learn is False


@pytest.mark.parametrize(("text", "message"), [
    ("model:\n  bogus: 1\n", "line 2: model.bogus: unknown key"),
    ("colour: blue\n", "line 1: colour: unknown key"),
    ("runtime:\n  max_iterations: many\n", "line 2: runtime.max_iterations: Expected `int`, got `str`"),
    ("runtime:\n  max_calls_per_pass: 0\n", "line 2: runtime.max_calls_per_pass: Expected `int` >= 1"),
    ("runtime:\n  max_calls_per_pass: 51\n", "line 2: runtime.max_calls_per_pass: Expected `int` <= 50"),
    ("runtime:\n  tool_timeout_s: 301\n", "line 2: runtime.tool_timeout_s: Expected `float` <= 300"),
    ("runtime:\n\n  think: maybe\n", "line 3: runtime.think: Invalid enum value 'maybe'; expected one of: off, auto, on, act, adaptive, first_move, first_and_errors, act_no_steer, act_on_changes"),
    ("memory:\n  auto_learn: sometimes\n", "line 2: memory.auto_learn: Expected `bool`, got `str`"),
    ("model: [1, 2]\n", "line 1: model: Expected `object`, got `array`"),
    ("model:\n  base_url: [\n", "line 3: not valid YAML"),
    ("- a\n- b\n", "the top level must be a mapping"),
    ("gate: {defaults: {wrte: allow}}\n", "line 1: gate.defaults.wrte: unknown key; expected one of:"
     " read_only, write, exec, egress, messaging, external"),
    ("gate:\n  defaults:\n    write: maybe\n", "line 3: gate.defaults.write: Invalid enum value"
     " 'maybe'; expected one of: allow, ask, deny"),
    ("mcp:\n  servers:\n    files: {command: [python]}\n    mail:\n      command: []\n",
     "line 5: mcp.servers.mail.command: Expected `array` of length >= 1"),
    ("mcp:\n  servers:\n    mail:\n      command: ['']\n",
     "line 4: mcp.servers.mail.command: must start with the program to run"),
    ("model:\n  name: a\n  base_url: http://x/v1\n  name: b\n",
     "line 4: model.name: duplicated key (first on line 2)"),
    ("gate:\n  rules:\n    - {tool: a, decision: allow, args: {path: x, path: y}}\n",
     "line 3: gate.rules[0].args.path: duplicated key (first on line 3)"),
    ("judge:\n  rules:\n    - surface: context\n      match: 'sk-['\n      action: redact\n",
     "line 4: judge.rules[0].match: not a valid regex: unterminated character set"),
])
def test_errors_name_key_and_line(text, message):
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="config.yaml")
    assert message in caught.value.message
    assert caught.value.message.startswith("config.yaml:")


def test_gate_defaults_given_in_part_keep_the_rest():
    defaults = parse_config("gate:\n  defaults: {write: allow}\n").gate.defaults
    assert (defaults.write, defaults.read_only, defaults.exec) == ("allow", "allow", "ask")
