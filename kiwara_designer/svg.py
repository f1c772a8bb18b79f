"""SVG drawing of printable boards: the public face of :mod:`kiwara_designer.printing`.

At the edge like ``terminal``: it imports the core (geometry, layout), never the reverse.
"""
from .printing import *  # noqa: F401,F403
from .printing import __all__  # noqa: F401
