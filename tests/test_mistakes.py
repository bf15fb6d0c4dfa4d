"""Every mistake of the catalogue, submitted as a student, is caught on the bundled course and
named as itself in the feedback."""

import functools
import shutil
import textwrap

import pytest

from grader.report.messages import Catalogue
from grader.report.views import student_view
from grader.tasks import load_course
from reference.variants import MISTAKES_OF

from conftest import DATA, ROOT

# Mistakes that behave identically on every tree: alpha-beta without any cut; and, since the
# sheet's Value(state, sign) uses the sign only at the leaves, an unflipped sign is an
# unsigned leaf.
SAME_BEHAVIOUR = [{"alpha-never-raised", "window-not-passed", "continue-not-break"},
                  {"sign-not-flipped", "leaf-not-signed"}]
# Mistakes that only show with several MIN players or with chance nodes (the bundled course has
# neither), and the one that only shows where the task cuts on strict inequality (the bundled
# course cuts on equality): every other mistake is caught on the bundled course itself.
MULTI_PLAYER = {"strict-alternation", "chance-as-min"}
NEEDS_STRICT_PRUNING = {"equality-cut"}
# max^n's mistakes need an n-player tree: they are graded on the three-player course.
N_PLAYER_COURSE = ROOT / "courses" / "three-player" / "tasks"
# Negating on every ply is right wherever the players alternate: it shows only where a move
# can give its player another turn (Kalah).
EXTRA_TURNS = {"negate-every-ply"}
# The search techniques after alpha-beta are graded on their own courses, whose positions make
# each of their mistakes show (quiescence search needs a task's noisy positions).
TRANSPOSITION_FUNCTIONS = ("alphabeta_tt", "negascout", "mtdf")
TECHNIQUE_COURSES = {"order": ROOT / "courses" / "zugsortierung" / "tasks",
                     "alphabeta_killer": ROOT / "courses" / "zugsortierung" / "tasks",
                     "quiescence": ROOT / "courses" / "ruhesuche" / "tasks",
                     **{function: ROOT / "courses" / "transposition" / "tasks"
                        for function in TRANSPOSITION_FUNCTIONS}}
# Iterative deepening and the principal variation have a course of their own, where
# tests/test_iterative_pv.py grades one example student per mistake.
OWN_COURSE = {"iterative_deepening", "principal_variation"}
CASES = [(function, mistake) for function, mistakes in MISTAKES_OF.items()
         for mistake in mistakes if function not in OWN_COURSE]


def write_mistaken_student(folder, function, mistake):
    """A submission whose `function` has exactly `mistake`; the other functions are correct.

    The student's code is the catalogue's own variant, copied into the submission: it runs in
    the child like any student code and never imports `reference`.
    """
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "reference" / "variants.py", folder / "_variants.py")
    shutil.copy(ROOT / "submissions" / "korrekt" / "evaluation.py", folder / "evaluation.py")
    mistakes = {"minimax": None, "alphabeta": None, "negamax": None, "expectimax": None,
                "maxn": None, "alphabeta_killer": None, "order": None, "quiescence": None,
                function: mistake}
    (folder / "killer.py").write_text(textwrap.dedent(f"""
        from _variants import killer_family

        def alphabeta_killer(game, state, depth):
            return killer_family(game, state, depth, mistake={mistakes['alphabeta_killer']!r})
    """))
    (folder / "zugsortierung.py").write_text(textwrap.dedent(f"""
        from _variants import order_family

        def order(game, state, actions):
            return order_family(game, state, actions, mistake={mistakes['order']!r})
    """))
    (folder / "maxn.py").write_text(textwrap.dedent(f"""
        from _variants import maxn_family

        def maxn(game, state):
            return maxn_family(game, state, mistake={mistakes['maxn']!r},
                               alliances=[list(game.coalition(p)) for p in game.players()])
    """))
    (folder / "ruhesuche.py").write_text(textwrap.dedent(f"""
        from _variants import quiescence_family

        def quiescence(game, state, depth):
            return quiescence_family(game, state, depth, mistake={mistakes['quiescence']!r},
                                     extension=2)
    """))
    (folder / "expectimax.py").write_text(textwrap.dedent(f"""
        from _variants import expectimax_family

        def expectimax(game, state):
            return expectimax_family(game, state, mistake={mistakes.get('expectimax')!r})
    """))
    shutil.copy(ROOT / "reference" / "transposition_variants.py",
                folder / "_transposition_variants.py")
    faulty = {name: mistake if name == function else None for name in TRANSPOSITION_FUNCTIONS}
    (folder / "transposition.py").write_text(textwrap.dedent(f"""
        from _transposition_variants import FAMILIES

        def alphabeta_tt(game, state, depth=None):
            return FAMILIES["alphabeta_tt"](game, state, depth, mistake={faulty['alphabeta_tt']!r})

        def negascout(game, state, depth=None):
            return FAMILIES["negascout"](game, state, depth, mistake={faulty['negascout']!r})

        def mtdf(game, state, depth=None):
            return FAMILIES["mtdf"](game, state, depth, mistake={faulty['mtdf']!r})
    """))
    (folder / "minimax.py").write_text(textwrap.dedent(f"""
        from _variants import minimax_family, negamax_family

        def minimax(game, state, depth=None):
            return minimax_family(game, state, depth, pruning=False,
                                  mistake={mistakes['minimax']!r})

        def alphabeta(game, state, depth=None):
            return minimax_family(game, state, depth, mistake={mistakes['alphabeta']!r})

        def negamax(game, state, depth=None):
            return negamax_family(game, state, depth, mistake={mistakes['negamax']!r})
    """))


@functools.cache
def course_at(path):
    """The course at ``path``, loaded once for this module: the ``grade`` fixture computes a
    course's reference answers once per course object, and some 40 mistakes are graded on
    the same few courses."""
    return load_course(path)


@pytest.fixture(scope="module")
def strict_course(tmp_path_factory):
    """The bundled course with the other pruning rule (cut only when beta < alpha)."""
    folder = tmp_path_factory.mktemp("strict")
    text = (ROOT / "tasks" / "blatt3.yaml").read_text()
    (folder / "blatt3.yaml").write_text(text.replace("prune_on_equality: true",
                                                     "prune_on_equality: false"))
    return load_course(folder)


@pytest.mark.parametrize("function, mistake", CASES)
def test_catalogue_mistake_is_caught_and_named(function, mistake, tmp_path, grade, strict_course,
                                               course):
    write_mistaken_student(tmp_path / mistake, function, mistake)
    graded_on = course  # the bundled course
    if function == "maxn":
        graded_on = course_at(N_PLAYER_COURSE)
    elif function in TECHNIQUE_COURSES:
        graded_on = course_at(TECHNIQUE_COURSES[function])
    elif mistake in MULTI_PLAYER:
        graded_on = course_at(DATA / "conventions" / "multi-player" / "tasks.yaml")
    elif mistake in NEEDS_STRICT_PRUNING:
        graded_on = strict_course
    elif mistake in EXTRA_TURNS:
        graded_on = course_at(ROOT / "courses" / "kalah" / "tasks")
    result = grade(tmp_path / mistake, None if graded_on is course else graded_on)
    failed = [v for v in result.verdicts if not v.passed]
    assert failed, "the mistake is caught"
    assert result.score < result.max_score, "the mistake costs points"
    assert all(v.check.function == function for v in failed), "only its own function loses"
    named = {tuple(v.facts.get("diagnosis") or ()) for v in failed}
    assert any(mistake in names for names in named), f"diagnosed as {named}"
    alike = {m for names in named for m in names} - {mistake}
    for verdict in failed:
        if verdict.check.kind == "random-trees" and "example" in verdict.facts:
            assert verdict.facts["shrunk"], "the failing tree was shrunk"
            assert verdict.facts["example"]["nodes"] <= 10, verdict.facts["example"]["tree"]
    same = next((group for group in SAME_BEHAVIOUR if mistake in group), set())
    assert alike <= same, f"only mistakes that behave identically share a diagnosis: {named}"
    catalogue = Catalogue(graded_on.language)
    assert catalogue.lookup(f"mistake.{mistake}") in feedback_text(result, graded_on, catalogue), \
        "the student's feedback page names the mistake"


def feedback_text(result, course, catalogue) -> str:
    """Everything the student's page says about the checks, notes included."""
    view = student_view(result, course, catalogue, html=False)
    return "\n".join([str(n["message"]) for n in view["notes"]]
                     + [str(n["message"]) for task in view["tasks"] for n in task["notes"]]
                     + [str(c["message"]) for task in view["tasks"] for c in task["checks"]])


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_mistake_has_words_and_a_pseudocode_line_in_each_language(language):
    catalogue = Catalogue(language)
    for mistake in {m for mistakes in MISTAKES_OF.values() for m in mistakes}:
        assert catalogue.lookup(f"mistake.{mistake}")
        assert catalogue.lookup(f"pseudocode.{mistake}")


def test_the_english_page_quotes_english_pseudocode(tmp_path, grade, course):
    write_mistaken_student(tmp_path / "early", "alphabeta", "horizon-early")
    result = grade(tmp_path / "early")
    english = feedback_text(result, course, Catalogue("en"))
    german = feedback_text(result, course, Catalogue("de"))
    assert "“if d = 0 or s is terminal: return E(s)”" in english and "oder" not in english
    assert "„if d=0 oder s terminal: return E(s)“" in german
