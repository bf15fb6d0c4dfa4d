"""When a move a student returned is the game's move: the same value *and* the same type.

Python's ``==`` says ``8.0 == 8``, ``True == 1`` and (in lists) ``[8.0, 1.0] == [8, 1]``, so
a search that returns its moves as floats, or a column as ``True``, would pass every check
that compares moves with ``==`` or ``in``.  A game's moves are the values its ``actions``
gives (ints for tic-tac-toe's cells, Connect Four's columns and Kalah's pits, strings for a
tree's labels, any JSON value for a course's own game); a move of another type is not one of
them, whatever it equals.  Every check that compares a returned move with the game's moves,
and the referee of matches, asks here.

Lists and tuples count as one kind: JSON, which carries a student's reply to the parent, has
no tuples, so a course game's ``(pit, seeds)`` move arrives as a list.

Standard library only: this package is also staged beside student code (the child never
needs this module; the parent's checks and referee do, and the games are their lowest floor).
"""

from __future__ import annotations


def same_move(move, other) -> bool:
    """Whether ``move`` and ``other`` are one move: equal values of one type, element by
    element for sequences (``3.0`` is not cell 3, ``True`` is not column 1, ``"3"`` is not 3)."""
    if hasattr(other, "same_move"):
        # a self-check kit's sealed move (``grader.answers.sealed``, which this floor does not
        # import): it compares itself, by the digest of the move's JSON, which keeps types
        return other.same_move(move)
    if isinstance(move, (list, tuple)) and isinstance(other, (list, tuple)):
        return len(move) == len(other) and all(map(same_move, move, other))
    return type(move) is type(other) and move == other


def move_index(move, moves) -> int | None:
    """The position of ``move`` among ``moves`` (by ``same_move``), or None."""
    return next((index for index, candidate in enumerate(moves)
                 if same_move(move, candidate)), None)


def is_move_of(move, moves) -> bool:
    """Whether ``move`` is one of ``moves``, as a value of the same type (``moves`` may be a
    kit's sealed set, which answers by digest)."""
    if hasattr(moves, "holds_move"):
        return moves.holds_move(move)
    return move_index(move, moves) is not None


def type_name(value) -> str:
    """The name of a value's type as the feedback gives it (Python's; ``list`` for tuples,
    the returned type of a value the runner could not send as it was)."""
    if value is None:
        return "None"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict) and "__float__" in value:        # NaN or an infinity
        return "float"
    if isinstance(value, dict) and "__unsupported__" in value:  # an object, a huge integer
        return str(value["__unsupported__"])
    return type(value).__name__


def type_mismatch(move, moves) -> dict | None:
    """Why ``move`` is not one of ``moves`` when the reason is its type: the facts
    ``observed_type`` and ``expected_type`` (``float``, ``int``) for a move whose type is none
    of the moves' types; None for a move of a right type (an ordinary wrong move), for None
    (no move) and where there are no moves."""
    if move is None or hasattr(moves, "holds_move") or not moves:
        return None     # no moves, or a kit's sealed ones: their types are not written down
    kinds = sorted({type_name(candidate) for candidate in moves})
    observed = type_name(move)
    if observed in kinds:
        return None
    return {"observed_type": observed, "expected_type": " / ".join(kinds)}
