"""A student's own helper module that happens to share a standard module's name."""


def lru_cache(*args, **kwargs):
    raise RuntimeError("the student's functools, not the standard one")
