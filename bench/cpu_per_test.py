"""A pytest plugin for ``bench/suite_time.py --cpu``: the CPU time of each test (setup, call
and teardown), of its own process and of the children it waited for (the grader commands it
ran, the sandboxed children a batch reaped), written per worker into the folder named by
``SUITE_CPU_DIR`` when the session ends.  A child reaped at a module fixture's teardown (a
Dask cluster's workers, say) counts for the test that ended the module; a process nobody in
the test's tree waited for (a sandboxed grandchild killed in its PID namespace) is missed."""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

_ROWS: list[tuple[str, float, float, float]] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    (own, children), start = _cpu(), time.monotonic()
    yield
    (own_after, children_after), end = _cpu(), time.monotonic()
    _ROWS.append((item.nodeid, own_after - own, children_after - children, end - start))


def pytest_sessionfinish(session):
    folder = os.environ.get("SUITE_CPU_DIR")
    if folder and _ROWS:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        (Path(folder) / f"{worker}.json").write_text(json.dumps(_ROWS))
