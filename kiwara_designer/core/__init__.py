"""The game-neutral core: the game protocol, registry and perft (:mod:`.game`), rules variants
(:mod:`.variants`: a game declares its parameters), records (:mod:`.records`: one JSON envelope),
statistics (:mod:`.stats`), bounded I/O (:mod:`.io`), numbers read from text (:mod:`.numbers`),
workers and the one error class (:mod:`.errors`). Agents, the play-test lab and the shells see
a game only through it, so a new game is one package under :mod:`kiwara_designer.games` (or
one :func:`.game.register_game` call for a game kept elsewhere)."""
from .game import (CHANCE, DEFAULT_GAME, GAMES, TERMINAL, Game, GameBase, GameNotFoundError,
                   Metric, Outcome, State, Tracker, game_names, game_part, get_game, perft,
                   perft_divide, register_game, sample_chance)

__all__ = ["CHANCE", "DEFAULT_GAME", "GAMES", "Game", "GameBase", "GameNotFoundError", "Metric",
           "Outcome", "State", "TERMINAL", "Tracker", "game_names", "game_part", "get_game", "perft",
           "perft_divide", "register_game", "sample_chance"]
