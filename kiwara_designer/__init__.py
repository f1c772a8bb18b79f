"""kiwara-designer: design, validate, print and play-test boards and rules variants of Kiwara, and
the card game Awimbawé.

The map: neutral layers (:mod:`.core`: the game protocol, variants, records, statistics;
:mod:`.agents`; :mod:`.lab`, the play-test lab; :mod:`.printing`, the printing toolkit), one
package per game under :mod:`.games` (:mod:`.games.kiwara`, :mod:`.games.awimbawe`), and the
shells :mod:`.cli` and :mod:`.studio`.
"""
from .core.errors import KiwaraError

__all__ = ["KiwaraError"]
__version__ = "0.1.0"
