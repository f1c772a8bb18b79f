"""The reinforcement deck's questions, answered with intervals: what is each card worth, how many
handicap cards bring a weaker agent level with a stronger one, and is the deck fairer than the
Okapi alone.

Every game is played from a fixed deck order drawn from the seed (agents never see it: they
search what their player may know), so the games of two arms can be paired: the same seed gives
the same order, the same agents' random choices and the same layout, and only the thing asked
about differs. Seats alternate from game to game so that the first player's advantage cancels.
"""
from __future__ import annotations

import math

import random
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Sequence

from ...agents import make_agent, play_match
from ...core.numbers import plural
from ...core.workers import parallel_map
from . import KIWARA, KiwaraVariant, new_game
from .layout import Layout
from ...lab.matches import PlaytestError
from ...core.stats import (Proportion, Summary, TestResult, bounded_summary, proportion, sign_test,
                           summarise)


def _game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def _play(task) -> tuple[tuple[int, int], int | None, dict[str, int]]:
    """One game (this may run in a worker): the final totals, the winner and, for each card
    used, the move number (1 for the opening) of its first use."""
    layout, variant, order, specs, seed = task
    agents = [make_agent(spec, KIWARA) for spec in specs]    # refuses a cheat seeing the order
    final, moves = play_match(new_game(layout, variant, order), agents, random.Random(seed))
    uses: dict[str, int] = {}
    for number, move in enumerate(moves, start=1):
        if move.is_card:
            uses.setdefault(move.card, number)
    scoring = final.scoring()
    return scoring.totals, scoring.winner, uses


def _result(winner: int | None, seat: int) -> float:
    """1 for a win of ``seat``, ½ for a draw, 0 for a loss."""
    return 0.5 if winner is None else float(winner == seat)


def _deck_variant(variant: KiwaraVariant | None, deck: Any,
                  keep_handicap: bool = False) -> KiwaraVariant:
    """``variant`` (default the classic rules) with a deck (``deck``, default the variant's own).
    A variant that already plays with a deck keeps its handicap deal if ``keep_handicap``: the
    value and handicap studies deal their cards on top of it; otherwise none is dealt."""
    base = variant or KiwaraVariant()
    handicap = tuple(base.handicap) if keep_handicap and base.deck_game else (0, 0)
    return replace(base, reinforcement="deck", deck=deck if deck is not None else base.deck,
                   handicap=handicap)


def _dealt(order: list[str], first: int, card: str | None = None,
           holder: int = 0) -> list[str]:
    """``order`` (top first) with ``card`` put where the deal gives it to ``holder`` as its
    first card: the first player's ``first`` cards are dealt before the second's, so the
    second player's card goes after them. Without a card, ``order`` unchanged."""
    if card is None:
        return list(order)
    at = 0 if holder == 0 else first
    return order[:at] + [card] + order[at:]


def _extra_first(order: list[str], handicap: tuple[int, int], k: int) -> list[str]:
    """``order`` rearranged so that the deal of ``handicap`` plus ``k`` cards more to the first
    player gives both players the cards the plain deal of ``handicap`` gave them (the first
    ``a`` to the first player, the next ``b`` to the second), the first player's ``k`` more
    being the next ``k``: a level changes only the cards it adds. (For the second player the
    deal's order already does that.)"""
    a, b = handicap
    return order[:a] + order[a + b:a + b + k] + order[a:a + b] + order[a + b + k:]


def _add(handicap: tuple[int, int], seat: int, k: int) -> tuple[int, int]:
    """``handicap`` with ``k`` more cards for ``seat``."""
    return (handicap[0] + k, handicap[1]) if seat == 0 else (handicap[0], handicap[1] + k)


def _check(layouts: Sequence[Layout], games: int) -> None:
    if not layouts:
        raise PlaytestError("no layout to play on")
    if games < 1:
        raise PlaytestError(f"games must be at least 1, got {games}")


@dataclass(frozen=True)
class CardValue:
    """One card's worth to its holder, from paired games with and without it in hand from the
    start: ``points`` is what the card gains its holder, the holder's margin with it minus
    without (per pair), ``win_with`` and ``win_without`` the holder's score rates (draws half),
    ``win_change`` the paired difference. ``used`` is None for a points card: it is never
    played, it scores when held."""

    name: str
    effect: str
    points: Summary
    win_with: Proportion
    win_without: Proportion
    win_change: Summary
    used: Proportion | None   # games where the holder used it (an action card; None: points)
    used_at: Summary          # the move number of its use, in the games where it was used

    def to_json(self) -> dict:
        return {"name": self.name, "effect": self.effect, "points": self.points.to_json(),
                "win_with": self.win_with.to_json(), "win_without": self.win_without.to_json(),
                "win_change": self.win_change.to_json(),
                "used": None if self.used is None else self.used.to_json(),
                "scores_when_held": self.used is None, "used_at": self.used_at.to_json()}


def card_values(layouts: Sequence[Layout], agents: tuple[str, str] = ("greedy", "greedy"), *,
                games: int = 100, seed: int = 0, variant: KiwaraVariant | None = None,
                deck: Any = None, cards: Iterable[str] | None = None,
                workers: int | None = 1) -> list[CardValue]:
    """Each card's worth (of ``cards``, default every distinct card of the deck), from ``games``
    pairs per card. In pair i the holder sits in seat i mod 2 and holds the card from the start
    (dealt as a one-card handicap); its twin is the same game without that card in the deck.
    The rest of the deck is in the same seeded order in both, so the Okapi moment draws alike.

    A deck variant's own handicap deal is kept in both games of a pair (the same cards to the
    same seats): the card studied is dealt to its holder on top of it."""
    _check(layouts, games)
    base = _deck_variant(variant, deck, keep_handicap=True)
    all_cards = list(base.cards)
    names = list(dict.fromkeys(c.name for c in all_cards)) if cards is None else list(cards)
    unknown = [n for n in names if n not in {c.name for c in all_cards}]
    if unknown:
        raise PlaytestError(f"no card {unknown[0]!r} in the deck (cards: "
                            f"{', '.join(dict.fromkeys(c.name for c in all_cards))})")
    results = []
    for name in names:
        card = next(c for c in all_cards if c.name == name)
        rest = list(all_cards)
        rest.remove(card)
        if sum(base.handicap) > len(rest):
            raise PlaytestError(f"the variant's handicap {list(base.handicap)} deals more cards "
                                f"than the deck has without {name!r} ({len(rest)})")
        without = replace(base, deck=tuple(rest))
        tasks, holders = [], []
        for i in range(games):
            game_seed = _game_seed(seed, i)
            order = [c.name for c in random.Random(game_seed).sample(rest, len(rest))]
            holder = i % 2
            with_card = replace(base, handicap=_add(base.handicap, holder, 1))
            layout = layouts[i % len(layouts)]
            tasks += [(layout, with_card, _dealt(order, base.handicap[0], name, holder), agents,
                       game_seed),
                      (layout, without, order, agents, game_seed)]
            holders.append(holder)
        played = list(parallel_map(_play, tasks, workers))
        margins, changes, with_score, without_score, used_at = [], [], 0.0, 0.0, []
        for i, holder in enumerate(holders):
            (totals_a, winner_a, used_a), (totals_b, winner_b, _) = played[2 * i], played[2 * i + 1]
            margin_a = totals_a[holder] - totals_a[1 - holder]
            margin_b = totals_b[holder] - totals_b[1 - holder]
            margins.append(margin_a - margin_b)
            a, b = _result(winner_a, holder), _result(winner_b, holder)
            with_score, without_score = with_score + a, without_score + b
            changes.append(a - b)
            if name in used_a:
                used_at.append(used_a[name])
        results.append(CardValue(name, card.effect, summarise(margins),
                                 proportion(with_score, games), proportion(without_score, games),
                                 bounded_summary(changes, -1.0, 1.0),   # a change of rate
                                 None if card.passive else proportion(len(used_at), games),
                                 summarise(used_at, (0.0, math.inf))))     # a turn
    return results


@dataclass(frozen=True)
class HandicapLevel:
    """The weaker agent's results when it starts with ``cards`` handicap cards (on top of the
    variant's own deal); ``results`` its result per game (1, ½, 0: game i of every level
    plays the same seed, seat and deck order, so two levels' results pair up)."""

    cards: int
    weaker_score: Proportion      # wins + draws / 2
    margin: Summary               # weaker's total minus stronger's
    results: tuple[float, ...] = field(default=(), repr=False)
    margins: tuple[int, ...] = field(default=(), repr=False)

    def to_json(self) -> dict:
        return {"cards": self.cards, "weaker_score": self.weaker_score.to_json(),
                "margin": self.margin.to_json()}


@dataclass(frozen=True)
class LevelStep:
    """From one level to the next, paired by seed: the change of the weaker agent's score rate
    (a t interval on the per-game differences, clipped to [−1, 1]) with the exact sign test
    (McNemar's, draws counting half), and the change of its margin."""

    low_cards: int
    high_cards: int
    score_change: Summary
    test: TestResult
    margin_change: Summary

    def to_json(self) -> dict:
        return {"from": self.low_cards, "to": self.high_cards,
                "score_change": self.score_change.to_json(), "test": self.test.to_json(),
                "margin_change": self.margin_change.to_json()}


def level_steps(levels: Sequence[HandicapLevel]) -> list[LevelStep]:
    """The paired differences between consecutive levels (in the order given)."""
    steps = []
    for one, two in zip(levels, levels[1:]):
        changes = [b - a for a, b in zip(one.results, two.results)]
        margins = [b - a for a, b in zip(one.margins, two.margins)]
        steps.append(LevelStep(one.cards, two.cards, bounded_summary(changes, -1.0, 1.0),
                               sign_test(one.results, two.results), summarise(margins)))
    return steps


@dataclass(frozen=True)
class Balance:
    """Which level balances the two agents. ``level``: the level whose 95 % interval for the
    weaker agent's score rate contains 50 % (of several, the one nearest 50 %; of equals, the
    fewest cards); else ``between``: two consecutive levels whose rates straddle 50 % (the
    balance lies between them: no level tried is it); else neither, and ``side`` says whether
    the weaker agent stays below 50 % at every level ("below": try more cards) or above."""

    level: int | None
    between: tuple[int, int] | None
    side: str | None              # "below" / "above" when no level balances them
    score: Proportion | None = field(default=None, compare=False)   # the level's, if any

    def to_json(self) -> dict:
        return {"level": self.level, "between": None if self.between is None
                else list(self.between), "side": self.side}

    def text(self) -> str:
        if self.level is not None:
            if self.score is None:
                return f"balancing level: {plural(self.level, 'card')}"
            return (f"balancing level: {plural(self.level, 'card')}: the weaker agent scores "
                    f"{self.score.value * 100:.1f} % [{self.score.low * 100:.1f}, "
                    f"{self.score.high * 100:.1f}], an interval holding 50 %")
        if self.between is not None:
            low, high = self.between
            return (f"balancing level: none of the levels tried; the weaker agent's score "
                    f"crosses 50 % between {low} and {plural(high, 'card')}")
        if self.side is None:
            return "none of the levels tried balances them"
        more = "more cards" if self.side == "below" else "fewer cards"
        return (f"none of the levels tried balances them (the weaker agent scores "
                f"{self.side} 50 % at every level: try {more})")


def balancing_level(levels: Sequence[HandicapLevel]) -> Balance:
    """The level that balances the agents, the nearest crossing of 50 %, or none (see
    :class:`Balance`); ``levels`` in order of cards."""
    levels = sorted(levels, key=lambda level: level.cards)
    inside = [level for level in levels if level.weaker_score.trials
              and level.weaker_score.low <= 0.5 <= level.weaker_score.high]
    if inside:
        best = min(inside, key=lambda level: (abs(level.weaker_score.value - 0.5), level.cards))
        return Balance(best.cards, None, None, best.weaker_score)
    for one, two in zip(levels, levels[1:]):
        a, b = one.weaker_score.value, two.weaker_score.value
        if (a - 0.5) * (b - 0.5) < 0:
            return Balance(None, (one.cards, two.cards), None)
    if not levels:
        return Balance(None, None, None)
    below = all(level.weaker_score.value < 0.5 for level in levels)
    above = all(level.weaker_score.value > 0.5 for level in levels)
    return Balance(None, None, "below" if below else "above" if above else None)


def handicap_calibration(layouts: Sequence[Layout], weaker: str, stronger: str, *,
                         handicaps: Sequence[int] = (0, 1, 2), games: int = 100, seed: int = 0,
                         variant: KiwaraVariant | None = None, deck: Any = None,
                         workers: int | None = 1) -> list[HandicapLevel]:
    """How the weaker agent fares against the stronger one with each number of handicap cards,
    dealt from the top of a deck shuffled from the seed (the same order for every level, so
    the levels' games are paired); the weaker agent sits in seat i mod 2 in game i.

    A deck variant's own handicap deal (``handicap = [a, b]``, to the first and second player)
    is kept at every level: level k deals the weaker agent k cards more than its seat gets
    (level 0 is the variant as written)."""
    _check(layouts, games)
    base = _deck_variant(variant, deck, keep_handicap=True)
    all_cards = list(base.cards)
    room = len(all_cards) - sum(base.handicap)
    if max(handicaps, default=0) > room or min(handicaps, default=0) < 0:
        own = (f" beyond the variant's handicap {list(base.handicap)}"
               if any(base.handicap) else "")
        raise PlaytestError(f"handicaps must be 0 to {room} cards (the deck's size{own}), "
                            f"got {list(handicaps)}")
    levels = []
    for k in handicaps:
        tasks = []
        for i in range(games):
            game_seed = _game_seed(seed, i)
            order = [c.name for c in random.Random(game_seed).sample(all_cards, len(all_cards))]
            seat = i % 2
            order = _extra_first(order, base.handicap, k) if seat == 0 else order
            specs = (weaker, stronger) if seat == 0 else (stronger, weaker)
            level = replace(base, handicap=_add(base.handicap, seat, k))
            tasks.append((layouts[i % len(layouts)], level, order, specs, game_seed))
        results, margins = [], []
        for i, (totals, winner, _) in enumerate(parallel_map(_play, tasks, workers)):
            seat = i % 2
            results.append(_result(winner, seat))
            margins.append(totals[seat] - totals[1 - seat])
        levels.append(HandicapLevel(k, proportion(math.fsum(results), games),
                                    summarise(margins), tuple(results), tuple(margins)))
    return levels


def handicap_search(layouts: Sequence[Layout], weaker: str, stronger: str, *,
                    games: int = 100, seed: int = 0, variant: KiwaraVariant | None = None,
                    deck: Any = None, workers: int | None = 1) -> list[HandicapLevel]:
    """Search the number of handicap cards at which the weaker agent's score rate reaches 50 %:
    level 0, then 1, 2, 4 … (at most the cards left to deal) until the rate is at least 50 %,
    then bisection between the last level below and the first at or above. Returns the levels
    played, in order of cards (the same seeds as :func:`handicap_calibration`, so they pair);
    :func:`balancing_level` names the balance among them."""
    _check(layouts, games)
    base = _deck_variant(variant, deck, keep_handicap=True)
    room = len(base.cards) - sum(base.handicap)
    played: dict[int, HandicapLevel] = {}

    def reaches(k: int) -> bool:
        if k not in played:
            [played[k]] = handicap_calibration(layouts, weaker, stronger, handicaps=(k,),
                                               games=games, seed=seed, variant=variant,
                                               deck=deck, workers=workers)
        return played[k].weaker_score.value >= 0.5

    if not reaches(0):
        low, high, k = 0, None, 1
        while k <= room:
            if reaches(k):
                high = k
                break
            low, k = k, (room if k < room < 2 * k else 2 * k)
        while high is not None and high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if reaches(middle) else (middle, high)
    return [played[k] for k in sorted(played)]


@dataclass(frozen=True)
class Fairness:
    """First-player advantage and decisiveness of one rule set."""

    rules: str
    first_score: Proportion       # the first player's wins + draws / 2
    draws: Proportion
    margin: Summary               # |first − second|: how decisive the games are

    def to_json(self) -> dict:
        return {"rules": self.rules, "first_score": self.first_score.to_json(),
                "draws": self.draws.to_json(), "margin": self.margin.to_json()}


def fairness(layouts: Sequence[Layout], agents: tuple[str, str] = ("greedy", "greedy"), *,
             games: int = 100, seed: int = 0, variant: KiwaraVariant | None = None,
             workers: int | None = 1) -> Fairness:
    """First-player score rate, draw rate and mean absolute margin of ``games`` games of the
    agents on the layouts (game i on layout i mod n), under ``variant``; a deck variant's order
    is shuffled from the game's seed."""
    _check(layouts, games)
    variant = variant or KiwaraVariant()
    tasks = []
    for i in range(games):
        game_seed = _game_seed(seed, i)
        order = None
        if variant.deck_game:
            cards = list(variant.cards)
            order = [c.name for c in random.Random(game_seed).sample(cards, len(cards))]
        tasks.append((layouts[i % len(layouts)], variant, order, agents, game_seed))
    first, draws, margins = 0.0, 0, []
    for totals, winner, _ in parallel_map(_play, tasks, workers):
        first += _result(winner, 0)
        draws += winner is None
        margins.append(abs(totals[0] - totals[1]))
    return Fairness(variant.name, proportion(first, games), proportion(draws, games),
                    summarise(margins))


def deck_versus_okapi(layouts: Sequence[Layout], agents: tuple[str, str] = ("greedy", "greedy"),
                      *, games: int = 100, seed: int = 0, variant: KiwaraVariant | None = None,
                      deck: Any = None, workers: int | None = 1) -> tuple[Fairness, Fairness]:
    """:func:`fairness` under the Okapi alone and under the deck, with the same seeds."""
    base = variant or KiwaraVariant()
    okapi = replace(base, reinforcement="okapi", handicap=(0, 0), name=f"{base.name} (okapi)")
    with_deck = replace(_deck_variant(base, deck), name=f"{base.name} (deck)")
    return (fairness(layouts, agents, games=games, seed=seed, variant=okapi, workers=workers),
            fairness(layouts, agents, games=games, seed=seed, variant=with_deck, workers=workers))


__all__ = ["Balance", "CardValue", "Fairness", "HandicapLevel", "LevelStep", "balancing_level",
           "card_values", "deck_versus_okapi", "fairness", "handicap_calibration", "handicap_search", "level_steps"]
