"""Awimbawé's commands, as the group the ``kiwara`` command asks every game for (``group``): the
``kiwara awimbawe`` group, with its play and lab commands."""
from . import lab as _lab  # noqa: F401  (adds playtest, compare, sweep and cards to the group)
from .play import awimbawe as group

__all__ = ["group"]
