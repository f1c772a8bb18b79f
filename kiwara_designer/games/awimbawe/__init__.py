"""Awimbawé, the two-player trick-taking card game: exact rules engine, variants, notation,
records, information sets. Rules: docs/rules/awimbawe.md. Knows nothing of files or click
beyond reading variant files and records."""
from .cards import NAMES, parse_card, parse_deck
from .moves import IllegalMoveError, Move, parse_move
from .state import (AwimbaweState, Deal, RoundResult, new_match, new_round, round_perft,
                    round_perft_divide)
from .variant import AwimbaweVariant, builtin_variant_names, load_variant

__all__ = ["NAMES", "parse_card", "parse_deck", "IllegalMoveError", "Move", "parse_move",
           "AwimbaweState", "Deal", "RoundResult", "new_match", "new_round", "round_perft",
           "round_perft_divide",
           "AwimbaweVariant", "builtin_variant_names", "load_variant"]
