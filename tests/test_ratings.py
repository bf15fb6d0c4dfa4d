"""Ratings with uncertainty (grader/play/ratings.py, openskill's Plackett-Luce model): the
results of games in, each player's skill with an interval out, and which players the games
tell apart."""

import random

import pytest

from grader.play.ratings import Z_95, leaderboard, rate, separated


def games_between(strength: dict, per_pair: int, seed: int) -> list:
    """A seeded round robin: ``per_pair`` games per pair, seats alternating, results drawn
    with Elo-like win probabilities."""
    rng, games = random.Random(seed), []
    names = sorted(strength)
    for round_ in range(per_pair):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                first, second = (a, b) if round_ % 2 == 0 else (b, a)
                p = 1 / (1 + 10 ** ((strength[second] - strength[first]) / 400))
                games.append((first, second, 1 if rng.random() < p else 0))
    rng.shuffle(games)
    return games


def test_the_stronger_players_come_first_and_the_clearly_different_are_told_apart():
    strength = {"alphabeta:4": 1200, "alphabeta:2": 800, "greedy": 400, "random": 0}
    ratings = rate(games_between(strength, 16, seed=3))
    board = [r.player for r in leaderboard(ratings)]
    assert board == ["alphabeta:4", "alphabeta:2", "greedy", "random"]
    assert separated(ratings["alphabeta:4"], ratings["random"])
    assert separated(ratings["alphabeta:2"], ratings["random"])
    for rating in ratings.values():
        assert rating.games == 16 * 3 and rating.wins + rating.draws + rating.losses == 48
        assert rating.low < rating.mu < rating.high
        assert rating.high - rating.mu == pytest.approx(Z_95 * rating.sigma)


def test_more_games_give_narrower_intervals():
    strength = {"a": 300, "b": 150, "c": 0}
    few = rate(games_between(strength, 4, seed=1))
    many = rate(games_between(strength, 40, seed=1))
    assert all(many[p].sigma < few[p].sigma for p in strength)


def test_equal_players_are_not_told_apart_and_draws_count_half():
    games = [("a", "b", 0.5)] * 10 + [("a", "b", 1), ("b", "a", 1)]
    ratings = rate(games, players=["newcomer"])
    assert not separated(ratings["a"], ratings["b"])
    assert (ratings["a"].wins, ratings["a"].draws, ratings["a"].losses) == (1, 10, 1)
    assert ratings["a"].points == ratings["b"].points == 6
    newcomer = ratings["newcomer"]
    assert newcomer.games == 0 and newcomer.mu == 25 and newcomer.sigma == pytest.approx(25 / 3)


def test_the_same_games_in_the_same_order_give_the_same_ratings():
    games = games_between({"x": 200, "y": 0, "z": 100}, 6, seed=9)
    assert rate(games) == rate(list(games))


@pytest.mark.parametrize("game", [("a", "a", 1), ("a", "b", 2), ("a", "b", -1), ("a", "b", "1")])
def test_impossible_results_are_refused(game):
    with pytest.raises(ValueError):
        rate([game])
