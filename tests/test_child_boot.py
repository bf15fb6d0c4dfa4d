"""The child's interpreter imports the staged runner from its bytecode (``launcher.CHILD_BOOT``):
run as a script, ``child.py`` was compiled from source at every child's start."""

import os
import subprocess
from pathlib import Path

from grader.sandbox.base import ResourceLimits
from grader.sandbox.launcher import command
from grader.sandbox.staging import stage_runner

from conftest import ROOT


def test_the_child_loads_the_runner_from_its_staged_bytecode_and_names_its_script(tmp_path):
    stage = tmp_path / "stage"
    script = stage_runner(stage)
    requests_read, requests_write = os.pipe()
    replies_read, replies_write = os.pipe()
    os.close(requests_write)        # no request: the runner starts, reads the end and exits
    argv = command("process", stage, script, ROOT / "submissions" / "korrekt", requests_read,
                   replies_write, ResourceLimits(), None)
    # the command line still names the runner's script (what tools that list children see)
    assert str(script) in argv
    verbose = [argv[0], "-v", *argv[1:]]
    try:
        done = subprocess.run(verbose, pass_fds=(requests_read, replies_write), cwd=tmp_path,
                              env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
                              capture_output=True, text=True, timeout=60)
    finally:
        os.close(requests_read)
        os.close(replies_write)
        os.close(replies_read)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = [Path(line.split(" from ", 1)[1].strip("'")) for line in done.stderr.splitlines()
              if line.startswith("# code object from")]
    child = script.parent / "__pycache__"
    assert any(path.parent == child and path.name.startswith("child.") for path in loaded)
    assert "bytecode is stale" not in done.stderr
