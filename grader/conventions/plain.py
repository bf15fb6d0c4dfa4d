"""``name(*item, *args)``: functions of plain values, such as ``evaluate(state, player)``."""


def call(module, name, item, args):
    return getattr(module, name)(*item, *args), None
