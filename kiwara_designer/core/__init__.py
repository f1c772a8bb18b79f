"""The game-neutral core: the game protocol and registry (:mod:`.game`). Agents, the play-test lab,
records, I/O and the CLI see a game only through it, so a new game is one package plus one line in
:data:`.game.GAMES`."""
from .game import (CHANCE, DEFAULT_GAME, GAMES, TERMINAL, Game, GameNotFoundError, Metric, Outcome,
                   State, Tracker, game_names, get_game, perft, sample_chance)

__all__ = ["CHANCE", "DEFAULT_GAME", "GAMES", "Game", "GameNotFoundError", "Metric", "Outcome",
           "State", "TERMINAL", "Tracker", "game_names", "get_game", "perft", "sample_chance"]
