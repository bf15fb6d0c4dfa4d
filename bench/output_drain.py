"""What it costs the parent to drain a child's output (``grader/sandbox/captured.py``): a
child prints ``--megabytes`` MB during one request, and the parent's CPU time for that
request is measured (it reads the pipes while it waits for the reply), with the child's.

    python bench/output_drain.py [--megabytes 50] [--runs 7] [--sandbox bubblewrap]

Three ways of printing, each its own module imported by a ``load`` request in a fresh child:
``lines`` (print of 200-byte lines, as a search printing a line per node), ``blocks``
(``sys.stdout.write`` of 64 KiB) and ``quiet`` (the same loop as ``lines``, printing into
an ``io.StringIO``: what the child's own work costs the parent, which is next to nothing).
Each is run with the pause the parent takes after a read that found a pipe less than half
full (``captured.DRAIN_PAUSE``, 2 ms) and with none (every write the child makes wakes the
parent), alternately within each round; the figures are medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.sandbox import captured  # noqa: E402
from grader.sandbox.base import ResourceLimits
from grader.sandbox.levels import best_level  # noqa: E402
from grader.sandbox.launcher import Child
from grader.sandbox.staging import stage_runner  # noqa: E402

PRINTERS = {
    "lines": """
import sys
LINE = "x" * 199
for _ in range({megabytes} * 1_000_000 // 200):
    print(LINE)
""",
    "blocks": """
import sys
BLOCK = "x" * 65536
for _ in range({megabytes} * 1_000_000 // 65536):
    sys.stdout.write(BLOCK)
""",
    "quiet": """
import io
LINE = "x" * 199
sink = io.StringIO()
for _ in range({megabytes} * 1_000_000 // 200):
    print(LINE, file=sink)
    if sink.tell() > 1 << 20:
        sink = io.StringIO()
""",
}


def one_request(script: Path, folder: Path, module: str, level: str, pause: float) -> dict:
    captured.DRAIN_PAUSE = pause
    with tempfile.TemporaryDirectory() as scratch:
        child = Child(script, folder, Path(scratch), level, ResourceLimits(cpu_seconds=120))
        try:
            child.start()
            parent_before = time.process_time()
            reply = json.loads(child.request({"op": "load", "module": module}, 60))
            parent = time.process_time() - parent_before
            assert reply["status"] == "ok", reply
            output = child.output()
        finally:
            child.stop()
    return {"parent": parent, "child": child.last_cpu, "wall": child.last_wall,
            "printed": len(output["stdout"]) + output["stdout_dropped"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sandbox", default=None)
    args = parser.parse_args()
    level = args.sandbox or best_level()
    work = Path(tempfile.mkdtemp(prefix="output-drain-"))
    script = stage_runner(work / "runner")
    folder = work / "submission"
    folder.mkdir()
    for name, source in PRINTERS.items():
        (folder / f"{name}.py").write_text(source.format(megabytes=args.megabytes))
    pauses = {"pause 2 ms": captured.DRAIN_PAUSE, "no pause": 0.0}
    figures = {(name, label): [] for name in PRINTERS for label in pauses}
    for _ in range(args.runs):
        for name in PRINTERS:
            for label, pause in pauses.items():
                figures[name, label].append(one_request(script, folder, name, level, pause))
    print(f"{args.megabytes} MB printed in one request, {level} level, median of {args.runs}:")
    for (name, label), runs in figures.items():
        def median(key):
            return statistics.median(run[key] for run in runs)
        parent, child = median("parent"), median("child")
        print(f"  {name:6s} {label:10s}  parent CPU {parent * 1000:7.1f} ms  "
              f"child CPU {child * 1000:7.1f} ms  wall {median('wall') * 1000:7.1f} ms  "
              f"printed {median('printed') / 1e6:5.1f} MB  parent/child "
              f"{parent / max(child, 1e-9):5.1%}")


if __name__ == "__main__":
    main()
