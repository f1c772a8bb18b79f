"""The game-neutral core: the game protocol and registry (:mod:`.game`). Agents, the play-test lab,
records, I/O and the CLI see a game only through it, so a new game is one package plus one line in
:data:`.game.GAMES`."""
from .game import (CHANCE, GAMES, TERMINAL, Game, GameNotFoundError, Outcome, State, game_names,
                   get_game, sample_chance)

__all__ = ["CHANCE", "GAMES", "Game", "GameNotFoundError", "Outcome", "State", "TERMINAL",
           "game_names", "get_game", "sample_chance"]
