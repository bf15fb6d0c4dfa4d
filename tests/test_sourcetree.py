"""Parsing a submission's source while the batch's other threads parse too (CPython 3.11's AST
constructor shares its recursion bookkeeping between threads)."""

import threading

from grader.submissions.forgery import syntax

from conftest import ROOT


def test_a_scan_beside_a_shrinking_search_is_not_a_scanner_error(grade):
    # Shrinking strikter-schnitt's counterexamples runs Hypothesis, which builds syntax trees
    # too; without the retry, a scan here (the parse forgery.scan makes of every file) failed
    # in every run tried with "SystemError: AST constructor recursion depth mismatch", and in
    # a batch with --jobs 3 a correct student was listed as needing a person for it.
    source = (ROOT / "submissions" / "korrekt" / "minimax.py").read_text()
    failures, scans, done = [], [0], threading.Event()

    def scan():
        while not done.is_set():
            try:
                syntax.scan_source(source)
            except Exception as error:  # noqa: BLE001 - what the batch would call a scanner error
                failures.append(repr(error))
            scans[0] += 1
    scanner = threading.Thread(target=scan)
    scanner.start()
    try:
        result = grade(ROOT / "submissions" / "strikter-schnitt")
    finally:
        done.set()
        scanner.join()
    assert any(v.facts.get("example") for v in result.verdicts), "nothing was shrunk"
    assert scans[0] > 100
    assert failures == []
