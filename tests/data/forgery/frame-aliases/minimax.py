import sys as s
import inspect
import traceback
from sys import _getframe as here
from inspect import currentframe


def up(n):
    return s._getframe(n)


def via_getattr():
    return getattr(sys_alias, "_getframe")(2)


sys_alias = s
grab = sys_alias._getframe


def from_stack():
    return [info.frame for info in inspect.stack()]


def from_exception():
    try:
        raise ValueError
    except ValueError:
        tb = s.exc_info()[2]
        return tb.tb_frame


def tracer(frame, event, arg):
    return tracer


s.settrace(tracer)


def minimax(game, state):
    caller = here()
    other = currentframe()
    walked = list(traceback.walk_stack(None))
    return 3, "B"
