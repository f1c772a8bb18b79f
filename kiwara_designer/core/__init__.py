"""The game-neutral core: the game protocol, registry and perft (:mod:`.game`), rules variants
(:mod:`.variants`: a game declares its parameters), records (:mod:`.records`: one JSON envelope),
bounded I/O (:mod:`.io`) and workers. Agents, the play-test lab and the CLI see a game only
through it, so a new game is one package plus one line in :data:`.game.GAMES`."""
from .game import (CHANCE, DEFAULT_GAME, GAMES, TERMINAL, Game, GameNotFoundError, Metric, Outcome,
                   State, Tracker, game_names, get_game, perft, perft_divide, sample_chance)

__all__ = ["CHANCE", "DEFAULT_GAME", "GAMES", "Game", "GameNotFoundError", "Metric", "Outcome",
           "State", "TERMINAL", "Tracker", "game_names", "get_game", "perft", "perft_divide",
           "sample_chance"]
