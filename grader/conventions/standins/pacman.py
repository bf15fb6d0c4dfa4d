"""A stand-in for the Pacman projects' ``pacman`` module, imported for type hints only."""


class GameState:
    """The interface the grader's tree states offer (see conventions/multi_agent.py)."""
