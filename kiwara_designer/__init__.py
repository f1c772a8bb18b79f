"""kiwara-designer: validate, generate, print and play-test boards and rules variants of Kiwara."""
from .errors import KiwaraError
from .formats import InputError, load_layout, load_layouts
from .geometry import DEFAULT_GRID, Grid
from .layout import Layout, Territory
from .validation import CLASSIC, FREE_PLAY, Ruleset, validate

__all__ = ["CLASSIC", "DEFAULT_GRID", "FREE_PLAY", "Grid", "InputError", "KiwaraError", "Layout",
           "Ruleset", "Territory", "load_layout", "load_layouts", "validate"]
__version__ = "0.1.0"
