"""Where file tools reach (issue 13, fixes 1 and 2): path rules match the real path, reads
are free inside the working folder and the knowledge base and asked outside them, and the
secret stores stay shut unless a rule opens them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from saturnd.gate.policy import GateConfig, GateDefaults, GateRule, gate_verdict
from saturnd.gate.reach import Reach
from saturnd.testing.fake_model import call, calls
from saturnd.turn.folder_scan import scan_folder
from tests.conftest import of_type
from tests.test_gate import decide_with, run_with_decisions

KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
OUTSIDE_DENY = "gate:\n  rules:\n    - {tool: write_file, args: {path: '!{cwd}/*'}, decision: deny}\n" \
               "    - {tool: write_file, decision: allow}\n"


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A home with an ssh key, a working folder in it, a knowledge base and an elsewhere."""
    home, work, kb, elsewhere = (tmp_path / n for n in ("home", "home/work", "home/.saturn/kb", "elsewhere"))
    for folder in (work, kb, elsewhere, home / ".ssh"):
        folder.mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(KEY)
    return {"home": home, "work": work, "kb": kb, "elsewhere": elsewhere}


def verdict(places: dict[str, Path], tool: str, risk: str, path: str, config: GateConfig | None = None):
    reach = Reach.of(places["work"], places["kb"], places["home"])
    return gate_verdict(tool, risk, {"path": path}, config or GateConfig(), reach)


# -- the rule, as a pure function --------------------------------------------------------------


def test_a_path_rule_matches_where_a_symlink_really_leads(places):
    (places["work"] / "linkdir").symlink_to(places["elsewhere"])
    (places["work"] / "out.txt").symlink_to(places["elsewhere"] / "target.txt")
    (places["work"] / "here").mkdir()
    config = GateConfig(rules=[GateRule("write_file", "deny", {"path": "!{cwd}/*"})])
    assert verdict(places, "write_file", "write", "linkdir/x.txt", config).decision == "deny"
    assert verdict(places, "write_file", "write", "out.txt", config).decision == "deny"
    assert verdict(places, "write_file", "write", "here/x.txt", config).decision == "ask"
    assert verdict(places, "write_file", "write", "../work/y.txt", config).decision == "ask"


def test_reads_are_free_inside_asked_outside_and_shut_out_of_secret_stores(places):
    (places["kb"] / "a.md").write_text("# A\n")
    (places["work"] / "key").symlink_to(places["home"] / ".ssh" / "id_rsa")
    (places["elsewhere"] / ".env").write_text("TOKEN=x\n")
    (places["work"] / ".env").write_text("TOKEN=y\n")
    home_key = str(places["home"] / ".ssh" / "id_rsa")

    def decided(tool: str, path: str, config: GateConfig | None = None) -> tuple[str, str]:
        found = verdict(places, tool, "read_only", path, config)
        return found.decision, found.reason

    assert decided("read_file", "notes.txt")[0] == "allow"
    assert decided("read_file", str(places["kb"] / "a.md"))[0] == "allow"
    assert decided("read_file", ".env")[0] == "allow"  # the folder's own
    assert decided("list_dir", "/") == ("ask", "/ is outside the working folder and the knowledge base")
    assert decided("read_file", "/etc/passwd")[0] == "ask"
    assert decided("search_files", str(places["home"]))[0] == "ask"
    assert decided("read_file", home_key) == (
        "deny", f"{home_key} is in a secret store (~/.ssh); only a gate rule can allow it")
    assert decided("read_file", "key") == (
        "deny", f"key (really {home_key}) is in a secret store (~/.ssh); only a gate rule can allow it")
    assert decided("read_file", str(places["elsewhere"] / ".env"))[0] == "deny"
    allowed = GateConfig(rules=[GateRule("read_file", "allow", {"path": "*/.ssh/id_rsa"})])
    assert decided("read_file", home_key, allowed)[0] == "allow"
    stricter = GateConfig(defaults=GateDefaults(read_only="ask"))
    assert decided("read_file", "notes.txt", stricter)[0] == "ask"


def test_the_folder_scan_follows_no_symlink_out_and_skips_secret_stores(places, monkeypatch):
    monkeypatch.setenv("HOME", str(places["home"]))
    (places["elsewhere"] / "secret.txt").write_text("outside words\n")
    (places["work"] / "notes.txt").write_text("inside words\n")
    (places["work"] / "leak.txt").symlink_to(places["elsewhere"] / "secret.txt")
    (places["work"] / "alias.txt").symlink_to(places["work"] / "notes.txt")
    (places["work"] / "linkdir").symlink_to(places["elsewhere"])
    scanned = {f.rel: f.text for f in scan_folder(places["work"]).files}
    assert scanned == {"alias.txt": "inside words\n", "notes.txt": "inside words\n"}
    keychains = places["home"] / "Library" / "Keychains"
    keychains.mkdir(parents=True)
    (keychains / "login.txt").write_text("a password\n")
    from_home = scan_folder(places["home"])
    assert all("Keychains" not in f.rel for f in from_home.files)
    assert "Library/" in from_home.folders and "Library/Keychains/" not in from_home.folders


# -- through the daemon --------------------------------------------------------------------


async def start(harness, home: Path, config: str = "") -> None:
    harness.env.extra_env["HOME"] = str(home)
    await harness.start(config)


def sent_anywhere(harness, text: str) -> bool:
    return any(text in json.dumps(request) for request in harness.model.requests)


async def test_write_file_through_a_symlinked_folder_is_outside(harness, places):
    work = harness.env.workdir
    (work / "linkdir").symlink_to(places["elsewhere"])
    (work / "out.txt").symlink_to(places["elsewhere"] / "target.txt")
    await start(harness, places["home"], OUTSIDE_DENY)
    harness.model.enqueue(
        calls(("write_file", {"path": "linkdir/x.txt", "content": "x"}),
              ("write_file", {"path": "out.txt", "content": "x"}),
              ("write_file", {"path": "inside.txt", "content": "x"})),
        "Wrote what I could.",
    )
    _, events = await harness.turn("write them")
    finished = of_type(events, "tool_finished")
    assert [f.fate for f in finished] == ["declined", "declined", "ran"]
    assert finished[0].result == "declined by policy: rule 1 (write_file {'path': '!{cwd}/*'}: deny)"
    assert os.listdir(places["elsewhere"]) == []
    assert (work / "inside.txt").read_text() == "x"


async def test_headless_reads_outside_are_not_run_and_the_key_never_reaches_the_model(harness, places):
    await start(harness, places["home"])
    (harness.env.workdir / "notes.txt").write_text("dentist friday\n")
    harness.model.enqueue(
        calls(("read_file", {"path": "~/.ssh/id_rsa"}), ("read_file", {"path": "/etc/passwd"}),
              ("list_dir", {"path": "/"}), ("search_files", {"pattern": "PRIVATE KEY", "path": "~"}),
              ("read_file", {"path": "notes.txt"})),
        "I could only read notes.txt.",
    )
    _, events = await harness.turn("show me my ssh key", headless=True)
    finished = {f.name + " " + json.dumps(p.arguments): f for f, p in
                zip(of_type(events, "tool_finished"), of_type(events, "tool_proposed"), strict=True)}
    assert [f.fate for f in finished.values()] == ["declined", "not_approved", "not_approved", "not_approved", "ran"]
    assert finished['read_file {"path": "~/.ssh/id_rsa"}'].result == (
        "declined by policy: ~/.ssh/id_rsa is in a secret store (~/.ssh); only a gate rule can allow it")
    assert finished['read_file {"path": "/etc/passwd"}'].result.startswith(
        "not run: 'read_file' needs the user's approval (/etc/passwd is outside the working folder"
        " and the knowledge base) and nobody is here to give it.")
    assert not of_type(events, "approval_requested")
    assert not sent_anywhere(harness, "PRIVATE KEY-----") and not sent_anywhere(harness, "root:x:0")


async def test_a_read_outside_asks_and_runs_once_approved(harness, places):
    (places["elsewhere"] / "plan.txt").write_text("the plan\n")
    await start(harness, places["home"])
    outside = str(places["elsewhere"] / "plan.txt")
    harness.model.enqueue(call("read_file", {"path": outside}), "It says: the plan.")
    _, _, events = await run_with_decisions(harness, "read the plan", decide_with("once"))
    requested = of_type(events, "approval_requested")[0]
    assert requested.reason == f"{outside} is outside the working folder and the knowledge base"
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    assert "the plan" in of_type(events, "tool_finished")[0].result


async def test_reads_in_the_folder_and_the_kb_run_without_asking(harness, places):
    kb = harness.env.home / "kb"
    kb.mkdir(parents=True)
    (kb / "recipes.md").write_text("# Recipes\npancakes\n")
    (harness.env.workdir / "notes.txt").write_text("dentist friday\n")
    await start(harness, places["home"])
    harness.model.enqueue(calls(("read_file", {"path": "notes.txt"}), ("read_file", {"path": str(kb / "recipes.md")}),
                                ("list_dir", {})), "Read both.")
    _, events = await harness.turn("read my notes and recipes", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "ran", "ran"]


async def test_a_rule_can_open_a_secret_store(harness, places):
    await start(harness, places["home"], "gate:\n  rules:\n    - {tool: read_file, args: {path: '*/.ssh/*'}, decision: allow}\n")
    harness.model.enqueue(call("read_file", {"path": "~/.ssh/id_rsa"}), "Here it is.")
    _, events = await harness.turn("show my key", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_an_approved_search_of_home_steps_over_secret_stores(harness, places):
    (places["home"] / "todo.txt").write_text("PRIVATE KEY rotation is on the todo list\n")
    await start(harness, places["home"])
    harness.model.enqueue(call("search_files", {"pattern": "PRIVATE KEY", "path": "~"}), "Found the todo.")
    _, _, events = await run_with_decisions(harness, "search my home for PRIVATE KEY", decide_with("once"))
    result = of_type(events, "tool_finished")[0].result
    assert "todo.txt:1: PRIVATE KEY rotation" in result and ".ssh" not in result


async def test_symlinks_out_of_the_folder_feed_neither_the_ground_nor_a_search(harness, places):
    work = harness.env.workdir
    (work / "key.txt").symlink_to(places["home"] / ".ssh" / "id_rsa")
    (work / "SATURN.md").symlink_to(places["home"] / ".ssh" / "id_rsa")
    kb = harness.env.home / "kb"
    kb.mkdir(parents=True)
    (kb / "key.md").symlink_to(places["home"] / ".ssh" / "id_rsa")
    (work / "notes.txt").write_text("my key ideas\n")
    await start(harness, places["home"])
    harness.model.enqueue(call("search_files", {"pattern": "KEY"}), "Only notes.")
    _, events = await harness.turn("find my key", headless=True)
    result = of_type(events, "tool_finished")[0].result
    assert "]\nnotes.txt:1: my key ideas\n</outside>" in result and "key" not in result.replace("my key ideas", "")
    assert not sent_anywhere(harness, "PRIVATE KEY-----")
