"""Kiwara in ``kiwara studio``: its adapter (:mod:`.adapter`: playing a board against an agent)
and its own views, the board tools: Draw (:mod:`.boards`) and Print (:mod:`.prints`). The
studio finds ``ADAPTER`` by the game's name."""
from .adapter import ADAPTER

__all__ = ["ADAPTER"]
