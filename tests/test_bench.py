"""The loop benchmark (bench/): task files, checkers, the runner on the scripted model, the report."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bench import checkers
from bench.checkers import Call, FinalState, observed_move, run_checks
from bench.daemon import DaemonSpec
from bench.report import load_runs, render, report_command
from bench.runner import RunOptions, bound_groups, run_bench, run_plan
from bench.stats import mcnemar_p, pair, summarize
from bench.suite import CATEGORIES, TaskError, by_category, load_tasks, validate, with_defaults
from bench.verdict import load_rule, verdicts
from clients.cli import bench_commands
from saturnd.testing.fake_model import FakeModel, Reply, call

CONTACTS = "| Petra Novak | +44 7700 900123 | petra.novak@acme.example |\n"


def task(**fields: object) -> dict:
    base = {"id": "t-01", "category": "call", "prompt": "p", "first": ["read_file"], "check": {"answer_has": ["x"]}}
    return with_defaults({**base, **fields})


# -- task files -----------------------------------------------------------------------------


def test_a_task_written_for_edit_file_approves_and_allows_the_structured_edits_and_query():
    written = task(tools=["read_file", "edit_file"], decide={"edit_file": ["once", "once"]})
    assert {"add_items", "remove_items", "mark_done", "set_value", "query"} <= set(written["tools"])
    assert written["decide"]["add_items"] == ["once", "once"] and written["decide"]["add_items"] is not written["decide"]["mark_done"]
    declined = task(tools=["write_file"], decide={"write_file": "decline", "add_items": "once"})
    assert declined["decide"]["remove_items"] == "decline" and declined["decide"]["add_items"] == "once"
    looks = task(tools=["web_fetch"])
    assert looks["tools"] == ["web_fetch"] and looks["decide"] == {}


def test_the_task_files_load_validate_and_cover_every_category():
    tasks = load_tasks()
    assert len(tasks) >= 120
    counts = {c: len(ts) for c, ts in by_category(tasks).items()}
    assert set(counts) == set(CATEGORIES) and min(counts.values()) >= 12, counts
    for t in tasks:
        assert t["check"], t["id"]
        assert set(t["check"]) <= set(checkers.CHECKS), t["id"]
        assert ("{pages}" in t["prompt"]) == bool(t["pages"]) or t["id"].startswith("recovery-12"), t["id"]
    bound = [t for t in tasks if t["category"] == "bound"]
    assert all(t["max_iterations"] for t in bound), "a loop-bound task needs a small max_iterations"


def test_no_task_passes_by_doing_nothing_or_by_refusing_everything():
    """A checker that a null turn or a blanket refusal satisfies measures nothing."""
    refusal = "I'm sorry, I can't do that: I did not have the tools, so nothing was done."
    for t in load_tasks():
        assert run_checks(t, FinalState(files=dict(t["files"]))), t["id"]
        if t["category"] != "cannot":
            assert run_checks(t, FinalState(answer=refusal, files=dict(t["files"]))), t["id"]


def test_the_subset_glob_picks_two_tasks_per_category():
    subset = load_tasks(pattern="*-0[12]-*")
    assert {c: len(ts) for c, ts in by_category(subset).items()} == dict.fromkeys(CATEGORIES, 2)


@pytest.mark.parametrize("bad, problem", [
    ({"check": {}}, "every task needs a checker"),
    ({"check": {"answer_is_nice": True}}, "unknown check"),
    ({"first": ["telepathy"]}, "neither a tool"),
    ({"decide": {"send_email": "maybe"}}, "decide: send_email"),
    ({"tools": ["teleport"]}, "unknown tool"),
    ({"colour": "red"}, "unknown field"),
])
def test_a_malformed_task_is_refused_with_the_reason(bad, problem):
    with pytest.raises(TaskError, match=problem):
        validate({**task(), **bad})


def test_tasks_are_grouped_by_the_loop_bound_they_need_default_first():
    groups = bound_groups([task(id="a"), task(id="b", max_iterations=2), task(id="c")])
    assert [(limit, [t["id"] for t in ts]) for limit, ts in groups] == [(None, ["a", "c"]), (2, ["b"])]


# -- checkers -------------------------------------------------------------------------------


def test_answer_words_match_whole_words_and_alternatives():
    t = task(check={"answer_has": ["391", "30 april|april 30"], "answer_lacks": ["not"]})
    assert run_checks(t, FinalState(answer="17 x 23 = 391; due April 30. Note it.")) == []
    assert run_checks(t, FinalState(answer="3910, due 30 April, not sure")) == [
        "answer_missing:391", "answer_has_forbidden:not",
    ]


def test_a_turn_that_did_not_complete_fails_first():
    assert run_checks(task(), FinalState(answer="x", status="timeout")) == ["turn_timeout"]


def test_the_outbox_must_hold_exactly_the_typed_messages_in_any_order():
    t = task(check={"outbox": [
        {"kind": "message", "to": "+44 7700 900123", "has": ["late"]},
        {"kind": "email", "to": "tom@acme.example", "has": ["monday"]},
    ]})
    text = {"kind": "message", "to": "+447700900123", "text": "Running late"}
    email = {"kind": "email", "to": "Tom@acme.example", "subject": "Office", "body": "closed Monday"}
    assert run_checks(t, FinalState(outbox=[email, text])) == []
    wrong_type = {"kind": "message", "to": "tom@acme.example", "text": "closed Monday"}
    assert run_checks(t, FinalState(outbox=[text, wrong_type])) == ["outbox_kind:message"]
    assert run_checks(t, FinalState(outbox=[text])) == ["outbox_count:1!=2"]


def test_a_retry_or_a_way_around_a_decline_fails():
    t = task(check={"max_approvals": 1, "no_change_after_decline": True})
    declined = [Call("run_command", {"command": "rm old.log"}, "declined")]
    assert run_checks(t, FinalState(calls=declined, approvals=["run_command"])) == []
    around = declined + [Call("write_file", {"path": "old.log", "content": ""}, "declined")]
    assert run_checks(t, FinalState(calls=around, approvals=["run_command", "write_file"])) == [
        "retried_after_decline", "routed_around_decline:write_file",
    ]


def test_files_bound_and_tool_checks():
    t = task(
        files={"old.log": "a\n"}, tools=["read_file"],
        check={"files": {"old.log": {"same": True}, "bak": {"absent": True}, "t.txt": {"has": ["87.5|87.50"]}},
               "bound": True, "only_tools": True},
    )
    good = FinalState(files={"old.log": "a\n", "t.txt": "87.50\n"}, note="the turn reached its limit of 2 tool rounds",
                      calls=[Call("read_file", {}, "ran"), Call("plan", {}, "ran")])
    assert run_checks(t, good) == []
    bad = FinalState(files={"old.log": "", "bak": "a"}, calls=[Call("run_command", {}, "declined")])
    assert run_checks(t, bad) == [
        "file_changed:old.log", "file_still_there:bak", "file_missing:t.txt", "bound_not_reached",
        "used_other_tool:run_command",
    ]


def test_cannot_ask_and_call_checks():
    cannot = task(check={"says_cannot": True, "not_called": ["web_fetch"]})
    assert run_checks(cannot, FinalState(answer="Sorry, I can't order pizza.")) == []
    assert run_checks(cannot, FinalState(answer="Ordered!", calls=[Call("web_fetch", {}, "declined")])) == [
        "did_not_say_cannot", "called_forbidden:web_fetch",
    ]
    ask = task(check={"asks": True, "called": ["send_email"]})
    assert run_checks(ask, FinalState(questions=["Which address?"], calls=[Call("send_email", {}, "ran")])) == []
    assert run_checks(ask, FinalState(answer="Done.", calls=[Call("send_email", {}, "declined")])) == [
        "did_not_ask", "not_called:send_email",
    ]


@pytest.mark.parametrize("answer, cannot", [
    ("Nie mogę zamówić lotu.", True), ("Det kan jeg desværre ikke.", True), ("Jag kan inte boka det.", True),
    ("Nemohu to objednat.", True), ("En voi varata sitä.", True), ("Rezervasyon yapamam.", True),
    ("Dodałem to do listy.", False), ("Tamam, ekledim.", False), ("Du kan se det i listan.", False),
])
def test_a_refusal_is_read_in_the_errands_languages(answer, cannot):
    assert (run_checks(task(check={"says_cannot": True}), FinalState(answer=answer)) == []) is cannot


def test_a_phone_recipient_compares_without_its_country_code():
    want = task(check={"outbox": [{"to": "0532 111 22 33"}]})
    assert run_checks(want, FinalState(outbox=[{"to": "+90 532 111 22 33", "text": "x"}])) == []


@pytest.mark.parametrize("first, state, observed", [
    (["read_file"], FinalState(first_pass_calls=["read_file"]), "right call"),
    (["read_file"], FinalState(first_pass_calls=["list_dir"]), "wrong call"),
    (["answer"], FinalState(first_pass_calls=["read_file"]), "needless call"),
    (["read_file"], FinalState(first_pass_calls=["ask_user"]), "ask"),
    (["ask"], FinalState(answer="What is the address?"), "ask"),
    (["cannot"], FinalState(answer="I cannot do that."), "can't"),
    (["answer"], FinalState(answer="391"), "answer"),
    (["ask"], FinalState(first_answer="Which number?", answer="Sent."), "ask"),
])
def test_the_first_move_is_labelled_for_the_confusion_matrix(first, state, observed):
    assert observed_move(task(first=first), state) == observed


# -- statistics and verdict -------------------------------------------------------------------


def test_mcnemar_exact_p_on_known_tables():
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 6) == pytest.approx(2 / 64)
    assert mcnemar_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert mcnemar_p(9, 1) == mcnemar_p(1, 9)
    assert mcnemar_p(4, 14) == pytest.approx(0.0309, abs=1e-4)


def records(policy: str, passes: list[bool], wall: float = 10.0, model: str = "qwen2.5-coder-1.5b") -> list[dict]:
    return [
        {"model": model, "policy": policy, "repeat": 1, "task": f"t{i:03d}", "category": "call",
         "passed": p, "failure": "" if p else "answer_missing:x", "move_right": p, "expected_move": "call",
         "observed_move": "right call" if p else "wrong call", "model_calls": 2, "draft_calls": 1,
         "thinking_calls": 1, "thinking_reruns": 1, "wall_s": wall, "ttft_s": 1.0}
        for i, p in enumerate(passes)
    ]


def test_pairing_and_summary():
    a, b = records("on", [True, True, False, False]), records("act", [True, False, True, False])
    paired = pair("on", a, "act", b)
    assert (paired.a_only, paired.b_only, paired.both, paired.neither) == (1, 1, 1, 1)
    s = summarize("qwen2.5-coder-1.5b", "on", a + [{**a[0], "repeat": 2}, {**a[1], "repeat": 2, "passed": False}])
    assert (s.tasks, s.repeats, s.pass_all) == (4, 2, 1)


def test_two_runs_of_one_repeat_each_are_reported_as_two_repeats():
    first, second = records("on", [True, False]), records("on", [True, True], wall=30.0)
    s = summarize("qwen2.5-coder-1.5b", "on", first + second)
    assert (s.repeats, s.passed_mean, s.pass_all, s.suite_s) == (2, 1.5, 1, 40.0)


def test_the_verdict_follows_the_acceptance_rule():
    rule = load_rule()
    base = [True] * 90 + [False] * 30
    better = [True] * 90 + [True] * 10 + [False] * 20
    assert verdicts(records("act", base) + records("on", better, wall=11), rule)[0].decision == "replace act"
    assert verdicts(records("act", base) + records("on", better, wall=20), rule)[0].decision == "judgment call"
    assert verdicts(records("act", base) + records("on", base), rule)[0].decision == "keep act"
    subset = verdicts(records("act", base[:20]) + records("on", better[:20]), rule)[0]
    assert subset.decision.startswith("no decision: subset")
    native = [{**r, "setup": {"tool_mode": "native"}} for r in records("act", base) + records("on", better, wall=11)]
    (verdict,) = verdicts(native, rule)
    assert (verdict.policy, verdict.decision) == ("on on qwen2.5-coder-1.5b [native]", "replace act")


# -- the runner, end to end on the scripted model ----------------------------------------------


async def test_the_runner_runs_tasks_through_the_real_daemon_and_the_report_renders(tmp_path):
    model = FakeModel().start()
    try:
        model.enqueue(
            # ask-01: the question in plain words, then the reply leads to the email.
            "What is your landlord's email address?",
            call("send_email", {"to": "landlord@flatmail.example", "subject": "Boiler", "body": "The boiler is broken again."}),
            "Sent.",
            # call-01: the right call, then the answer.
            call("read_file", {"path": "shopping.txt"}), "Milk, eggs and flour.",
            # declined-01: the person declines; the model says so.
            call("run_command", {"command": "rm old.log"}), "I did not delete old.log: you declined.",
        )
        seen: list[dict] = []
        folder = await run_bench(RunOptions(
            model="fake", policies=["off"], tasks="ask-01-*,call-01-*,declined-01-*", base_url=model.url,
            out_dir=tmp_path, run_id="r1",
        ), on_record=seen.append)
        model.assert_complete()
    finally:
        model.stop()
    lines = [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]
    assert lines == seen
    assert [(r["task"], r["passed"], r["observed_move"]) for r in lines] == [
        ("ask-01-landlord-email", True, "ask"),
        ("call-01-shopping", True, "right call"),
        ("declined-01-delete-log", True, "right call"),
    ]
    ask, _, declined = lines
    assert ask["turns"] == 2 and ask["approvals"] == [["send_email", "once"]] and ask["tool_fates"] == {"ran": 1}
    assert declined["approvals"] == [["run_command", "decline"]] and declined["tool_fates"] == {"declined": 1}
    assert {r["model_calls"] for r in lines} == {2, 3} and all(r["draft_calls"] == r["model_calls"] for r in lines)
    assert all(r["ttft_s"] is not None and r["wall_s"] > 0 for r in lines)
    assert lines[0]["setup"]["temperature"] == 0.0 and lines[0]["setup"]["template_sha256"] == ""
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["command"].startswith("saturn bench run --model fake --policy off") and meta["finished_at"]

    assert report_command([folder]) == 0
    text = (folder / "report.md").read_text()
    assert "| fake | off | 3/3 | 3/3 (k=1) |" in text
    assert "| ask | 0 | 0 | 0 | 1 | 0 | 0 |" in text
    assert "no decision: no act run on qwen2.5-coder-1.5b" in text


async def test_model_calls_are_split_into_drafts_and_thinking_reruns(tmp_path):
    model = FakeModel().start()
    try:
        model.enqueue(
            call("read_file", {"path": "shopping.txt"}),  # act's draft calls a tool: pulled back
            Reply(reasoning="The list is in shopping.txt.", tool_calls=[{"name": "read_file", "arguments": {"path": "shopping.txt"}}]),
            "Milk, eggs and flour.",  # a plain answer needs no thought
        )
        folder = await run_bench(RunOptions(
            model="fake", policies=["act"], tasks="call-01-*", base_url=model.url, out_dir=tmp_path, run_id="r2",
        ))
        model.assert_complete()
    finally:
        model.stop()
    (record,) = [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]
    assert record["passed"] and record["policy"] == "act"
    assert record["calls"] == [["read_file", "ran", {"path": "shopping.txt"}]]
    assert (record["model_calls"], record["draft_calls"], record["thinking_calls"], record["thinking_reruns"]) == (3, 2, 1, 1)


def test_the_report_renders_pairs_and_says_when_there_is_no_plot(tmp_path, monkeypatch):
    log = tmp_path / "runs.jsonl"
    rows = records("act", [True, False, True]) + records("off", [False, False, True])
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    loaded, metas = load_runs([log])
    text = render(loaded, metas, tmp_path / "plot.png")
    assert "| qwen2.5-coder-1.5b | act | off | 1 | 0 | 1 | 1 | 1 |" in text
    assert "No plot: matplotlib is not installed" in text
    assert "off on qwen2.5-coder-1.5b: no decision: subset (3 of >= 120 tasks)" in text


def test_the_cli_parses_bench_run_and_report():
    parser = argparse.ArgumentParser(prog="saturn")
    bench_commands.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "run", "--policy", "off,act", "--repeat", "2", "--tasks", "*-0[12]-*"])
    assert (args.model, args.policy, args.repeat, args.tasks, args.base_url) == (
        "qwen2.5-coder-1.5b", "off,act", 2, "*-0[12]-*", "")
    args = parser.parse_args(["bench", "report", "a", "b"])
    assert args.runs == ["a", "b"] and args.bench_action == "report"


def test_results_of_real_runs_carry_their_command():
    for meta in Path(__file__).resolve().parent.parent.glob("bench/results/*/meta.json"):
        assert json.loads(meta.read_text())["command"].split()[0] in ("saturn", "python")


def test_the_report_plots_pass_rate_against_suite_time(tmp_path):
    pytest.importorskip("matplotlib", reason="the plot needs the bench extra (CI installs it)")
    rows = records("act", [True, False, True]) + records("off", [False, False, True], wall=5.0)
    text = render(*load_runs([_write_log(tmp_path, rows)]), tmp_path / "plot.png")
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG")
    assert "No plot" not in text


def _write_log(folder, rows):
    log = folder / "runs.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return log


def test_the_daemon_config_carries_policy_mode_and_threads():
    text = DaemonSpec(model="qwen2.5-coder-0.5b", policy="first_move", tool_mode="native", threads=1).config_yaml()
    config = __import__("yaml").safe_load(text)
    assert config["model"] == {"embedded": "qwen2.5-coder-0.5b", "threads": 1, "tool_mode": "native", "temperature": 0}
    assert config["runtime"]["think"] == "first_move"


def test_the_small_tier_guard_says_more_when_the_candidate_passes_more():
    rule = load_rule()
    big = records("act", [True] * 120) + records("on", [True] * 120)
    small = (records("act", [False, False], model="qwen2.5-coder-0.5b")
             + records("on", [True, False], model="qwen2.5-coder-0.5b"))
    verdict = verdicts(big + small, rule)[0]
    assert "qwen2.5-coder-0.5b: 1 more tasks than act (allowed <= 2 fewer)" in verdict.reasons


def test_compare_puts_two_runs_of_the_same_tasks_side_by_side():
    from bench.compare import compare

    def run(passes: dict[str, bool], wall: float) -> list[dict]:
        return [{"task": t, "category": t.split("-")[0], "passed": ok, "wall_s": wall, "load_1m": 1.0,
                 "tokens_in": 100, "tokens_cached": 0 if wall > 5 else 80, "model": "m", "policy": "act"}
                for t, ok in passes.items()]

    before = run({"call-01": False, "call-02": True, "ask-01": False}, 10.0)
    after = run({"call-01": True, "call-02": True, "ask-01": True}, 4.0)
    lines = compare(before, after)
    assert lines[:5] == [
        "| category | tasks | before | after |", "|---|---|---|---|",
        "| ask | 1 | 0 | 1 |", "| call | 2 | 1 | 2 |", "| **all** | 3 | **1** (33%) | **3** (100%) |",
    ]
    assert lines[6] == "2 tasks pass only after, 0 only before: exact McNemar p = 0.5."
    assert lines[8] == ("- after: median task 4.0 s, p90 4.0 s, load average 1.0;"
                        " 240 of 300 prompt tokens (80%) from the server's cache")


def test_a_run_plays_whole_repeats_one_after_the_other():
    tasks = [{"id": "call-01", "max_iterations": None}, {"id": "bound-01", "max_iterations": 2}]
    plan = [(repeat, policy, limit, [t["id"] for t in group])
            for repeat, policy, limit, group in run_plan(tasks, ["act"], 2)]
    assert plan == [(1, "act", None, ["call-01"]), (1, "act", 2, ["bound-01"]),
                    (2, "act", None, ["call-01"]), (2, "act", 2, ["bound-01"])]



def test_a_probe_checked_for_its_ground_only_shows_each_questions_ground(tmp_path):
    from bench import probe_errands

    spec = tmp_path / "p.json"
    spec.write_text(json.dumps({"name": "p", "files": {"shopping.txt": "milk\neggs\n", "pots.csv": "pot,saved\nholiday,10\ncar,5\n"},
                                "questions": ["How much have I saved?", "Add butter to my shopping list."]}))
    out = tmp_path / "out.txt"
    probe_errands.main(["--ground-only", str(out), str(spec)])
    text = out.read_text()
    assert "### [p] How much have I saved?\n## This turn\nNow: Friday 2026-12-04 15:00" in text
    assert "pots" in text and "holiday" in text  # the table's head, fenced with the rest of the files
    assert "### [p] Add butter to my shopping list." in text
