"""A reply nested 300,000 levels deep: a recursive JSON parser in the parent would die."""
from forge import forge


def minimax(game, state):
    forge(b'{"status": "ok", "items": [{"status": "ok", "returned": ' + b"[" * 300_000
          + b"]" * 300_000 + b"}]}")
    return 0, None
