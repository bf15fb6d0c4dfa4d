"""The trust boundary: every shape a hostile child could send is refused as a malformed answer
for that call, never raised in the parent; well-formed replies pass unchanged."""

import json

import pytest

from grader.sandbox import boundary
from grader.sandbox.boundary import CallReply, LoadReply, Malformed, decode
from grader.calls import Call
from grader.checks.common import run_failure
from grader.sandbox.run import observe

LOG = {"visits": ["A", "B"], "utility_calls": ["B"], "evaluate_calls": [None],
       "foreign_states": 0}


def call_reply(returned=(3, "B"), log=LOG, **item) -> bytes:
    entry = {"status": "ok", "returned": list(returned) if isinstance(returned, tuple)
             else returned, "log": log, **item}
    return json.dumps({"status": "ok", "items": [entry]}).encode()


def test_a_well_formed_reply_passes_unchanged():
    reply = decode(call_reply(), CallReply)
    assert isinstance(reply, CallReply)
    assert reply.items[0].returned == [3, "B"]
    assert boundary.to_plain(reply.items[0].log) == LOG


@pytest.mark.parametrize("line, why", [
    (b'{"status": "ok", "items": [{"status": "ok", "returned": ' + b"[" * 300_000
     + b"]" * 300_000 + b"}]}", "not a plain JSON reply"),
    (call_reply(returned=json.loads("[" * 600 + "]" * 600)), "nested deeper than 24 levels"),
    (b'{"status": "ok", "items": [{"status": "ok", "returned": [1' + b"0" * 400
     + b', "B"]}]}', "outside the range of floating-point numbers"),
    (b'{"status": "ok", "items": [{"status": "ok", "returned": [1e400, "B"]}]}', "unexpected reply"),
    (b'{"status": "ok", "items": [{"status": "ok", "returned": [NaN, "B"]}]}',
     "not a plain JSON reply"),
    (b'{"status": "import-error", "error": {"message": "x", "check": 1, "reason": "ok"}}',
     "unexpected reply"),
    (b'{"status": "ok", "items": [], "score": 100}', "unexpected reply"),
    (b'{"status": "pwned"}', "unexpected reply"),
    (call_reply(log={**LOG, "evaluate_calls": [{"a": 1}]}), "unexpected reply"),
    (call_reply(log={**LOG, "visits": ["A", ["B"]]}), "unexpected reply"),
    (call_reply(log={**LOG, "foreign_states": -1}), "unexpected reply"),
    (call_reply(log={**LOG, "visits": ["A"] * (boundary.MAX_LOG_ENTRIES + 1)}),
     "visit log longer than"),
    (call_reply(returned=["x" * (boundary.MAX_TEXT + 1), "B"]), "a text longer than"),
    (call_reply(returned=list(range(boundary.MAX_NODES + 1))), "more than 200,000 values"),
    (b"\xff\xfe garbage", "not a plain JSON reply"),
    (b"{" * 10 + b"]", "not a plain JSON reply"),
])
def test_hostile_replies_are_malformed_answers_not_exceptions(line, why):
    outcome = decode(line, CallReply)
    assert isinstance(outcome, Malformed)
    assert why in outcome.reason


def test_an_over_long_line_is_refused_before_it_is_parsed():
    outcome = decode(b" " * (boundary.MAX_REPLY_BYTES + 1), LoadReply)
    assert isinstance(outcome, Malformed) and "longer than 16 MiB" in outcome.reason


def test_a_malformed_reply_costs_only_that_call_with_the_reason_named():
    call = Call("minimax", "minimax", "game", ('{"kind": "tree"}',))
    observation = observe(call, decode(b'{"status": "ok", "items": 5}', CallReply))
    assert observation.status == "protocol"
    assert "unexpected reply" in observation.error["message"]


def test_error_records_reach_the_checks_with_known_keys_only():
    from grader.tasks import Check
    call = Call("minimax", "minimax", "game", ('{"kind": "tree"}',))
    reply = decode(b'{"status": "ok", "items": [{"status": "error", "error": '
                   b'{"type": "ValueError", "message": "m", "line": 3}}]}', CallReply)
    observation = observe(call, reply)
    assert observation.items[0].error == {"type": "ValueError", "message": "m", "line": 3}
    check = Check("t/minimax/value", "t", "value", "minimax", 1.0, "visible", (), "t.yaml", 1)
    verdict = run_failure(check, observation)
    assert verdict.reason == "item.error" and verdict.facts["message"] == "m"


def test_a_log_is_required_wherever_the_game_is_recorded():
    call = Call("minimax", "minimax", "helpers", ('{"kind": "tree"}',))
    reply = decode(b'{"status": "ok", "items": [{"status": "ok", "returned": [1, "B"]}]}',
                   CallReply)
    assert observe(call, reply).status == "protocol"


def test_a_request_encoded_once_asks_the_runner_for_the_same_call_as_its_dict():
    # The plan's calls are encoded once and reused for every submission, their items as JSON
    # texts the runner decodes: it must run the same call whichever form the parent held.
    from grader.calls import canonical
    from grader.sandbox.child import Runner
    from grader.sandbox.launcher import _with_id
    items = (canonical({"kind": "tree", "root": "A", "nodes": {"A": {"value": 1.5}}}),
             canonical({"kind": "tree", "root": "B\u00e4\"", "nodes": {}}))
    runner = Runner("/nonexistent")
    for call in (Call("minimax", "alphabeta", "game", items, args=(2,)),
                 Call("bewertung", "evaluate", "plain", (canonical([[1, 2], "X"]),)),
                 Call("m", "f", "game", ())):
        lines = [_with_id(form, "0f1e") for form in (call.request_text(), call.request())]
        assert all(line.endswith("}\n") and line.count("\n") == 1 for line in lines)
        parsed = [json.loads(line) for line in lines]
        assert [runner.items_of(request) for request in parsed] == [list(call.inputs())] * 2
        assert [{key: value for key, value in request.items()
                 if key not in ("items", "item_texts")} for request in parsed] == [
            {"op": "call", "module": call.module, "function": call.function,
             "convention": call.convention, "args": list(call.args), "id": "0f1e"}] * 2
        assert json.loads(lines[0])["id"] == "0f1e"
    with pytest.raises(ValueError):
        _with_id("[]", "0f1e")
