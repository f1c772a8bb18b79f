"""The Kiwara rules engine: rules variants, game states, moves and notation, perft, records.
Rules: docs/rules/kiwara.md (the rules reference, in the project's words).

No I/O here except loading variant and record files; no click, no terminal.
"""
from ..core.game import perft, perft_divide
from .game import KIWARA, KiwaraGame
from .moves import PASS, IllegalMoveError, Move, NotationError
from .record import GameRecord, RecordError, ReplayError
from .scoring import Scoring, TerritoryScore
from .state import GameState, PositionError, Token, new_game, setup_position
from .variant import KINDS, KIND_NAMES, RuleVariant, VariantError, builtin_variant_names, load_variant

__all__ = ["KIWARA", "KiwaraGame", "RuleVariant", "Move", "GameState", "new_game", "IllegalMoveError", "perft", "perft_divide",
           "GameRecord", "RecordError", "ReplayError", "NotationError", "PASS", "Scoring",
           "TerritoryScore", "Token", "KINDS", "KIND_NAMES", "VariantError", "builtin_variant_names",
           "load_variant", "setup_position", "PositionError"]
