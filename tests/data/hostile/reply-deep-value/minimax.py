"""A returned value nested 600 lists deep: fine for a parser, fatal for recursive rendering."""
from forge import forge


def minimax(game, state):
    forge(b'{"status": "ok", "items": [{"status": "ok", "returned": [' + b"[" * 600
          + b"]" * 600 + b', "B"], "log": {"visits": ["A"], "utility_calls": [], "evaluate_calls": [], "foreign_states": 0}}]}')
    return 3, "B"
