"""Node names as action paths, shared by the games whose states do not name their nodes.

A node is named by the actions that lead to it from the task's position, joined by ``-``
(``"4-0-8"``); the root is ``"root"``.  Two move orders that reach one board are two nodes.

Runs next to student code: standard library only, never imports ``reference``.
"""


class PathNames:
    """``node_name`` and ``identify`` for rules whose states carry no node name: a state the
    recorder did not hand out (a student's own) names no node."""

    def node_name(self, parent_name, action, child_state):
        return str(action) if parent_name == "root" else f"{parent_name}-{action}"

    def identify(self, state):
        return None
