"""Textbook signatures such as alphabeta(game, state, alpha, beta, depth) are called as their
parameters' names say; where the names do not say, the student reads that the signature
differs from the task's, not that the search "ignores the depth limit"."""

import inspect
from math import inf

import pytest

from grader.sandbox.boundary import CallReply, Malformed, decode
from grader.conventions.signature import fit
from grader.report.messages import Catalogue
from grader.report.views import student_view

from conftest import DATA

SIGNATURES = DATA / "signatures"


def textbook_alphabeta(game, state, alpha, beta, depth):
    pass


def defaults_alphabeta(game, state, alpha=-inf, beta=inf, depth=None):
    pass


def task_alphabeta(game, state, depth=None):
    pass


def textbook_minimax(game, state, depth):
    pass


def unnamed_alphabeta(game, state, a, b, d):
    pass


@pytest.mark.parametrize("function, args, arguments, adapted", [
    (task_alphabeta, (3,), (3,), None),
    (task_alphabeta, (), (), None),
    (textbook_alphabeta, (3,), (-inf, inf, 3), True),
    (textbook_alphabeta, (), (-inf, inf, None), True),
    (defaults_alphabeta, (3,), (-inf, inf, 3), True),
    (defaults_alphabeta, (), (), None),
    (textbook_minimax, (), (None,), True),
    (textbook_minimax, (2,), (2,), None),
    (unnamed_alphabeta, (3,), (3,), False),
])
def test_the_call_fits_the_parameters_names(function, args, arguments, adapted):
    fitted, report = fit(function, "alphabeta", args)
    assert fitted == arguments
    assert (report["adapted"] if report else None) == adapted


def test_the_report_shows_both_signatures():
    _, report = fit(textbook_alphabeta, "alphabeta", (3,))
    assert report == {"student": "alphabeta(game, state, alpha, beta, depth)",
                      "expected": "alphabeta(game, state, depth)", "adapted": True}


def test_the_boundary_accepts_a_signature_report_and_refuses_extra_keys():
    good = (b'{"status": "ok", "items": [], "signature": {"student": "f(game, state, a)",'
            b' "expected": "f(game, state)", "adapted": false}}')
    reply = decode(good, CallReply)
    assert isinstance(reply, CallReply) and reply.signature.adapted is False
    bad = good.replace(b'"adapted": false', b'"adapted": false, "score": 60')
    assert isinstance(decode(bad, CallReply), Malformed)


def test_a_textbook_signature_is_called_correctly(grade):
    result = grade(SIGNATURES / "textbook")
    failed = [(v.check.id, v.reason) for v in result.verdicts if not v.passed]
    assert failed == [], failed


def test_unnamed_parameters_are_told_plainly(grade, course):
    result = grade(SIGNATURES / "unnamed")
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and all(v.check.function == "alphabeta" for v in failed)
    assert all(v.facts["signature"]["adapted"] is False for v in failed)
    assert not any(v.facts.get("diagnosis") for v in failed), "no mistake is named"
    catalogue = Catalogue("en")
    view = student_view(result, course, catalogue, html=False)
    text = "\n".join(str(c["message"]) for task in view["tasks"] for c in task["checks"])
    assert ("Your function's signature alphabeta(game, state, a, b, d) differs from the task's "
            "alphabeta(game, state, depth)") in text
    assert catalogue.lookup("mistake.depth-ignored") not in text


def state_first(state, game):
    pass


def game_first(game, state):
    pass


def pacman_style(gameState, depth):
    pass


def unnamed(a, b):
    pass


@pytest.mark.parametrize("function, default, first, told", [
    (game_first, "game", "game", True),
    (state_first, "game", "state", True),
    (state_first, "state", "state", True),
    (game_first, "state", "game", True),
    (pacman_style, "game", "state", True),
    (unnamed, "game", "game", False),
    (unnamed, "state", "state", False),
])
def test_the_order_of_game_and_state_is_read_from_the_names(function, default, first, told):
    from grader.conventions.signature import order
    assert order(function, default) == (first, told)


def test_a_swapped_or_unclear_order_is_reported():
    from grader.conventions.signature import describe
    assert describe(game_first, "minimax", (), "game") is None
    assert describe(state_first, "minimax", (), "game") == {
        "student": "minimax(state, game)", "expected": "minimax(game, state)",
        "adapted": True, "swapped": True, "bounds": False}
    assert describe(game_first, "minmax_decision", (), "state")["expected"] == \
        "minmax_decision(state, game)"
    unclear = describe(unnamed, "minimax", (2,), "game")
    assert unclear["unclear"] and unclear["expected"] == "minimax(game, state, depth)"
    text = Catalogue("en").text("signature.unclear", **unclear)
    assert text == ("Your function's parameters minimax(a, b) do not say which is the game and "
                    "which the state; it was called as minimax(game, state, depth).")


def test_the_state_before_the_game_is_called_as_written(grade):
    """minimax(state, game), as AIMA's games.py orders them, in the default convention."""
    result = grade(SIGNATURES / "zustand-zuerst")
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []
