"""Limits are the child's own CPU time, with a wall-clock backstop: a child that computes is
stopped by its CPU time (its processes' together), one that sleeps by the backstop, and the
message says which."""

import json
import subprocess
import sys
import time

import pytest

from grader.calls import Call, canonical
from grader.sandbox.run import SubmissionRun
from grader.sandbox.processes import tree_cpu_seconds

from conftest import DATA

TREE = canonical({"kind": "tree", "root": "A", "nodes": {"A": {"children": ["B"]},
                                                          "B": {"value": 1}}})


def run_once(child_script, folder, tmp_path, limit):
    call = Call("minimax", "minimax", "game", (TREE,), time_limit=limit)
    with SubmissionRun(child_script, folder, 60, "process", tmp_path) as run:
        observation = run.run_call(call)
        spent = run.spent
    return observation, spent


def test_a_child_that_computes_is_stopped_by_its_cpu_time(child_script, tmp_path):
    observation, spent = run_once(child_script, DATA / "timing" / "spins", tmp_path, 1.0)
    assert observation.status == "timeout"
    assert observation.error["wall"] is False
    assert spent >= 1.0          # the CPU time of both spinning processes was counted


def test_a_child_that_sleeps_is_stopped_by_the_backstop_and_told_so(child_script, tmp_path):
    observation, spent = run_once(child_script, DATA / "timing" / "sleeps", tmp_path, 0.5)
    assert observation.status == "timeout"
    assert observation.error["wall"] is True and observation.error["wall_seconds"] == 5.5
    assert spent < 0.5           # it hardly used CPU time


def test_the_process_tree_fallback_counts_descendants(tmp_path):
    script = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    end = time.process_time() + 0.5\n"
              "    while time.process_time() < end: pass\n"
              "    time.sleep(60)\n"
              "time.sleep(60)\n")
    process = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while tree_cpu_seconds(process.pid) < 0.5 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert tree_cpu_seconds(process.pid) >= 0.5
    finally:
        subprocess.run(["pkill", "-P", str(process.pid)])
        process.kill()
        process.wait()
