"""Sealed answers (grader/answers/sealed.py): what a self-check kit holds of the reference's answers,
compared by digesting a student's plain answer, and never shown."""

import pytest

from grader.answers.numbers import same_number
from grader.answers.sealed import (WITHHELD, Seal, SealedError, open_count, open_set, open_value,
                           open_visits, padded_length, seal_count, seal_set, seal_value,
                           seal_visits, unpack)

SEAL = Seal(b"sixteen bytes!!!")
REFERENCE = ["A", "B", "B1", "B2", "C", "C1"]


def sealed_visits(visits=REFERENCE, parts=("full", "set", "chain", "members", "count")):
    return open_visits(SEAL, "call:0/visits", seal_visits(SEAL, "call:0/visits", visits, parts),
                       upper=20)


def test_a_sealed_visit_sequence_tells_where_a_student_s_first_differs_and_not_more():
    visits = sealed_visits()
    assert visits == list(REFERENCE) and visits.first_difference(REFERENCE) is None
    assert visits.first_difference(["A", "B", "B2"]) == {"index": 3, "observed": "B2",
                                                         "ended": False}
    # the student stops early: the reference goes on, which node it visits is not said
    assert visits.first_difference(["A", "B"]) == {"index": 3, "observed": None, "ended": False}
    # the student goes on where the reference stops
    assert visits.first_difference([*REFERENCE, "D"]) == {"index": 7, "observed": "D",
                                                          "ended": True}
    assert visits.first_difference([]) == {"index": 1, "observed": None, "ended": False}
    assert visits != ["A", "B", "B1", "B2", "C"]


def test_a_sealed_visit_sequence_answers_membership_and_its_set_and_count_by_trying():
    visits = sealed_visits()
    assert [node for node in ["A", "C1", "D", "B3"] if visits.contains(node)] == ["A", "C1"]
    assert visits.same_set(list(reversed(REFERENCE))) and not visits.same_set(REFERENCE[:-1])
    assert visits.count.number() == len(REFERENCE)
    with pytest.raises(SealedError):
        len(visits)
    with pytest.raises(SealedError):
        list(visits)


def test_the_lists_of_a_sealed_sequence_are_padded_so_that_their_length_is_no_count():
    stored = seal_visits(SEAL, "c", REFERENCE, ("chain", "members"))
    assert len(unpack(stored["chain"])) == len(unpack(stored["members"])) == \
        padded_length(len(REFERENCE)) == 8
    assert padded_length(7) == 8 and padded_length(8) == 16
    # the whole sequence's digest is not the chain's end marker: it does not find the end
    whole = seal_visits(SEAL, "c", REFERENCE, ("full", "chain"))
    assert unpack(whole["full"])[0] not in unpack(whole["chain"])


def test_a_sealed_value_matches_the_numbers_same_number_takes_as_equal():
    third = open_value(SEAL, "v", seal_value(SEAL, "v", 7 / 3))
    assert same_number(2.333333333333333, third) and same_number(third, 7 / 3)
    assert not same_number(2.3334, third)
    three = open_value(SEAL, "w", seal_value(SEAL, "w", 3))
    assert same_number(3, three) and same_number(3.0, three)
    assert not same_number(-3, three) and not same_number(4, three)
    vector = open_value(SEAL, "x", seal_value(SEAL, "x", [1, 2, 6]))
    assert vector.length == 3 and same_number([1, 2, 6], vector)
    assert not same_number([1, 2, 7], vector)
    # the same value in another place has another digest
    assert seal_value(SEAL, "v", 3) != seal_value(SEAL, "w", 3)


def test_sealed_moves_and_counts_compare_without_being_listed():
    action = open_value(SEAL, "a", seal_value(SEAL, "a", "B", move=True), move=True)
    assert "B" == action and "C" != action and action != 3
    assert action.same_move("B") and not action.same_move(["B"])
    optimal = open_set(SEAL, "o", seal_set(SEAL, "o", ["B", "D"]))
    assert "D" in optimal and "C" not in optimal and None not in optimal
    assert optimal.holds_move("B")
    # a move is only its own type's: 8.0 is not cell 8, True not column 1
    cell = open_value(SEAL, "c", seal_value(SEAL, "c", 8, move=True), move=True)
    assert cell == 8 and cell != 8.0
    columns = open_set(SEAL, "k", seal_set(SEAL, "k", [1, 3]))
    assert 1 in columns and True not in columns and 1.0 not in columns
    with pytest.raises(SealedError):
        list(optimal)
    assert open_count(SEAL, "n", seal_count(SEAL, "n", 88), upper=200).number() == 88
    with pytest.raises(SealedError, match="damaged"):
        open_count(SEAL, "n", seal_count(SEAL, "n", 88), upper=50).number()


def test_nothing_sealed_ever_prints_and_what_a_kit_withholds_cannot_be_compared():
    value = open_value(SEAL, "v", seal_value(SEAL, "v", 3))
    for sealed in (value, sealed_visits(), WITHHELD):
        with pytest.raises(SealedError, match="cannot be shown"):
            str(sealed)
        with pytest.raises(SealedError):
            f"{sealed}"
    with pytest.raises(SealedError):
        same_number(3, WITHHELD)
    with pytest.raises(SealedError):
        "B" in WITHHELD
