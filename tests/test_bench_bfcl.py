"""The BFCL v4 bridge (bench/bfcl): loading and splitting cases, decoding calls into BFCL's
formats, BFCL's own checkers on known answers, ask_user never counted, and one case end to end
through a real daemon against the scripted model. Skipped when bfcl-eval is not installed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from bench.bfcl import BfclMissing, bfcl

try:
    bfcl()
except BfclMissing:  # pragma: no cover - the optional extra is not installed
    pytest.skip("bfcl-eval is not installed (see bench/bfcl/__init__.py)", allow_module_level=True)

from bench.bfcl import cases as bfcl_cases
from bench.bfcl.mcp_server import call_string
from bench.bfcl.raw_runner import decode_message
from bench.bfcl.run import run_error
from bench.bfcl.score import decode_multi, decode_single, score
from bench.daemon import DaemonSpec
from clients.cli.bench_commands import bfcl_runs
from saturnd.testing.fake_model import FakeModel, call, text


def _right_call(case: bfcl_cases.Case) -> dict:
    truth = case.ground_truth[0]
    name = next(iter(truth))
    return {"name": name, "arguments": {k: v[0] for k, v in truth[name].items() if v[0] != ""}}


def test_case_numbers_and_the_dev_report_split():
    assert bfcl_cases.case_number("live_simple_12-3-0") == 12
    assert bfcl_cases.case_number("multi_turn_miss_param_7") == 7
    assert bfcl_cases.slice_of("irrelevance_8") == "dev"
    assert bfcl_cases.slice_of("irrelevance_9") == "report"
    dev = bfcl_cases.load_cases("live_simple", "dev", limit=3)
    report = bfcl_cases.load_cases("live_simple", "report", limit=5)
    assert [bfcl_cases.case_number(c.id) % 4 for c in dev] == [0, 0, 0]
    assert all(bfcl_cases.case_number(c.id) % 4 for c in report)
    assert {c.id for c in dev}.isdisjoint(c.id for c in report)
    assert all(c.ground_truth and len(c.turns) == 1 and c.functions for c in report)
    multi = bfcl_cases.load_cases("multi_turn_miss_param", "report", limit=1)[0]
    assert multi.multi_turn and len(multi.turns) == len(multi.ground_truth) > 1
    assert multi.involved_classes and multi.initial_config
    with pytest.raises(ValueError, match="unknown"):
        bfcl_cases.load_cases("no_such_category")


def test_tool_schemas_are_json_schema_and_keep_the_bfcl_name():
    case = bfcl_cases.load_cases("live_multiple", "all", limit=1)[0]
    schemas = bfcl_cases.tool_schemas(case.functions)
    dotted = [s for s in schemas if "." in s["bfcl_name"]]
    assert dotted and all("." not in s["name"] for s in schemas)
    assert all(s["parameters"]["type"] == "object" for s in schemas)


def test_bfcl_checker_scores_a_right_and_a_wrong_single_turn_answer():
    case = bfcl_cases.load_cases("live_simple", "report", limit=1)[0]
    right = _right_call(case)
    assert score(case, [right])["valid"]
    assert score(case, [right, right])["valid"], "an exact repeat is one call"
    wrong = {"name": right["name"], "arguments": {**right["arguments"], "aligned": "maybe"}}
    assert not score(case, [wrong])["valid"]
    assert not score(case, [])["valid"]
    assert decode_single([right]) == [{right["name"]: right["arguments"]}]


def test_irrelevance_passes_only_without_a_call_and_ask_user_is_no_call():
    case = bfcl_cases.load_cases("irrelevance", "report", limit=1)[0]
    asked = {"name": "ask_user", "arguments": {"question": "Which one?"}}
    assert score(case, [])["valid"]
    assert score(case, [asked])["valid"]
    assert not score(case, [{"name": case.functions[0]["name"], "arguments": {}}])["valid"]
    assert decode_multi([[[asked]], [[asked, {"name": "ls", "arguments": {"a": True}}]]]) == [[], [["ls(a=True)"]]]


@pytest.mark.parametrize(("got", "error"), [
    ({"observed": [], "error": "HTTP 500: the model produced output that does not match"}, "HTTP 500: the model"),
    ({"observed": [], "turns": [{"status": "completed"}, {"status": "timeout"}]}, "turn timeout"),
    ({"observed": [], "turns": [{"status": "completed"}]}, ""),
    ({"observed": [], "error": ""}, ""),
])
def test_any_error_of_a_run_is_a_failure(got, error):
    assert run_error(got).startswith(error) and bool(run_error(got)) == bool(error)


def test_bfcl_multi_turn_checker_on_the_ground_truth_and_on_nothing():
    case = bfcl_cases.load_cases("multi_turn_base", "report", limit=1)[0]
    assert call_string("mv", {"source": "a.txt", "destination": "b"}) == "mv(source='a.txt',destination='b')"
    perfect = [[[{"name": "_", "arguments": {}}]] for _ in case.ground_truth]
    assert len(perfect) == len(case.turns)
    from bench.bfcl.score import score_multi

    assert score_multi(case, [[turn] for turn in case.ground_truth])["valid"]
    assert not score_multi(case, [[] for _ in case.ground_truth])["valid"]
    assert not score_multi(case, [[]])["valid"], "a short run is force-terminated"


def test_raw_decoding_of_native_and_text_calls():
    names = {"ChaDri_change_drink": "ChaDri.change_drink"}
    native = {"tool_calls": [{"id": "1", "function": {"name": "ChaDri_change_drink", "arguments": '{"a": 1}'}}]}
    assert decode_message(native, names) == ([{"name": "ChaDri.change_drink", "arguments": {"a": 1}, "id": "1"}], False)
    fenced = {"content": '<tool_call>\n{"name": "ChaDri_change_drink", "arguments": {"a": 2}}\n</tool_call>'}
    assert decode_message(fenced, names) == ([{"name": "ChaDri.change_drink", "arguments": {"a": 2}}], True)
    assert decode_message({"content": "No function fits."}, names) == ([], False)


async def _first_live_simple_case(*replies: Any) -> tuple[Any, dict[str, Any], dict[str, Any], FakeModel]:
    """The first live_simple report case through a real daemon and the fake model's `replies`
    (each may name the right call as "RIGHT"): the case, its right call, the run, the model."""
    from bench.bfcl.saturn_runner import run_case

    case = bfcl_cases.load_cases("live_simple", "report", limit=1)[0]
    right = _right_call(case)
    model = FakeModel().start()
    try:
        model.enqueue(*(call(f"bfcl.{right['name']}", right["arguments"]) if r == "RIGHT" else r for r in replies))
        spec = DaemonSpec(model="fake", policy="off", base_url=model.url, tool_mode="native")
        got = await run_case(case, spec, turn_timeout_s=30)
    finally:
        model.stop()
    return case, right, got, model


async def test_one_case_end_to_end_through_a_real_daemon():
    case, right, got, model = await _first_live_simple_case(
        call("ask_user", {"question": "Which repositories?"}), "RIGHT", text("Done."),
    )
    assert "error" not in got, got
    assert got["observed"] == [right], "the MCP server saw the one BFCL call, not ask_user"
    assert got["turns"][0]["questions"] == 1 and got["turns"][0]["status"] == "completed"
    assert score(case, got["observed"])["valid"]
    offered = {t["function"]["name"] for t in model.requests[0]["tools"]}
    assert offered == {"ask_user", f"bfcl.{right['name']}"}, "built-ins other than ask_user are hidden"
    description = next(t["function"]["description"] for t in model.requests[0]["tools"]
                       if t["function"]["name"] != "ask_user")
    assert description == " ".join(case.functions[0]["description"].split())[:1000]


async def test_a_case_records_which_rules_of_the_harness_fired():
    _, right, got, _ = await _first_live_simple_case("RIGHT", text("Gorilla has 4200 stars."), text("Done."))
    assert got["observed"] == [right]
    assert got["turns"][0]["notes"] == ["2: unsourced: sent back"]


async def test_a_multi_turn_case_runs_its_calls_on_bfcl_backends_turn_by_turn():
    from bench.bfcl.saturn_runner import run_case

    case = bfcl_cases.load_cases("multi_turn_base", "report", limit=1)[0]
    model = FakeModel().start()
    try:
        # Turn 0 is right (ls -a); turn 1 asks the person, then answers; the rest do nothing.
        model.enqueue(call("bfcl.ls", {"a": True}), text("Listed."),
                      call("ask_user", {"question": "Which log.txt?"}), text("I cannot tell."),
                      *[text("No.") for _ in case.turns[2:]])
        spec = DaemonSpec(model="fake", policy="off", base_url=model.url, tool_mode="native")
        got = await run_case(case, spec, turn_timeout_s=30)
        tool_result = model.requests[1]["messages"][-1]["content"]
    finally:
        model.stop()
    assert got["observed"][0] == [[{"name": "ls", "arguments": {"a": True}}]]
    assert got["observed"][1:] == [[] for _ in case.turns[1:]], "ask_user is no BFCL call"
    assert "current_directory_content" in tool_result, "the backend ran the call"
    verdict = score(case, got["observed"])
    assert not verdict["valid"] and verdict["error_type"] == "multi_turn:empty_turn_model_response"
    assert "turn 1" in verdict["error"][0]


async def test_raw_multi_turn_skips_a_step_the_server_could_not_parse():
    from bench.bfcl import raw_runner
    from saturnd.testing.fake_model import error

    case = bfcl_cases.load_cases("multi_turn_base", "report", limit=1)[0]
    model = FakeModel().start()
    try:
        model.enqueue(error(500, "The model produced output that does not match the expected format"),
                      call("ls", {"a": True}), text("Listed."), *[text("No.") for _ in case.turns[2:]])
        got = await raw_runner.run_case(case, model.url, "fake", timeout_s=30)
    finally:
        model.stop()
    assert got["error"] == "" and len(got["failed_steps"]) == 1
    assert got["observed"][0] == [] and got["observed"][1] == [[{"name": "ls", "arguments": {"a": True}, "id": got["observed"][1][0][0]["id"]}]]


async def test_a_run_scores_saturn_and_raw_side_by_side_into_the_summary(tmp_path):
    from bench.bfcl.run import BfclOptions, run_async

    case = bfcl_cases.load_cases("live_simple", "report", limit=1)[0]
    right = _right_call(case)
    model = FakeModel().start()
    try:
        model.enqueue(call(f"bfcl.{right['name']}", right["arguments"]), text("Done."),  # Saturn
                      call(right["name"], right["arguments"]))  # the raw call
        out = await run_async(BfclOptions(categories=["live_simple"], model="fake", limit=1, out_dir=tmp_path,
                                          base_url=model.url, tool_mode="native", think="off", turn_timeout_s=30))
    finally:
        model.stop()
    assert "| live_simple | 1 | 1/1 | 1/1 |" in (out / "summary.md").read_text()
    assert json.loads((out / "meta.json").read_text())["setup"]["saturn_builtins"] == "ask_user"


def test_only_both_runs_saturn_and_raw_from_the_command_line(saturn_env, fake_model, tmp_path):
    case = bfcl_cases.load_cases("live_simple", "report", limit=1)[0]
    right = _right_call(case)
    fake_model.enqueue(call(f"bfcl.{right['name']}", right["arguments"]), text("Done."),  # Saturn
                       call(right["name"], right["arguments"]))  # the raw call
    done = saturn_env.saturn("bench", "bfcl", "--category", "live_simple", "--limit", "1", "--only", "both",
                             "--base-url", fake_model.url, "--tool-mode", "native", "--think", "off",
                             "--turn-timeout", "30", "--out", str(tmp_path), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "| live_simple | 1 | 1/1 | 1/1 |" in (tmp_path / "summary.md").read_text()
    assert json.loads((tmp_path / "meta.json").read_text())["which"] == ["saturn", "raw"]


async def test_a_run_on_the_embedded_model_records_its_templates_hash(monkeypatch, tmp_path):
    from bench.bfcl.run import BfclOptions, run_async
    from saturnd.model import embedded

    case = bfcl_cases.load_cases("live_simple", "report", limit=1)[0]
    model = FakeModel().start()

    class StandIn:  # the embedded server's face, answered by the scripted model
        template_path = embedded.TEMPLATE_PATH

        def __init__(self, *args, **kwargs):
            pass

        async def start(self):
            return model.url

        async def stop(self):
            pass

    monkeypatch.setattr(embedded, "EmbeddedModel", StandIn)
    try:
        model.enqueue(text("No call."))
        out = await run_async(BfclOptions(categories=["live_simple"], model="fake", limit=1, out_dir=tmp_path,
                                          which=("raw",), turn_timeout_s=30))
    finally:
        model.stop()
    setup = json.loads((out / "meta.json").read_text())["setup"]
    assert setup["model_server"] == "embedded"
    assert setup["template_sha256"] == hashlib.sha256(embedded.TEMPLATE_PATH.read_bytes()).hexdigest()
    assert [r["id"] for r in map(json.loads, (out / "cases.jsonl").read_text().splitlines())] == [case.id]


def test_only_names_saturn_raw_or_both():
    assert bfcl_runs("both") == bfcl_runs("saturn,raw") == bfcl_runs("raw, saturn") == ("saturn", "raw")
    assert (bfcl_runs("saturn"), bfcl_runs("raw")) == (("saturn",), ("raw",))
    assert bfcl_runs("") == bfcl_runs("saturn,rwa") == ()
