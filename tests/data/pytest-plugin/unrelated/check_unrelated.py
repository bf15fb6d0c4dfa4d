"""A project's own test, run where the grader is installed but not asked for: pytest has
loaded the grader's plugin module (or, with -p no:grader, not even that) and nothing else of
the grader.  tests/test_pytest_plugin.py names the modules it expects in
GRADER_MODULES_EXPECTED."""

import os
import sys

WATCHED = ("grader", "reference", "yaml", "jinja2", "rich", "msgspec")


def test_nothing_of_the_grader_is_loaded_but_its_plugin_module(request):
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in WATCHED)
    assert loaded == os.environ["GRADER_MODULES_EXPECTED"].split()
    assert not request.config.pluginmanager.has_plugin("grader-course")
