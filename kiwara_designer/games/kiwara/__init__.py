"""Kiwara: the board side (geometry, layouts, formats, validation, the generator) and the rules
engine (variants, game states, moves and notation, perft, records), with the game's agents'
evaluation, lab metrics, prints, terminal view and commands in this package's modules.
Rules: docs/rules/kiwara.md (the rules reference, in the project's words).

The engine modules do no I/O except loading variant and record files; no click, no terminal.
"""
from .formats import InputError, load_layout, load_layouts
from .geometry import DEFAULT_GRID, Grid
from .layout import Layout, Territory
from .validation import CLASSIC, FREE_PLAY, Ruleset, validate
from ...core.game import perft, perft_divide
from .game import KIWARA, KiwaraGame
from .moves import PASS, IllegalMoveError, Move, NotationError
from .record import KiwaraRecord, RecordError, ReplayError
from .scoring import Scoring, TerritoryScore
from .state import KiwaraState, PositionError, Token, new_game, setup_position
from .variant import (KINDS, KIND_NAMES, KiwaraVariant, VariantError, builtin_variant_names,
                      load_variant)

__all__ = ["CLASSIC", "DEFAULT_GRID", "FREE_PLAY", "Grid", "InputError", "Layout", "Ruleset",
           "Territory", "load_layout", "load_layouts", "validate",
           "KIWARA", "KiwaraGame", "KiwaraVariant", "Move", "KiwaraState", "new_game", "IllegalMoveError", "perft", "perft_divide",
           "KiwaraRecord", "RecordError", "ReplayError", "NotationError", "PASS", "Scoring",
           "TerritoryScore", "Token", "KINDS", "KIND_NAMES", "VariantError", "builtin_variant_names",
           "load_variant", "setup_position", "PositionError"]
