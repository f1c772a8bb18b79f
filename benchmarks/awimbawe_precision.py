"""Precision benchmark of the Awimbawé lab: how long the default agents (greedy,greedy) take to
know the round-1 leader's match win rate to ±3 % (95 % Wilson interval), on all cores.

    python benchmarks/awimbawe_precision.py [HALF_WIDTH] [WORKERS]

Plays the lab's seeded matches in rounds (as ``--precision`` does, there for the first seat)
until the round-1 leader's interval is narrow enough; prints matches, interval and seconds."""
from __future__ import annotations

import sys
import time

from kiwara_designer.core.game import get_game
from kiwara_designer.lab import play_games
from kiwara_designer.core.stats import games_for_half_width

HALF_WIDTH = float(sys.argv[1]) if len(sys.argv) > 1 else 0.03
WORKERS = int(sys.argv[2]) if len(sys.argv) > 2 else None


def main() -> None:
    game = get_game("awimbawe")
    metric = next(m for m in game.metrics() if m.name == "round1_leader_match_win_rate")
    started = time.perf_counter()
    games, want = [], 200
    while True:
        games += play_games(None, None, "greedy,greedy", want - len(games), 0, WORKERS, game,
                            first_index=len(games))
        rate = metric.compute(games, None)
        if rate.half_width <= HALF_WIDTH:
            break
        want = max(int(games_for_half_width(HALF_WIDTH, rate.value) * 1.02) + 1, len(games) + 20)
    seconds = time.perf_counter() - started
    print(f"round-1 leader match win rate {rate.value:.3f} [{rate.low:.3f}, {rate.high:.3f}] "
          f"(±{rate.half_width:.3f}) after {len(games)} matches in {seconds:.1f} s "
          f"({len(games) / seconds:.1f} matches/s)")


if __name__ == "__main__":
    main()
