"""An error record with keys the parent does not know (and that collide with its own names)."""
from forge import forge


def minimax(game, state):
    forge(b'{"status": "import-error", "error": {"message": "boom", "check": 1, '
          b'"reason": "ok", "points": 99}}')
    return 0, None
